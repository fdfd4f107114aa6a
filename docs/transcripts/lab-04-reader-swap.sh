# SPDX-License-Identifier: MIT
# Lab 04's solution in the guest: a non-blocking swap on an empty buffer, a
# partly read sub-buffer, then the lab's check.
. "$GUEST_PREFIX/tests/guest-lib.sh"
trace_reset
cd "$GUEST_PREFIX/labs/04-reader-swap"
echo "$ ./swap 0 nonblock"
./swap 0 nonblock
echo "$ ./swap 0 partial"
./swap 0 partial
echo "$ sh check.sh ."
sh check.sh .
