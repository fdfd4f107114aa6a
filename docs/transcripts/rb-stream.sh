# SPDX-License-Identifier: MIT
# The example streaming tool on CPU 0: three trace_marker lines, then an
# 8 KiB buffer overrun by 2000 lines, on the counter clock so that the
# counts do not depend on the machine's speed (times left out).
. "$GUEST_PREFIX/tests/guest-lib.sh"
trace_reset
taskset -c 0 sh -c "{ echo hello; echo ring buffer; echo third line; } >$TRACEFS/trace_marker"
echo "$ trace_stream --cpu 0 --nonblock"
trace_stream --cpu 0 --nonblock
trace_reset
echo counter >$TRACEFS/trace_clock
echo 8 >$TRACEFS/buffer_size_kb
event_burst 2000
echo "$ echo counter > trace_clock; echo 8 > buffer_size_kb"
echo "$ ...  # 2000 lines 'event N' to trace_marker"
echo "$ trace_stream --cpu 0 --nonblock >out; wc -l <out; cut -d' ' -f3- out | sed -n '1,3p;\$p'"
trace_stream --cpu 0 --nonblock >/tmp/stream.out
wc -l </tmp/stream.out
cut -d' ' -f3- /tmp/stream.out | sed -n '1,3p;$p'
rm -f /tmp/stream.out
echo local >$TRACEFS/trace_clock
trace_reset
