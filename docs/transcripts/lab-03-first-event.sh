# SPDX-License-Identifier: MIT
# Lab 03's solution in the guest: one marker on CPU 0, decoded by hand, then
# the lab's check.
. "$GUEST_PREFIX/tests/guest-lib.sh"
trace_reset
cd "$GUEST_PREFIX/labs/03-first-event"
echo "$ taskset -c 0 sh -c 'echo hello from lab 03 > trace_marker'"
taskset -c 0 sh -c "echo hello from lab 03 >$TRACEFS/trace_marker"
echo "$ ./first_event 0"
./first_event 0
echo "$ sh check.sh . | grep ': labs/'"
sh check.sh . | grep ': labs/'
