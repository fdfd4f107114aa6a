# SPDX-License-Identifier: MIT
# Lab 07's solution in the guest: the lab's check, which drains the same
# seq_producer events (6000 to 12000, chosen each run) with read() and
# through the mapping.
. "$GUEST_PREFIX/labs/check-helpers.sh"
lab_shell 07-measure
echo "$ sh ../../07-measure/check.sh ."
sh ../../07-measure/check.sh .
