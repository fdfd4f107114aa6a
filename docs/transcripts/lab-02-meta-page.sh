# SPDX-License-Identifier: MIT
# Lab 02's solution in the guest: the meta-page's fields, when they change,
# then the lab's check.
. "$GUEST_PREFIX/tests/guest-lib.sh"
trace_reset
cd "$GUEST_PREFIX/labs/02-meta-page"
echo "$ ./meta 0"
./meta 0
echo "$ ./meta 0 watch 5"
./meta 0 watch 5
echo "$ sh check.sh ."
sh check.sh .
