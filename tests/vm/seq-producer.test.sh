#!/bin/sh
# SPDX-License-Identifier: MIT
# The sequenced event producer (examples/modules/seq_producer): load it,
# drive runs through its parameters, check that every sequence number is
# either in the buffer or counted as overrun, that a bound run ends when its
# CPU goes offline, and unload it while it produces and while something
# writes its "run" parameter.
. "$(dirname "$0")/guest-lib.sh"

P=$SEQ_PARAMS
EV=$TRACEFS/events/seq_producer/seq_event
CPU=1


# run_producer COUNT SIZE RATE: one run on $CPU, waited for
run_producer() {
	seq_configure $CPU "$1" "$2" "$3" && echo 1 >$P/run && seq_wait_end 120
}

# seqs CPU: the sequence numbers in that CPU's buffer, oldest first
seqs() { sed -n 's/.* seq_event: seq=\([0-9]*\) .*/\1/p' "$TRACEFS/per_cpu/cpu$1/trace"; }

# consecutive FIRST: "ok" when the numbers on stdin are FIRST, FIRST+1, ...
consecutive() { awk -v first="$1" '$1 != first + NR - 1 { print "gap at line " NR ": " $1; exit } END { if (NR) print "ok" }'; }

stat_of() { sed -n "s/^$2: //p" "$TRACEFS/per_cpu/cpu$1/stats"; }

# kernel_reports: how many warnings, bugs and oopses the kernel logged
kernel_reports() { dmesg | grep -c -E 'WARNING:|BUG:|Oops'; }

warnings_before=$(kernel_reports)
if ! seq_load; then
	fail load "insmod $SEQ_MODULE failed"
	exit 0
fi
pass load
check event-has-seq-field grep -q 'field:u64 seq;' "$EV/format"

# A run whose events all fit: 0..4999 in order, all on $CPU.
trace_reset
echo 1 >"$EV/enable"
if run_producer 5000 16 0; then pass run-ends; else fail run-ends "run still 1 after 120 s"; fi
expect_eq produced 5000 "$(cat $P/produced)"
expect_eq events-in-sequence ok "$(seqs $CPU | consecutive 0)"
expect_eq event-count 5000 "$(seqs $CPU | wc -l)"
expect_eq nothing-on-other-cpu 0 "$(seqs 0 | wc -l)"

# An overflowing run: the oldest events are overwritten, and what remains
# plus the overrun count is everything produced.
trace_reset
echo 16 >$TRACEFS/buffer_size_kb
echo 1 >"$EV/enable"
run_producer 20000 32 0
entries=$(stat_of $CPU entries)
overrun=$(stat_of $CPU overrun)
expect_eq overflow-accounted 20000 "$((entries + overrun))"
expect_eq overflow-entries-listed "$entries" "$(seqs $CPU | wc -l)"
expect_eq overflow-oldest-is-overrun ok "$(seqs $CPU | consecutive "$overrun")"
expect_ge overflow-happened 1 "$overrun" "events overrun"

# A rate-limited run: 20 events at 100 per second take 0.2 s or more.
trace_reset
echo 1 >"$EV/enable"
t0=$(uptime_cs)
run_producer 20 0 100
t1=$(uptime_cs)
expect_eq rate-produced 20 "$(cat $P/produced)"
expect_ge rate-limited 19 $((t1 - t0)) "centiseconds for 20 events at 100/s"

# An unbounded run stops on request, and a second start meanwhile is EBUSY.
echo 0 >$P/count && echo 1000 >$P/rate && echo 1 >$P/run
sleep 0.3
expect_eq unbounded-running 1 "$(cat $P/run)"
check_fails start-while-running-busy sh -c "echo 1 >$P/run"
echo 0 >$P/run
expect_eq stopped 0 "$(cat $P/run)"
p1=$(cat $P/produced)
sleep 0.2
expect_eq stopped-stays "$p1" "$(cat $P/produced)"
expect_ge stopped-after-producing 1 "$p1" "events produced"

# Bad parameters are refused: a size when written, a CPU at start.
echo 16 >$P/size
check_fails size-too-large-refused sh -c "echo 4096 >$P/size"
expect_eq size-kept 16 "$(cat $P/size)"
echo 0 >$P/size
echo 7 >$P/cpu
check_fails absent-cpu-refused sh -c "echo 1 >$P/run"

# A run bound to a CPU ends when that CPU goes offline, and none of its
# events is written on another CPU.
ONLINE=/sys/devices/system/cpu/cpu$CPU/online
if [ -w $ONLINE ]; then
	trace_reset
	echo 1 >"$EV/enable"
	seq_configure $CPU 0 0 1000 && echo 1 >$P/run
	sleep 0.3
	echo 0 >$ONLINE
	if seq_wait_end 10; then pass hotplug-ends-run; else fail hotplug-ends-run "run still 1 with cpu$CPU offline"; echo 0 >$P/run; fi
	echo 1 >$ONLINE
	expect_eq hotplug-nothing-elsewhere 0 "$(seqs 0 | wc -l)"
	echo 0 >"$EV/enable"
else
	fail hotplug-ends-run "$ONLINE is not writable"
fi

# Unloading while producing stops the producer.
echo $CPU >$P/cpu && echo 0 >$P/count && echo 0 >$P/rate && echo 1 >$P/run
sleep 0.2
check unload-while-producing rmmod seq_producer
check unloaded test ! -e /sys/module/seq_producer

# Unloading while "run" is being written: no run may start once the
# module's exit has begun (its thread would run in freed module text).
# Ten unloads, each racing a writer on the other CPU.
race=ok
i=0
while [ $i -lt 10 ]; do
	i=$((i + 1))
	seq_load cpu=$CPU count=0 rate=0 || { race="insmod failed (unload $i)"; break; }
	taskset -c 0 sh -c "while :; do echo 1 >$P/run; done" 2>/dev/null &
	writer=$!
	sleep 0.1
	rmmod seq_producer || race="rmmod failed (unload $i)"
	kill $writer 2>/dev/null
	wait $writer 2>/dev/null
	[ "$race" = ok ] || break
	sleep 0.1
	if grep -qx seq_producer /proc/[0-9]*/comm 2>/dev/null; then
		race="a seq_producer thread outlived the module (unload $i)"
		break
	fi
	if [ "$(kernel_reports)" != "$warnings_before" ]; then
		race="the kernel logged a bug during unload $i: $(dmesg | grep -E 'BUG:|Oops' | head -n 1)"
		break
	fi
done
expect_eq rmmod-while-run-written ok "$race"
test -e /sys/module/seq_producer && rmmod seq_producer

# run=1 at load time starts a run once the module is ready.
trace_reset
check load-with-run seq_load cpu=$CPU count=100 run=1
if [ -d $P ] && seq_wait_end 30; then
	expect_eq load-with-run-produced 100 "$(cat $P/produced)"
else
	fail load-with-run-produced "no run or run did not end"
fi
rmmod seq_producer 2>/dev/null
trace_reset
expect_eq no-kernel-warnings "$warnings_before" "$(kernel_reports)"
