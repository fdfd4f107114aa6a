#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 07 in the guest: the same producer (a seq_producer run of 10000
# events with 64-byte payloads on CPU 0) drained by the learner's ./measure
# with read() and through the mapping; both must see every event and byte,
# and time it.
#   sh check.sh DIR
SUITE=${SUITE:-labs/07-measure}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" measure step-1-read
total=10000 size=64
# Each seq_event: struct trace_entry (8), seq (8), len (4), the payload's
# __data_loc word (4), then the payload; rounded up to 4 bytes.
want_bytes=$((total * ((24 + size + 3) / 4 * 4)))
produce() {
	trace_reset
	seq_produce $total $size || fail step-1-read "the seq_producer module did not load"
}
# Drain with ./measure MODE, for each MODE; sets $usec_MODE, and
# $failed_drains names the modes whose counts were wrong.
failed_drains=''
for mode in read mmap; do
	step=step-$([ $mode = read ] && echo 1 || echo 2)-$mode
	produce
	run_prog 20 "$dir/measure" 0 $mode
	got=$prog_out
	echo "$got"
	events=$(echo "$got" | sed -n "s/^$mode events \([0-9]*\) .*/\1/p")
	bytes=$(echo "$got" | sed -n "s/^$mode events [0-9]* bytes \([0-9]*\) .*/\1/p")
	case $got in
	"$mode events $total bytes $want_bytes usec "*)
		eval "usec_$mode=\${got##* }"
		pass "$step"
		;;
	*)
		if [ "$prog_rc" = 143 ] && [ $mode = read ]; then
			why="still running after 20 s: does the read() drain stop at EAGAIN (trace_pipe_raw opened with O_NONBLOCK)?"
		elif [ "$prog_rc" = 143 ]; then
			why="still running after 20 s: does the drain stop when GET_READER brings nothing new (the same reader.id, the same reader.read)?"
		elif [ "$prog_rc" -gt 128 ]; then
			why="it crashed, $(status_text $prog_rc)$([ $mode = mmap ] && echo ": is each sub-buffer's address computed from the reader.id of the last GET_READER?")"
		elif [ -z "$events" ]; then
			why="want one line '$mode events N bytes B usec T'$([ -z "$got" ] || echo "; it printed: $(echo "$got" | tail -n 1)")"
		elif [ "$events" = 0 ] && [ $mode = read ]; then
			why="0 events, want $total: drain until nothing is left (each read() gives one sub-buffer; loop until EAGAIN); a read() shorter than the first event returns 0: is the buffer buffer_subbuf_size_kb * 1024 bytes?"
		elif [ "$events" -lt $total ]; then
			why="$events events, want $total: drain until nothing is left$([ $mode = read ] && echo " (each read() gives one sub-buffer; loop until EAGAIN)" || echo " (call GET_READER until it brings nothing new)")"
		elif [ "$events" -gt $total ]; then
			why="$events events, want $total: events counted twice; on the same reader sub-buffer, count only from where the last call stopped"
		else
			why="$bytes payload bytes, want $want_bytes"
		fi
		fail "$step" "$why"
		failed_drains="$failed_drains $mode"
		;;
	esac
done
if [ -n "$failed_drains" ]; then
	fail step-3-compare "no comparison: the drain of$failed_drains did not count every event"
elif [ "${usec_read:-0}" -gt 0 ] && [ "${usec_mmap:-0}" -gt 0 ]; then
	echo "read(): ${usec_read} us; mmap: ${usec_mmap} us, for $total events"
	pass step-3-compare
else
	fail step-3-compare "both drains must report their time in usec (monotonic clock); got read '${usec_read:-}', mmap '${usec_mmap:-}'"
fi
trace_reset
