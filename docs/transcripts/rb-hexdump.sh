# SPDX-License-Identifier: MIT
# Three trace_marker writes on CPU 0, then one read() of CPU 0's
# trace_pipe_raw, dumped as 32-bit little-endian words, with the format
# files that describe it.
. "$GUEST_PREFIX/tests/guest-lib.sh"
echo local >$TRACEFS/trace_clock # whatever an earlier script chose
trace_reset
cd $TRACEFS
echo "$ cat events/header_page"
cat events/header_page
echo "$ cat events/header_event"
cat events/header_event
echo "$ cat events/ftrace/print/format"
cat events/ftrace/print/format
long=$(printf '%0100d' 0 | tr 0 x)
echo "$ taskset -c 0 sh -c '{ echo hello; echo ring buffer; echo <100 x>; } >trace_marker'"
taskset -c 0 sh -c "{ echo hello; echo ring buffer; echo $long; } >trace_marker"
echo "$ dd if=per_cpu/cpu0/trace_pipe_raw bs=4096 count=1 | od -A d -t x4"
dd if=per_cpu/cpu0/trace_pipe_raw bs=4096 count=1 2>/dev/null | od -A d -t x4
trace_reset
