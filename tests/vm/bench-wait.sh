#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest half of "make bench-wait" (issue 25 item 4): what buffer_percent
# and the consumer's way of waiting change. The sequenced producer
# (examples/modules/seq_producer) writes on CPU 0; seq_consume --mode mmap
# reads CPU 0's buffer from CPU 1 through the library, for each producer
# rate in RATES (0: MAX_COUNT events as fast as it can, else 2 s at that
# rate), each buffer_percent in PERCENTS and each way of waiting:
#   block     the library waits in tracemap_get_reader() (no TRACEMAP_NONBLOCK)
#   forever   poll() with no timeout (trace_stream --interval 0)
#   pollMS    poll() with a timeout of MS ms, for each MS in TIMEOUTS
#             (trace_stream --interval MS)
# and, once per rate (buffer_percent does not matter to it), spin: poll()
# with a timeout of 0, a busy loop. The trace clock is "mono", the clock of
# CLOCK_MONOTONIC, so that seq_consume --latency can compare each event's
# time stamp with the time it reached the consumer.
#   bench-wait.sh OUT_FILE [REPS [RATES [PERCENTS [TIMEOUTS]]]]
# Appends one line per run to OUT_FILE: "rep=R rate=R bp=B strategy=S",
# then seq_consume's key=value line. Figures, not a test: nothing fails on
# a slow run.
set -eu
. "$(dirname "$0")/guest-lib.sh"

out=$1
reps=${2:-3}
RATES=${3-20000 0}
PERCENTS=${4-0 1 25 50 100}
TIMEOUTS=${5-20 100 1000}
SIZE=36 # payload bytes: 64-byte records, as in bench-run.sh
SECONDS_PER_RUN=2
MAX_COUNT=300000

# run REP RATE BP STRATEGY: one run, one line
run() {
	local count=$(($2 * SECONDS_PER_RUN)) how line
	case $4 in
	block | forever) how="--wait $4" ;;
	spin) how="--interval 0" ;;
	*) how="--interval ${4#poll}" ;;
	esac
	[ "$2" != 0 ] || count=$MAX_COUNT
	trace_reset
	echo "$3" >$TRACEFS/buffer_percent
	echo 1 >$TRACEFS/events/seq_producer/seq_event/enable
	seq_configure 0 "$count" "$SIZE" "$2"
	# shellcheck disable=SC2086 # $how: two words or one
	line=$(seq_consume --cpu 0 --on 1 --start --quick --probe --latency --mode mmap $how)
	echo "rep=$1 rate=$2 bp=$3 strategy=$4 $line" | tee -a "$out"
}

seq_load
echo mono >$TRACEFS/trace_clock
{
	echo "# kernel $(uname -r), $(nproc) CPUs, payload $SIZE bytes; buffer_size_kb $TRACE_BUFFER_KB, 4 KiB sub-buffers, trace_clock mono"
	echo "# reps $reps; rates $RATES (0: $MAX_COUNT events as fast as possible, else $SECONDS_PER_RUN s); buffer_percent $PERCENTS; poll timeouts $TIMEOUTS ms"
} >"$out"
rep=1
while [ "$rep" -le "$reps" ]; do
	for rate in $RATES; do
		run "$rep" "$rate" 50 spin
		for bp in $PERCENTS; do
			for s in block forever $(for t in $TIMEOUTS; do echo "poll$t"; done); do
				run "$rep" "$rate" "$bp" "$s"
			done
		done
	done
	rep=$((rep + 1))
done
rmmod seq_producer
echo local >$TRACEFS/trace_clock
echo 50 >$TRACEFS/buffer_percent
trace_reset
