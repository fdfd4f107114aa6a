#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest side of tests/interop-host.test.sh (busybox sh): record events in
# instances, keep the kernel's own text of each (its "trace" file, read
# before anything consumes), then read them through the mapping with
# trace_stream into OUT (the host's share). The host checks the files.
#   interop-record.sh OUT
# OUT/NAME.trace   the instance's trace file (the kernel's formatter)
# OUT/NAME.txt     trace_stream's lines; NAME.dat its trace.dat (--output)
# OUT/NAME.err     its stderr; OUT/NAME.rc its exit status
set -u
out=$1
T=/sys/kernel/tracing
GUEST_PREFIX=${GUEST_PREFIX:-/opt/trace-mmap-guide}
bin=$GUEST_PREFIX/bin
. "$GUEST_PREFIX/tests/guest-lib.sh" # wait_catches

# new_instance NAME SIZE_KB: an empty instance, tracing off
new_instance() {
	rmdir "$T/instances/$1" 2>/dev/null
	mkdir "$T/instances/$1" || exit 1
	echo 0 >"$T/instances/$1/tracing_on"
	echo "$2" >"$T/instances/$1/buffer_size_kb"
}

# markers CPUMASK COUNT TEXT INSTANCE...: COUNT trace_marker writes pinned
# to CPUMASK, each written to every INSTANCE.
markers() {
	mask=$1 count=$2 text=$3
	shift 3
	taskset "$mask" sh -c '
		n=$1 text=$2; shift 2; i=0
		while [ $i -lt $n ]; do
			i=$((i + 1))
			for d; do echo "$text $i" >/sys/kernel/tracing/instances/$d/trace_marker; done
		done' sh "$count" "$text" "$@"
}

# record NAME [ARGS...]: the trace file, then trace_stream of NAME.
record() {
	name=$1
	shift
	echo 0 >"$T/instances/$name/tracing_on"
	cat "$T/instances/$name/trace" >"$out/$name.trace"
	"$bin/trace_stream" --instance "$name" "$@" >"$out/$name.txt" 2>"$out/$name.err"
	echo $? >"$out/$name.rc"
}

# stream NAME [ARGS...]: trace_stream of NAME in the background, live,
# once it has its SIGINT handler (sent before, stop_stream's SIGINT would
# be lost: sh starts a background command with SIGINT ignored).
stream() {
	name=$1
	shift
	"$bin/trace_stream" --instance "$name" "$@" >"$out/$name.txt" 2>"$out/$name.err" &
	reader=$!
	wait_catches $reader 2 || echo "interop-record: trace_stream did not set its SIGINT handler in 30 s" >>"$out/$name.err"
}

# stop_stream: SIGINT, then its exit status into NAME.rc
stop_stream() {
	kill -INT $reader
	wait $reader
	echo $? >"$out/$name.rc"
}

nproc >"$out/nproc"

# idle: CPU 1 writes nothing; each marker goes to both instances.
new_instance idle-a 1024
new_instance idle-b 1024
echo 1 >"$T/instances/idle-a/tracing_on"
echo 1 >"$T/instances/idle-b/tracing_on"
markers 1 300 idle idle-a idle-b
echo 0 >"$T/instances/idle-a/tracing_on"
cat "$T/instances/idle-a/trace" >"$out/idle-a.trace"
stream idle-a --output "$out/idle-a.dat"
sleep 1
stop_stream
record idle-b --per-cpu --nonblock

# loss: CPU 0 overwrites a small buffer while CPU 1 writes a few, at once.
new_instance loss-a 8
new_instance loss-b 8
echo 1 >"$T/instances/loss-a/tracing_on"
echo 1 >"$T/instances/loss-b/tracing_on"
markers 1 1500 busy loss-a loss-b &
markers 2 40 calm loss-a loss-b &
wait
record loss-a --nonblock --output "$out/loss-a.dat"
record loss-b --per-cpu --nonblock --output "$out/loss-b.dat"

# live: the merged reader (and its trace.dat, of 8 KiB sub-buffers) runs
# while both CPUs write. Its watermark is 100 ms, not 10: once, in a make
# check run with 10 ms, an event of CPU 0 came out after two of CPU 1
# stamped 0.72 and 0.86 ms later (docs/ringbuffer/tracedat.rst).
new_instance live-a 64
echo 8 >"$T/instances/live-a/buffer_subbuf_size_kb" # 8 KiB sub-buffers
new_instance live-b 1024
echo 1 >"$T/instances/live-a/tracing_on"
echo 1 >"$T/instances/live-b/tracing_on"
stream live-a --output "$out/live-a.dat" --watermark 100
sleep 1
markers 1 800 left live-a live-b &
left=$!
markers 2 800 right live-a live-b &
wait $left $!
sleep 1
stop_stream
echo 0 >"$T/instances/live-b/tracing_on"
"$bin/trace_stream" --instance live-b --per-cpu --nonblock >"$out/live-b.txt" 2>"$out/live-b.err"
echo $? >"$out/live-b.rc"

# clock: the merged reader runs while both CPUs write with trace_clock tai
# (CLOCK_TAI: the wall clock, from 1970), which then goes to local (boot).
# Setting the clock resets the buffers; every event after it is stamped
# before those already printed, so trace_stream must count each of the
# CLOCK_N events written after the switch as out of time order.
CLOCK_N=120
echo $CLOCK_N >"$out/clock.n"
new_instance clock 1024
echo tai >"$T/instances/clock/trace_clock"
echo 1 >"$T/instances/clock/tracing_on"
stream clock
markers 1 20 before clock &
left=$!
markers 2 20 before clock &
wait $left $!
# every event printed before the switch (stdout is flushed when the merge
# waits); at most 10 s
i=0
while [ "$(grep -c ' before ' "$out/clock.txt")" -lt 40 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo local >"$T/instances/clock/trace_clock"
markers 1 $((CLOCK_N / 2)) after clock &
left=$!
markers 2 $((CLOCK_N / 2)) after clock &
wait $left $!
sleep 0.5
stop_stream

# real: scheduler, interrupt and system-call events of a small workload.
new_instance real 2048
for e in sched/sched_switch sched/sched_wakeup sched/sched_process_exec \
	irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit \
	syscalls/sys_enter_openat syscalls/sys_exit_openat; do
	echo 1 >"$T/instances/real/events/$e/enable" 2>>"$out/real.enable-errors"
done
echo 1 >"$T/instances/real/tracing_on"
taskset 1 sh -c 'cat /proc/version >/dev/null; cat /nonexistent 2>/dev/null; ls /opt >/dev/null; echo interop-record >/dev/ttyS0' &
taskset 2 sh -c 'i=0; while [ $i -lt 30 ]; do i=$((i + 1)); cat /proc/uptime >/dev/null; done' &
wait
sleep 1
record real --nonblock --output "$out/real.dat"

for d in idle-a idle-b loss-a loss-b live-a live-b clock real; do rmdir "$T/instances/$d"; done
echo done >"$out/done"
