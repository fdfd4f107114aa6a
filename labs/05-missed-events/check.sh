#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 05 in the guest: the sequenced producer (seq_producer, 2000
# events on CPU 0) into an 8 KiB buffer, in overwrite mode and in
# producer/consumer mode; the learner's ./missed must account for all 2000.
#   sh check.sh DIR
SUITE=${SUITE:-labs/05-missed-events}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" missed step-1-missed-count
total=2000
# produce OVERWRITE: reset, set the mode, write the sequence on CPU 0.
produce() {
	trace_reset
	echo "$1" >$TRACEFS/options/overwrite
	echo 8 >$TRACEFS/buffer_size_kb
	seq_produce $total || fail step-1-missed-count "the seq_producer module did not load"
}
stat() { sed -n "s/^$1: //p" $TRACEFS/per_cpu/cpu0/stats; }
field() { echo "$out" | sed -n "s/^$1 //p"; }

produce 1
overrun=$(stat overrun)
run_prog 30 "$dir/missed" 0
out=$prog_out
echo "$out"
if [ "$overrun" -gt 0 ] && [ "$(field missed)" = "$overrun" ] && [ "$(field overrun)" = "$overrun" ]; then
	pass step-1-missed-count
else
	fail step-1-missed-count "overwrite mode lost $overrun events (stats overrun), got missed '$(field missed)': the first reader sub-buffer's commit word has MISSED_STORED (bit 30), and the count is the unsigned long right after its data, at 16 + commit (flags masked)"
fi
if [ "$(field gaps)" != "$overrun" ]; then
	fail step-2-sequence "gaps '$(field gaps)', want $overrun: count every number from 0 on never seen, those before the first event seen ($overrun) too"
elif [ "$(field events)" = $((total - overrun)) ] && [ "$(field first_seq)" = "$overrun" ] &&
	[ "$(field last_seq)" = $((total - 1)) ]; then
	pass step-2-sequence
else
	fail step-2-sequence "want events $((total - overrun)), first_seq $overrun, last_seq $((total - 1)); got '$(field events)', '$(field first_seq)', '$(field last_seq)'"
fi

produce 0
dropped=$(stat 'dropped events')
run_prog 30 "$dir/missed" 0
out=$prog_out
echo "$out"
if [ "$(field dropped)" != "$dropped" ]; then
	fail step-3-producer-consumer "with overwrite 0 the newest $dropped events were refused, and only the 'dropped events:' line of per_cpu/cpu0/stats says so; got dropped '$(field dropped)'"
elif [ "$dropped" -gt 0 ] && [ "$(field missed)" = 0 ] &&
	[ "$(field gaps)" = 0 ] && [ "$(field first_seq)" = 0 ] &&
	[ $(($(field events) + dropped)) = $total ]; then
	pass step-3-producer-consumer
else
	fail step-3-producer-consumer "with overwrite 0 the newest $dropped events were refused: nothing in the sub-buffers, only 'dropped events' in per_cpu/cpu0/stats; want missed 0, gaps 0, first_seq 0"
fi
trace_reset
