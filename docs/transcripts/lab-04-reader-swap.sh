# SPDX-License-Identifier: MIT
# Lab 04's solution in the guest: a non-blocking swap on an empty buffer, a
# partly read sub-buffer, then the lab's check.
. /opt/trace-mmap-guide/tests/lib.sh
trace_reset
cd /opt/trace-mmap-guide/labs/04-reader-swap
echo "$ ./swap 0 nonblock"
./swap 0 nonblock
echo "$ ./swap 0 partial"
./swap 0 partial
echo "$ sh check.sh ."
sh check.sh .
