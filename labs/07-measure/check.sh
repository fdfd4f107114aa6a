#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 07 in the guest: the same producer (a seq_producer run on CPU
# 0, its event count and payload size chosen per run) drained by the
# learner's ./measure with read() and through the mapping; both must see
# every event and byte. Then a few more events, which the writer puts on
# the reader sub-buffer the first drain left, and a second drain must
# count those and no more. The timings are printed.
#   sh check.sh DIR
SUITE=${SUITE:-labs/07-measure}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" measure step-1-read
# Within the 1408 KiB buffer: at most 12000 events of 88 bytes; in
# sub-buffers of 8 or 16 KiB, so that a read() buffer of a fixed 4096
# bytes does not pass.
total=$(rand 6000 12000) size=$(rand 4 16) subbuf_kb=$((8 * $(rand 1 2)))
size=$((size * 4))
extra=$(rand 2 9)
# Each seq_event: struct trace_entry (8), seq (8), len (4), the payload's
# __data_loc word (4), then the payload; rounded up to 4 bytes.
event_bytes=$(((24 + size + 3) / 4 * 4))
want_bytes=$((total * event_bytes))
# A fixed timeout only for a program that never ends: a drain of 12000
# events takes well under a second even on a loaded guest.
limit=120
# line_of MODE OUTPUT: "EVENTS BYTES" from the "MODE events N bytes B usec
# T" line, empty when there is none.
line_of() { echo "$2" | sed -n "s/^$1 events \([0-9]*\) bytes \([0-9]*\) usec [0-9]*$/\1 \2/p"; }

# Drain with ./measure MODE, for each MODE; sets $usec_MODE, and
# $failed_drains names the modes whose counts were wrong.
failed_drains=''
for mode in read mmap; do
	step=step-$([ $mode = read ] && echo 1 || echo 2)-$mode
	trace_reset
	echo $subbuf_kb >$TRACEFS/buffer_subbuf_size_kb
	seq_produce $total $size || fail $step "the seq_producer module did not load"
	run_prog $limit "$dir/measure" 0 $mode
	got=$prog_out
	echo "$got"
	set -- $(line_of $mode "$got")
	events=${1:-} bytes=${2:-}
	why=''
	if [ "$prog_rc" = 124 ] || [ "$prog_rc" = 143 ]; then
		if [ $mode = read ]; then
			why="still running after $limit s: does the read() drain stop at EAGAIN (trace_pipe_raw opened with O_NONBLOCK)?"
		else
			why="still running after $limit s: does the drain stop when GET_READER brings nothing new (the same reader.id, the same reader.read)?"
		fi
	elif [ "$prog_rc" -gt 128 ]; then
		why="it crashed, $(status_text $prog_rc)$([ $mode = mmap ] && echo ": is each sub-buffer's address computed from the reader.id of the last GET_READER?")"
	elif [ -z "$events" ]; then
		why="want one line '$mode events N bytes B usec T'$([ -z "$got" ] || echo "; it printed: $(echo "$got" | tail -n 1)")"
	elif [ "$events" = 0 ] && [ $mode = read ]; then
		why="0 events, want $total: a read() shorter than the first event returns 0: is the buffer buffer_subbuf_size_kb * 1024 bytes?"
	elif [ "$events" -lt $total ]; then
		why="$events events, want $total: drain until nothing is left$([ $mode = read ] && echo " (each read() gives one sub-buffer; loop until EAGAIN; the read() buffer must hold a whole sub-buffer, $subbuf_kb KiB here)" || echo " (call GET_READER until it brings nothing new)")"
	elif [ "$events" -gt $total ] && [ $mode = read ]; then
		why="$events events, want $total: a read() buffer shorter than the sub-buffer ($subbuf_kb KiB here) gets part of it, then the rest of the kernel's copy, which holds no events: read buffer_subbuf_size_kb * 1024 bytes at a time"
	elif [ "$events" -gt $total ]; then
		why="$events events, want $total: events counted twice; on the same reader sub-buffer, count only from where the last call stopped"
	elif [ "$bytes" != $want_bytes ]; then
		why="$bytes payload bytes, want $want_bytes ($total events of $event_bytes bytes)"
	fi
	if [ -z "$why" ]; then
		# The writer's page is now the reader sub-buffer: more events go there.
		eval "usec_$mode=\${got##* }"
		seq_produce $extra $size
		run_prog $limit "$dir/measure" 0 $mode
		echo "$prog_out"
		set -- $(line_of $mode "$prog_out")
		again=${1:-}
		if [ "$again" = $extra ]; then
			pass "$step"
			continue
		elif [ -z "$again" ]; then
			why="second drain: want one line '$mode events N bytes B usec T'; $(status_text $prog_rc)"
		elif [ "$again" = $((total + extra)) ] || [ "$again" -gt $extra ]; then
			why="second drain: $again events, want the $extra written since the first drain: the writer added them to the reader sub-buffer the first drain left (same reader.id); start from the meta-page's reader.read after mapping, not from 0: what is before it was read already"
		else
			why="second drain: $again events, want the $extra written since the first drain onto the reader sub-buffer (same reader.id, a larger reader.read): count from where the kernel's reader stood, up to the new reader.read"
		fi
	fi
	fail "$step" "$why"
	failed_drains="$failed_drains $mode"
done
if [ -n "$failed_drains" ]; then
	fail step-3-compare "no comparison: the drain of$failed_drains did not count every event"
elif [ "${usec_read:-0}" -gt 0 ] && [ "${usec_mmap:-0}" -gt 0 ]; then
	note "    read(): ${usec_read} us; mmap: ${usec_mmap} us, for $total events of $size payload bytes in $subbuf_kb KiB sub-buffers"
	pass step-3-compare
else
	fail step-3-compare "both drains must report their time in usec (monotonic clock); got read '${usec_read:-}', mmap '${usec_mmap:-}'"
fi
trace_reset
