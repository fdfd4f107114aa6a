# SPDX-License-Identifier: MIT
# The reader swap step by step on CPU 0: what the meta-page shows before and
# after TRACE_MMAP_IOCTL_GET_READER, a writer still on the reader
# sub-buffer, and a blocking call. The counter clock keeps every event the
# same size (no time extends), whatever the machine's speed.
. "$GUEST_PREFIX/tests/guest-lib.sh"
trace_reset
echo counter >$TRACEFS/trace_clock
echo 50 >$TRACEFS/buffer_percent # the default, whatever an earlier script chose
echo "$ echo counter > trace_clock; cat buffer_percent"
cat $TRACEFS/buffer_percent
echo "$ taskset -c 0 rb_peek steps <<EOF"
taskset -c 0 rb_peek steps <<STEPS
show
write 2 first events
show
get
write 1 while the writer is on the reader page
get
get
write 120 more events
get
get
get-blocking 1
STEPS
echo "$ cat per_cpu/cpu0/stats"
cat $TRACEFS/per_cpu/cpu0/stats
echo local >$TRACEFS/trace_clock
trace_reset
