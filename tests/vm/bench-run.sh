#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest half of "make bench": the sequenced producer (examples/modules/
# seq_producer) writes on CPU 0 at rising rates while seq_consume reads CPU 0's
# buffer from CPU 1 through read(), splice() and the mapping, in turn.
#   bench-run.sh OUT_FILE [REPS]
# Appends one line per run to OUT_FILE: "rep=R rate=EVENTS_PER_S" and then
# seq_consume's key=value result line. Rate 0 is "as fast as it can".
set -eu
. "$(dirname "$0")/guest-lib.sh"

out=$1
reps=${2:-5}
SIZE=36 # payload bytes: 64-byte records; every sub-buffer keeps room for the missed count
SECONDS_PER_RUN=1
RATES="10000 50000 200000 0"
MAX_COUNT=300000 # events of an unlimited run

seq_load
{
	echo "# kernel $(uname -r), $(nproc) CPUs, sub-buffer 4 KiB, buffer_size_kb $TRACE_BUFFER_KB, payload $SIZE bytes"
	echo "# reps $reps, rates $RATES (0: as fast as possible)"
} >"$out"
rep=1
while [ $rep -le "$reps" ]; do
	for rate in $RATES; do
		count=$((rate * SECONDS_PER_RUN))
		[ "$rate" != 0 ] || count=$MAX_COUNT
		# rotate the order, so that no consumer always runs first
		case $((rep % 3)) in
		0) modes="read splice mmap" ;;
		1) modes="splice mmap read" ;;
		*) modes="mmap read splice" ;;
		esac
		for mode in $modes; do
			trace_reset
			echo 1 >$TRACEFS/events/seq_producer/seq_event/enable
			seq_configure 0 "$count" "$SIZE" "$rate"
			line=$(seq_consume --mode $mode --cpu 0 --on 1 --start --quick)
			echo "rep=$rep rate=$rate $line" | tee -a "$out"
		done
	done
	rep=$((rep + 1))
done
rmmod seq_producer
trace_reset
