# SPDX-License-Identifier: MIT
# Lab 07's solution in the guest: the lab's check, which drains the same
# 10000 seq_producer events once with read() and once through the mapping.
. "$GUEST_PREFIX/tests/guest-lib.sh"
cd "$GUEST_PREFIX/labs/07-measure"
echo "$ sh check.sh ."
sh check.sh .
