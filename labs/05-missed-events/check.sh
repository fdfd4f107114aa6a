#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 05 in the guest: the sequenced producer (seq_producer, 2000
# events on a CPU chosen per run) into an 8 KiB buffer, in overwrite mode
# and in producer/consumer mode; the learner's ./missed must account for
# all 2000. In overwrite mode a few trace_marker writes follow the
# sequence on the same CPU (they carry no seq); a second overwrite run, in
# 8 KiB sub-buffers, stops ./missed after its first ioctl while more
# events overwrite the buffer, so that its drain meets two flagged
# sub-buffers, each with over 4 KiB of data; a third uses records that
# fill each sub-buffer's data to the byte, so that the kernel has no room
# to store the count; in producer/consumer mode both CPUs drop events,
# other counts each, and ./missed runs on both. Where every flagged
# sub-buffer had its count stored, no line may say the count is unknown.
# The first run shows ./missed the meta-page as stock 6.12 leaves it,
# reader.lost_events 0 after every GET_READER (LAB_STOCK_META=1: labs/lab.h),
# where the guest's patched kernel sets it: the count must come from the
# sub-buffer.
#   sh check.sh DIR
SUITE=${SUITE:-labs/05-missed-events}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" missed step-1-missed-count
total=2000
cpus=$(ls -d $TRACEFS/per_cpu/cpu[0-9]* | sed 's|.*/cpu||')
ncpu=$(echo $cpus | wc -w)
# any_cpu, other_cpu CPU: a CPU chosen per run; one other than CPU.
any_cpu() { rand 0 $((ncpu - 1)); }
other_cpu() { [ "$ncpu" -gt 1 ] && echo $((($1 + $(rand 1 $((ncpu - 1)))) % ncpu)) || echo "$1"; }
# produce OVERWRITE CPU COUNT [PAYLOAD [SUBBUF_KB]]: reset, set the mode,
# write COUNT events of PAYLOAD bytes on CPU, in sub-buffers of SUBBUF_KB
# (4) KiB, in a buffer of two sub-buffers' size: the kernel gives the writer
# three, as it counts each sub-buffer's data only (DIV_ROUND_UP of the size
# by the data bytes of a sub-buffer, kernel/trace/ring_buffer.c).
produce() {
	trace_reset
	echo "$1" >$TRACEFS/options/overwrite
	echo "${5:-4}" >$TRACEFS/buffer_subbuf_size_kb
	echo $((${5:-4} * 2)) >$TRACEFS/buffer_size_kb
	seq_produce "$3" "${4:-0}" "$2" || fail step-1-missed-count "the seq_producer module did not load"
}
# marks CPU N: N trace_marker writes on CPU.
marks() {
	taskset -c "$1" sh -c "i=0; while [ \$i -lt $2 ]; do echo lab05 \$i; i=\$((i + 1)); done" \
		>$TRACEFS/trace_marker 2>/dev/null
}
stat() { sed -n "s/^$2: //p" $TRACEFS/per_cpu/cpu$1/stats; }
field() { echo "$out" | sed -n "s/^$1 //p"; }
# unknowns: how many lines of ./missed's output say a count is unknown.
unknowns() { echo "$out" | grep -ci unknown; }
# room_payload KB: the smallest payload from 16 bytes up whose records
# leave 24 bytes or more after the last whole one in a KB KiB sub-buffer.
room_payload() {
	local data=$(($1 * 1024 - $(header_page data offset))) p=16
	while [ $((data % (28 + p))) -lt 24 ]; do p=$((p + 4)); done
	echo $p
}
# crash: when ./missed died of a signal, "./missed crashed, exited N
# (SIGNAME), " to put first in a FAIL line; else nothing.
crash() { ! crashed "$prog_rc" || echo "./missed crashed, $(status_text "$prog_rc"), "; }

cpu=$(any_cpu)
nmarks=$(rand 3 9)
produce 1 "$cpu" $total
marks "$cpu" "$nmarks"
overrun=$(stat "$cpu" overrun)
run_prog 30 env LAB_STOCK_META=1 "$dir/missed" "$cpu"
out=$prog_out
echo "$out"
step1=
if crashed "$prog_rc"; then
	step1="$(crash)before printing its counts, while overwrite mode lost $overrun events: is the count read inside the sub-buffer, at 16 + commit (flags masked: bits 30 and 31 of the commit word, a long whose low 32 bits hold the size and both flags)?"
