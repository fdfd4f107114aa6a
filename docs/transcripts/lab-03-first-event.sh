# SPDX-License-Identifier: MIT
# Lab 03's solution in the guest: two markers on CPU 0, decoded by hand, then
# the lab's check.
. "$GUEST_PREFIX/labs/check-helpers.sh"
trace_reset
lab_shell 03-first-event
echo "$ taskset -c 0 sh -c 'echo hello from lab 03 > trace_marker; echo again > trace_marker'"
taskset -c 0 sh -c "echo hello from lab 03 >$TRACEFS/trace_marker; echo again >$TRACEFS/trace_marker"
echo "$ ./first_event 0"
./first_event 0
echo "$ sh ../../03-first-event/check.sh . | grep ': labs/'"
sh ../../03-first-event/check.sh . | grep ': labs/'
