# SPDX-License-Identifier: MIT
# Losing events on purpose: one CPU, an 8 KiB buffer, 2000 trace_marker
# writes; first in overwrite mode, then in producer/consumer mode. The
# counter clock keeps every event the same size (no time extends), so the
# counts do not depend on the machine's speed.
. "$GUEST_PREFIX/tests/guest-lib.sh"
for overwrite in 1 0; do
	trace_reset
	echo counter >$TRACEFS/trace_clock
	echo "$overwrite" >$TRACEFS/options/overwrite
	echo 8 >$TRACEFS/buffer_size_kb
	echo "$ echo counter > trace_clock; echo $overwrite > options/overwrite; echo 8 > buffer_size_kb"
	echo "$ taskset -c 0 ...  # 2000 writes of 'event N' to trace_marker, counting failures"
	event_burst 2000 report
	echo "$ cat per_cpu/cpu0/stats"
	cat $TRACEFS/per_cpu/cpu0/stats
	echo "$ rb_peek steps <<EOF"
	rb_peek steps <<STEPS
show
get
get
get
get
get
STEPS
done
echo local >$TRACEFS/trace_clock
trace_reset
