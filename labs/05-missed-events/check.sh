#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 05 in the guest: the sequenced producer (seq_producer, 2000
# events on CPU 0) into an 8 KiB buffer, in overwrite mode and in
# producer/consumer mode; the learner's ./missed must account for all 2000.
#   sh check.sh DIR
SUITE=${SUITE:-labs/05-missed-events}
. "$(dirname "$0")/../check-lib.sh"
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
show() { echo "$out" | tr '\n' ' '; }

produce 1
overrun=$(stat overrun)
out=$(timeout 30 "$dir/missed" 0 2>&1)
echo "$out"
if [ "$overrun" -gt 0 ] && [ "$(field missed)" = "$overrun" ] && [ "$(field overrun)" = "$overrun" ]; then
	pass step-1-missed-count
else
	fail step-1-missed-count "overwrite mode lost $overrun events (stats overrun); the first reader sub-buffer's commit word flags it and stores the count after the data; got: $(show)"
fi
if [ "$(field events)" = $((total - overrun)) ] && [ "$(field gaps)" = "$overrun" ] &&
	[ "$(field first_seq)" = "$overrun" ] && [ "$(field last_seq)" = $((total - 1)) ]; then
	pass step-2-sequence
else
	fail step-2-sequence "want events $((total - overrun)), first_seq $overrun, last_seq $((total - 1)), gaps $overrun (numbers skipped); got: $(show)"
fi

produce 0
dropped=$(stat 'dropped events')
out=$(timeout 30 "$dir/missed" 0 2>&1)
echo "$out"
if [ "$dropped" -gt 0 ] && [ "$(field dropped)" = "$dropped" ] && [ "$(field missed)" = 0 ] &&
	[ "$(field gaps)" = 0 ] && [ "$(field first_seq)" = 0 ] &&
	[ $(($(field events) + dropped)) = $total ]; then
	pass step-3-producer-consumer
else
	fail step-3-producer-consumer "with overwrite 0 the newest $dropped events were refused: nothing in the sub-buffers, only 'dropped events' in per_cpu/cpu0/stats; want missed 0, gaps 0, first_seq 0, dropped $dropped; got: $(show)"
fi
trace_reset
