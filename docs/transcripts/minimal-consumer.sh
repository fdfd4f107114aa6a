# SPDX-License-Identifier: MIT
# The consumer without the library (examples/demos/minimal_consumer.c) on
# CPU 0: three trace_marker lines, a run that finds nothing left, --count,
# then an 8 KiB buffer overrun by 2000 lines, on the counter clock so that
# the counts do not depend on the machine's speed.
. "$GUEST_PREFIX/tests/guest-lib.sh"
trace_reset
taskset -c 0 sh -c "{ echo hello; echo ring buffer; echo third line; } >$TRACEFS/trace_marker"
echo "$ minimal_consumer --cpu 0"
minimal_consumer --cpu 0
echo "$ minimal_consumer --cpu 0; echo \"exit \$?\"  # nothing left"
minimal_consumer --cpu 0
echo "exit $?"
taskset -c 0 sh -c "{ echo one; echo two; echo three; } >$TRACEFS/trace_marker"
echo "$ minimal_consumer --cpu 0 --count 2  # after three more lines"
minimal_consumer --cpu 0 --count 2
echo "$ minimal_consumer --cpu 0; echo \"exit \$?\"  # the third was on the same sub-buffer"
minimal_consumer --cpu 0
echo "exit $?"
trace_reset
echo counter >$TRACEFS/trace_clock
echo 8 >$TRACEFS/buffer_size_kb
event_burst 2000
echo "$ echo counter > trace_clock; echo 8 > buffer_size_kb"
echo "$ ...  # 2000 lines 'event N' to trace_marker"
echo "$ minimal_consumer --cpu 0 >out; wc -l <out; sed -n '1,3p;\$p' out"
minimal_consumer --cpu 0 >/tmp/minimal.out
wc -l </tmp/minimal.out
sed -n '1,3p;$p' /tmp/minimal.out
rm -f /tmp/minimal.out
echo local >$TRACEFS/trace_clock
trace_reset
