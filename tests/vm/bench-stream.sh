#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest half of "make bench-stream": trace_stream's throughput, merged
# (the default) against --per-cpu (issue 26). The sequenced producer writes
# on CPU 0, N events as fast as it can (rate=0) or N_PACED at PACED a
# second, while trace_stream --interval 50 writes its lines to a file in
# tmpfs:
#   busy=1  CPU 1 writes nothing (trace_stream runs there, pinned);
#   busy=2  CPU 1 also writes M trace_marker lines from a shell loop
#           (trace_stream not pinned: it shares the two CPUs).
# A run ends when the writers have ended; trace_stream then gets a second
# to catch up before SIGINT. Appends one line per run to OUT_FILE:
# "rep=R rate=R mode=M busy=B produced=P delivered=D missed=L cs=T", T the
# writers' time in centiseconds. Figures, not a test: nothing here fails
# on a slow run.
#   bench-stream.sh OUT_FILE [REPS]
set -eu
. "$(dirname "$0")/guest-lib.sh"

out=$1
reps=${2:-3}
N=${BENCH_STREAM_EVENTS:-400000}
M=${BENCH_STREAM_MARKERS:-40000}
PACED=${BENCH_STREAM_PACED:-20000}
N_PACED=${BENCH_STREAM_PACED_EVENTS:-40000}
tmp=/tmp/bench-stream
rm -rf $tmp && mkdir -p $tmp
seq_load

# one REP RATE MODE BUSY: one run, its line into OUT_FILE
one() {
	local rep=$1 rate=$2 mode=$3 busy=$4 opt='' pin='' pid mpid='' t0 t1 rc=0 n=$N
	local produced seq marks missed
	[ "$mode" = merged ] || opt=--per-cpu
	[ "$busy" = 2 ] || pin='taskset -c 1'
	trace_reset
	echo 1 >$TRACEFS/events/seq_producer/seq_event/enable
	[ "$rate" = 0 ] || n=$N_PACED
	seq_configure 0 "$n" 16 "$rate"
	$pin trace_stream --interval 50 $opt >$tmp/out 2>$tmp/err &
	pid=$!
	sleep 1
	t0=$(uptime_cs)
	echo 1 >$SEQ_PARAMS/run
	if [ "$busy" = 2 ]; then
		taskset -c 1 sh -c 'i=0; while [ $i -lt '"$M"' ]; do echo "m $i"; i=$((i + 1)); done >'$TRACEFS/trace_marker &
		mpid=$!
	fi
	seq_wait_end 600 || echo "bench-stream: the producer still runs after 600 s" >&2
	[ -z "$mpid" ] || wait "$mpid"
	t1=$(uptime_cs)
	sleep 1
	kill -INT $pid
	wait $pid || rc=$?
	[ "$rc" = 0 ] || echo "bench-stream: trace_stream exit $rc: $(head -c 200 $tmp/err)" >&2
	produced=$(cat $SEQ_PARAMS/produced)
	[ "$busy" = 1 ] || produced=$((produced + M))
	seq=$(grep -c ' seq_producer/seq_event ' $tmp/out || true)
	marks=$(grep -c ' ftrace/print ' $tmp/out || true)
	missed=$(awk '$3 == "missed" && $4 ~ /^[0-9]+$/ { s += $4 } END { print s + 0 }' $tmp/out)
	echo "rep=$rep rate=$rate mode=$mode busy=$busy produced=$produced delivered=$((seq + marks)) missed=$missed cs=$((t1 - t0))" | tee -a "$out"
}

rep=1
while [ $rep -le "$reps" ]; do
	for rate in 0 "$PACED"; do
		for busy in 1 2; do
			for mode in merged per-cpu; do
				one $rep "$rate" $mode $busy
			done
		done
	done
	rep=$((rep + 1))
done
rmmod seq_producer
rm -rf $tmp
