# SPDX-License-Identifier: MIT
# Lab 04's solution in the guest: a non-blocking swap on an empty buffer, a
# partly read sub-buffer, then the lab's check.
. "$GUEST_PREFIX/labs/check-helpers.sh"
trace_reset
lab_shell 04-reader-swap
echo "$ ./swap 0 nonblock"
./swap 0 nonblock
echo "$ ./swap 0 partial"
./swap 0 partial
echo "$ sh ../../04-reader-swap/check.sh ."
sh ../../04-reader-swap/check.sh .
