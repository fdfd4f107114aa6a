# SPDX-License-Identifier: MIT
# Lab 02's solution in the guest: the meta-page's fields, when they change,
# then the lab's check.
. "$GUEST_PREFIX/labs/check-helpers.sh"
trace_reset
lab_shell 02-meta-page
echo "$ ./meta 0"
./meta 0
echo "$ ./meta 0 watch 5"
./meta 0 watch 5
echo "$ sh ../../02-meta-page/check.sh ."
sh ../../02-meta-page/check.sh .