elif [ "$overrun" -gt 0 ] && [ "$(field missed)" = "$overrun" ] && [ "$(field overrun)" = "$overrun" ] &&
	[ "$(unknowns)" != 0 ]; then
	step1="missed $overrun is right, but it printed $(unknowns) line(s) saying a count is unknown, and the only flagged sub-buffer (bit 31, MISSED_EVENTS) had its count stored (bit 30): a sub-buffer without bit 31 lost nothing; say 'unknown' only for bit 31 without bit 30"
elif [ "$overrun" -gt 0 ] && [ "$(field missed)" = "$overrun" ] && [ "$(field overrun)" = "$overrun" ]; then
	:
elif [ "$overrun" -gt 0 ] && [ "$(field missed)" = 0 ] && [ "$(field overrun)" = "$overrun" ] && {
	# missed 0 as on stock 6.12: the same on the patched meta-page?
	stock="$prog_cmd|$prog_rc|$prog_out"
	produce 1 "$cpu" $total
	marks "$cpu" "$nmarks"
	patched=$(stat "$cpu" overrun)
	run_prog 30 "$dir/missed" "$cpu"
	got=$(echo "$prog_out" | sed -n 's/^missed //p')
	prog_cmd=${stock%%|*} stock=${stock#*|}
	prog_rc=${stock%%|*} prog_out=${stock#*|}
	[ "$patched" -gt 0 ] && [ "$got" = "$patched" ]
}; then
	step1="with the meta-page as stock 6.12 leaves it (reader.lost_events 0 after every GET_READER; the check ran it with LAB_STOCK_META=1, which labs/lab.h's lab_map() reads), missed was 0, want $overrun, while on the guest's patched meta-page it printed the $patched of another run: it takes the count from reader.lost_events; take it from the sub-buffer instead, the unsigned long right after its data (16 + commit, flags masked), when its commit word has MISSED_STORED (bit 30)"
else
	step1="overwrite mode lost $overrun events (stats overrun), got missed '$(field missed)': the first reader sub-buffer's commit word has MISSED_STORED (bit 30), and the count is the unsigned long right after its data, at 16 + commit (flags masked)"
fi
out_a=$out cmd_a=$prog_cmd rc_a=$prog_rc overrun_a=$overrun

# Two flagged sub-buffers in one drain, of 8 KiB (over 4 KiB of data
# each): ./missed stops itself (SIGSTOP) after its first ioctl
# (LAB_STOP_AFTER=1, labs/lab.h), the GET_READER that swapped in the
# first, flagged with the count of the events the first run overwrote;
# a second run overwrites more, and ./missed's next GET_READER flags
# another sub-buffer with their count. Records of PAYLOAD bytes leave room
# for the counts (a time extend can still take it: then one count is
# unknown, and the other is taken alone).
if [ -z "$step1" ]; then
	kb=8 payload=$(room_payload 8)
	cpu=$(any_cpu)
	produce 1 "$cpu" $total "$payload" $kb
	first=$(stat "$cpu" overrun)
	(cd /tmp && exec env LAB_STOP_AFTER=1 LAB_STOCK_META=1 "$dir/missed" "$cpu") >/tmp/lab05.out 2>&1 &
	pid=$!
	prog_cmd="env LAB_STOP_AFTER=1 LAB_STOCK_META=1 ./missed $cpu" prog_rc=0
	deadline 30
	while running $pid && ! stopped $pid && before_deadline; do nap 0.02; done
	more=$(rand 1000 1500) was_stopped=
	if stopped $pid; then
		was_stopped=1
		seq_produce "$more" "$payload" "$cpu" || step1="the seq_producer module did not load"
		kill -CONT $pid
	fi
	if ! wait_exit $pid 30; then
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		prog_rc=running
	else
		wait $pid
		prog_rc=$?
	fi
	out=$(cat /tmp/lab05.out) prog_out=$(cat /tmp/lab05.out)
	echo "$out"
	overrun=$(stat "$cpu" overrun)
	second=$((overrun - first))
	what="with $kb KiB sub-buffers (over 4 KiB of data each), ./missed was stopped after its first GET_READER, whose sub-buffer was flagged with the $first events overwritten before, while $more more events overwrote $second: its drain met two flagged sub-buffers"
	if [ -n "$step1" ]; then
		:
	elif [ "$prog_rc" = running ]; then
		step1="$what; it $(status_text running) 30 s after it was continued (killed)"
	elif crashed "$prog_rc"; then
		step1="$(crash)$what: is the count read at 16 + commit, with only bits 30 and 31 of the commit word (a long) masked off? (data can pass 4095 bytes)"
	elif [ -z "$was_stopped" ]; then
		step1="$what, the check meant to; but it $(status_text "$prog_rc") without stopping after its first ioctl (LAB_STOP_AFTER=1: labs/lab.h's ioctl() wrapper stops it there): is every ioctl() called as in the given drain loop?"
	elif [ "$first" = 0 ] || [ "$second" -le 0 ]; then
		step1="$what, the check meant to; but stats overrun says $first, then $second more (a check problem)"
	elif [ "$(field missed)" = "$overrun" ] && [ "$(unknowns)" = 0 ]; then
		:
	elif [ "$(unknowns)" = 1 ] && { [ "$(field missed)" = "$first" ] || [ "$(field missed)" = "$second" ]; }; then
		: # a time extend took the room of one count
	elif [ "$(field missed)" = "$second" ]; then
		step1="$what; missed was $second, only the second's count: add each count to missed (+=), want $first + $second = $overrun"
	else
		step1="$what; want missed $first + $second = $overrun, got '$(field missed)'$([ "$(unknowns)" = 0 ] || echo " and $(unknowns) 'unknown' line(s)"): the count is the unsigned long at 16 + commit, with only bits 30 and 31 masked off the commit word (its data size can pass 4095 bytes)"
	fi
fi
if [ -z "$step1" ]; then
	pass step-1-missed-count
else
	fail step-1-missed-count "$step1"
fi
out=$out_a prog_cmd=$cmd_a prog_rc=$rc_a prog_out=$out_a overrun=$overrun_a
# What a seq read at payload offset 16 gives: len (0), then the payload's
# __data_loc (its size 0 << 16 | its offset 24) in the upper half.
at16=$((24 << 32))
seen=$((total - overrun))
if crashed "$prog_rc"; then
	fail step-2-sequence "$(crash)before printing first_seq, last_seq and gaps (see step 1)"
elif [ "$(field first_seq)" = $at16 ] || [ "$(field last_seq)" = $at16 ]; then
	fail step-2-sequence "first_seq '$(field first_seq)', last_seq '$(field last_seq)': that is the u64 at payload offset 16 (len, then the payload's __data_loc); seq is the u64 at payload offset 8, right after the 8-byte struct trace_entry (events/seq_producer/seq_event/format)"
elif [ "$(field first_seq)" != "$overrun" ] || [ "$(field last_seq)" != $((total - 1)) ]; then
	fail step-2-sequence "want first_seq $overrun, last_seq $((total - 1)); got '$(field first_seq)', '$(field last_seq)': the buffer also held $nmarks trace_marker events (ftrace/print) after the sequence, which carry no seq: take seq only from events whose type (the u16 at payload offset 0) is seq_event_id"
elif [ "$(field gaps)" != "$overrun" ]; then
	fail step-2-sequence "gaps '$(field gaps)', want $overrun: count every number from 0 on never seen, those before the first event seen ($overrun) too"
elif [ "$(field events)" = $seen ] || [ "$(field events)" = $((seen + nmarks)) ]; then
	pass step-2-sequence
else
	fail step-2-sequence "want events $seen (the seq_events read; $((seen + nmarks)) with the $nmarks trace_marker events), got '$(field events)'"
fi

# No room for the count: records that fill the first reader sub-buffer's
# data to the byte. A time extend (a pause of the writer) can leave room,
# and then the count is stored: either answer is taken when it is right.
fill=$(full_subbuf)
fill_kb=${fill% *} fill_payload=${fill#* }
cpu=$(any_cpu)
produce 1 "$cpu" $total "$fill_payload" "$fill_kb"
overrun=$(stat "$cpu" overrun)
run_prog 30 "$dir/missed" "$cpu"
out=$prog_out
echo "$out"
if [ "$overrun" -gt 0 ] && [ "$prog_rc" = 0 ] && [ "$(unknowns)" = 1 ] && [ "$(field missed)" = 0 ]; then
	pass step-1-no-room
elif [ "$overrun" -gt 0 ] && [ "$prog_rc" = 0 ] && [ "$(unknowns)" = 0 ] && [ "$(field missed)" = "$overrun" ]; then
	pass step-1-no-room
elif [ "$overrun" -gt 0 ] && [ "$prog_rc" = 0 ] && [ "$(unknowns)" -gt 1 ] && [ "$(field missed)" = 0 ]; then
	fail step-1-no-room "events of $fill_payload payload bytes fill each $fill_kb KiB sub-buffer's data to the byte, and the one flagged sub-buffer had bit 31 (MISSED_EVENTS) without bit 30: missed 0 is right, but it printed $(unknowns) lines saying a count is unknown, want one: a sub-buffer without bit 31 lost nothing"
else
	fail step-1-no-room "events of $fill_payload payload bytes fill each $fill_kb KiB sub-buffer's data to the byte, so the kernel had no room for the count of the $overrun overwritten: bit 31 (MISSED_EVENTS) without bit 30 (MISSED_STORED); add nothing then, and print a line saying the count is unknown; got missed '$(field missed)', $(unknowns) 'unknown' line(s), and it $(status_text "$prog_rc")"
fi

# Producer/consumer mode, on both CPUs: each CPU's own 'dropped events'.
cpu=$(any_cpu)
cpu_b=$(other_cpu "$cpu")
total_b=$(rand 1500 3000)
[ "$total_b" != $total ] || total_b=$((total_b + 1))
produce 0 "$cpu" $total
[ "$cpu_b" = "$cpu" ] || seq_produce "$total_b" 0 "$cpu_b"
step3=pass list="$cpu_b $cpu"
[ "$cpu_b" != "$cpu" ] || list=$cpu
for c in $list; do
	[ "$c" = "$cpu" ] && n=$total || n=$total_b
	dropped=$(stat "$c" 'dropped events')
	run_prog 30 "$dir/missed" "$c"
	out=$prog_out
	echo "$out"
	if crashed "$prog_rc"; then
		fail step-3-producer-consumer "$(crash)with overwrite 0 on CPU $c"
		step3=
		break
	elif [ "$(field dropped)" != "$dropped" ]; then
		hint=
		[ "$c" = 0 ] || [ "$(field dropped)" != "$(stat 0 'dropped events')" ] ||
			hint=" ($(field dropped) is CPU 0's: read per_cpu/cpuN/stats of the CPU asked, N = $c)"
		fail step-3-producer-consumer "with overwrite 0 the newest $dropped events on CPU $c were refused, and only the 'dropped events:' line of per_cpu/cpu$c/stats says so; './missed $c' printed dropped '$(field dropped)'$hint"
		step3=
		break
	elif [ "$dropped" -gt 0 ] && [ "$(field missed)" = 0 ] &&
		[ "$(field gaps)" = 0 ] && [ "$(field first_seq)" = 0 ] &&
		[ $(($(field events) + dropped)) = "$n" ] && [ "$(unknowns)" = 0 ]; then
		:
	elif [ "$(unknowns)" != 0 ]; then
		fail step-3-producer-consumer "with overwrite 0 nothing is flagged in the sub-buffers (the refused events are only counted in 'dropped events'), but './missed $c' printed $(unknowns) line(s) saying a count is unknown: say 'unknown' only for a sub-buffer with bit 31 (MISSED_EVENTS) set without bit 30"
		step3=
		break
	else
		fail step-3-producer-consumer "with overwrite 0 the newest $dropped of $n events on CPU $c were refused: nothing in the sub-buffers, only 'dropped events' in per_cpu/cpu$c/stats; want missed 0, gaps 0, first_seq 0"
		step3=
		break
	fi
done
[ -z "$step3" ] || pass step-3-producer-consumer
trace_reset
