#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest half of "make bench": the sequenced producer (examples/modules/
# seq_producer) writes on CPU 0 while seq_consume reads CPU 0's buffer from
# CPU 1 through read(), splice() and the mapping, in turn.
#   bench-run.sh OUT_FILE [REPS [SIZES [RATES [FIRST_REP]]]]
# Each repetition has two parts:
#  cost   at COST_RATE events/s, for each sub-buffer size in SIZES (KiB):
#         the three consumers, the mapped one again with a poll() timeout
#         of 100 ms instead of 20 (variant i100), the mapped one on half a
#         buffer written before it starts (variant idle: no writer, no
#         waiting), then the floor (seq_consume --mode floor: the
#         same decoder on sub-buffers already in memory, as many bytes as
#         the mapped consumer got);
#  rates  with 4 KiB sub-buffers, at each rate in RATES (0: as fast as it
#         can): the three consumers; at 0 also no consumer at all (the
#         producer's own rate), a process spinning on CPU 1 that reads
#         nothing until the end (what a busy CPU 1 alone costs), and the
#         mapped consumer with other poll() timeouts and buffer_percent
#         values (the saturation runs).
# Appends one line per run to OUT_FILE: "rep=R part=P size=KIB rate=R
# variant=V", then seq_consume's key=value result line. SIZES or RATES
# empty ("") skips that part. FIRST_REP (default 1) numbers the first
# repetition: "make bench-compare" runs one repetition per boot.
set -eu
. "$(dirname "$0")/guest-lib.sh"

out=$1
reps=${2:-5}
SIZES=${3-4 8 16 32 64 128 256 512}
RATES=${4-10000 50000 200000 0}
first=${5:-1}
SIZE=36 # payload bytes: 64-byte records; every sub-buffer keeps room for the missed count
RECORD=64
SECONDS_PER_RUN=1
COST_RATE=100000 # below saturation for all three consumers at every size
MAX_COUNT=300000 # events of an unlimited run
# mapped-consumer variants at saturation: "name poll-ms buffer_percent"
VARIANTS="i1:1:50 i100:100:50 p10:20:10 p90:20:90"

# setup SUBBUF_KB: reset, then sub-buffers of that size in a buffer of at
# least 8 of them (TRACE_BUFFER_KB at 4 KiB); prints buffer_size_kb.
setup() {
	local kb=$((8 * $1))
	[ $kb -ge "$TRACE_BUFFER_KB" ] || kb=$TRACE_BUFFER_KB
	trace_reset
	echo 50 >$TRACEFS/buffer_percent
	echo "$1" >$TRACEFS/buffer_subbuf_size_kb
	echo $kb >$TRACEFS/buffer_size_kb
	echo 1 >$TRACEFS/events/seq_producer/seq_event/enable
	echo $kb
}

# modes_of REP: the three consumers, in an order that rotates with REP
modes_of() {
	case $(($1 % 3)) in
	0) echo "read splice mmap" ;;
	1) echo "splice mmap read" ;;
	*) echo "mmap read splice" ;;
	esac
}

# run TAG SUBBUF_KB COUNT RATE SEQ_CONSUME_ARGS...: one run, one line
run() {
	local tag=$1 kb=$2 count=$3 rate=$4 line
	shift 4
	setup "$kb" >/dev/null
	seq_configure 0 "$count" "$SIZE" "$rate"
	line=$(seq_consume --cpu 0 --on 1 --start --quick --probe "$@")
	echo "$tag $line" | tee -a "$out"
}

seq_load
{
	echo "# kernel $(uname -r), $(nproc) CPUs, $(sed -n 's/^MemTotal: *//p' /proc/meminfo) memory, payload $SIZE bytes ($RECORD-byte records)"
	echo "# reps $reps; cost model: $COST_RATE events/s for $SECONDS_PER_RUN s, sub-buffers of $SIZES KiB, buffer_size_kb 8 sub-buffers or $TRACE_BUFFER_KB; rates (4 KiB sub-buffers, buffer_size_kb $TRACE_BUFFER_KB): $RATES (0: as fast as possible, $MAX_COUNT events); poll() timeout 20 ms, buffer_percent 50 unless the variant says"
} >"$out"
rep=$first
while [ "$rep" -lt $((first + reps)) ]; do
	for kb in $SIZES; do
		tag="rep=$rep part=cost size=$kb rate=$COST_RATE variant=-"
		count=$((COST_RATE * SECONDS_PER_RUN))
		bytes=0
		for mode in $(modes_of "$rep"); do
			run "$tag" "$kb" "$count" "$COST_RATE" --mode "$mode"
			[ "$mode" != mmap ] ||
				bytes=$(tail -n 1 "$out" | sed -n 's/.* bytes=\([0-9]*\) .*/\1/p')
		done
		# the mapping again, woken 5 times less often
		run "${tag%-}i100" "$kb" "$count" "$COST_RATE" --mode mmap --interval 100
		# half a buffer of events, written before the consumer starts:
		# the mapping with no writer and nothing to wait for (variant
		# idle), then the floor, the same events decoded in memory
		for mode in mmap floor; do
			buffer_kb=$(setup "$kb")
			seq_configure 0 $((buffer_kb * 1024 / 2 / RECORD)) "$SIZE" 0
			echo 1 >"$SEQ_PARAMS/run"
			seq_wait_end 60 || { echo "bench-run.sh: the producer did not finish in 60 s" >&2; exit 1; }
			if [ $mode = mmap ]; then
				line="${tag%-}idle $(seq_consume --cpu 0 --on 1 --quick --probe --mode mmap)"
			else
				line="$tag $(seq_consume --cpu 0 --on 1 --quick --mode floor --bytes "$bytes")"
			fi
			echo "$line" | tee -a "$out"
		done
	done
	for rate in $RATES; do
		count=$((rate * SECONDS_PER_RUN))
		[ "$rate" != 0 ] || count=$MAX_COUNT
		tag="rep=$rep part=rates size=4 rate=$rate"
		modes=$(modes_of "$rep")
		[ "$rate" != 0 ] || modes="none busy $modes"
		for mode in $modes; do
			run "$tag variant=-" 4 "$count" "$rate" --mode "$mode"
		done
		[ "$rate" = 0 ] || continue
		for v in $VARIANTS; do
			name=${v%%:*}
			rest=${v#*:}
			setup 4 >/dev/null
			echo "${rest#*:}" >$TRACEFS/buffer_percent
			seq_configure 0 "$count" "$SIZE" 0
			line=$(seq_consume --cpu 0 --on 1 --start --quick --probe --mode mmap --interval "${rest%%:*}")
			echo "$tag variant=$name $line" | tee -a "$out"
		done
	done
	rep=$((rep + 1))
done
rmmod seq_producer
echo 50 >$TRACEFS/buffer_percent
trace_reset
