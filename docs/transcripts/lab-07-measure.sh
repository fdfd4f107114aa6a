# SPDX-License-Identifier: MIT
# Lab 07's solution in the guest: the lab's check, which drains the same
# 10000 seq_producer events once with read() and once through the mapping.
. "$GUEST_PREFIX/labs/check-helpers.sh"
lab_shell 07-measure
echo "$ sh ../../07-measure/check.sh ."
sh ../../07-measure/check.sh .
