#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 03 in the guest: four rounds, each with sub-buffers of a size
# chosen per run; the learner's ./first_event decodes the first event of
# CPU 0's reader sub-buffer, and what it prints is compared with what was
# written and with the sub-buffer's header read again after it:
#  1. one trace_marker line short enough for type_len 1..28, from a PID
#     above 65535 (clone3 with set_tid; a PID the kernel picks if it refuses);
#  2. one line over 112 bytes of payload, so that type_len is 0;
#     in both, a second short line right after the first, whose time_delta
#     (the first event's is 0) ./first_event prints as next_time_delta;
#  3. a lapped buffer (the seq_producer module in overwrite mode), so that
#     the reader sub-buffer's commit word carries the missed-event flags.
#  4. a buffer whose first event, timer:hrtimer_expire_entry, was written
#     in interrupt context (the timer interrupt; a soft timer's in its
#     softirq): its common_flags are not 0; this round
#     judges common_type only.
# Rounds 1 and 2 run under the tai clock, whose time stamps are above 2^32.
# One of rounds 1 and 2, chosen per run, shows ./first_event 6.10's layout
# (LAB_LAYOUT_610=1: labs/lab.h maps the sub-buffers again after a one-page
# copy of the meta-page, meta_page_size one page), where the meta-page is
# not one sub-buffer long.
#   sh check.sh DIR
SUITE=${SUITE:-labs/03-first-event}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" first_event step-1-address
field() { echo "$out" | sed -n "s/^$1 //p"; }
head_field() { echo "$head" | sed -n "s/^$1 //p"; }
pid_max=$(cat /proc/sys/kernel/pid_max)
LAB_CLEANUP="echo $pid_max >/proc/sys/kernel/pid_max"

# flunk STEP WHY: fail STEP, once, at the first round that shows it.
failed=''
flunk() {
	case " $failed " in *" $1 "*) return ;; esac
	failed="$failed $1"
	fail "$1" "$2 [$round]"
}
# any_kb KB...: one of the sizes, chosen per run.
any_kb() { shift $(($(rand 1 $#) - 1)) && echo "$1"; }

# text LEN: a line of LEN characters, new each run.
tag=$(rand 1000 9999)
text() {
	awk -v n="$1" -v t="$tag" 'BEGIN {
		s = "lab03 " t " says hello"
		while (length(s) < n) s = s "-" length(s)
		print substr(s, 1, n)
	}'
}

# write_line TEXT TEXT2: write TEXT, then TEXT2, to trace_marker on CPU 0,
# from a PID above 65535 when the kernel lets the check choose it; sets pid.
write_line() {
	local try=0 rc
	echo 4194304 >/proc/sys/kernel/pid_max 2>/dev/null
	while [ $try -lt 5 ]; do
		pid=$(rand 65536 $(($(cat /proc/sys/kernel/pid_max) - 1)))
		rc=0
		taskset -c 0 check_aid as-pid "$pid" sh -c "echo '$1' >$TRACEFS/trace_marker; echo '$2' >$TRACEFS/trace_marker" 2>/dev/null || rc=$?
		[ $rc = 3 ] || return 0
		try=$((try + 1))
	done
	note "check: no PID above 65535 (clone3 set_tid refused); the kernel picks it"
	taskset -c 0 sh -c "echo \$\$ >/tmp/lab03.pid; echo '$1' >$TRACEFS/trace_marker; echo '$2' >$TRACEFS/trace_marker"
	pid=$(cat /tmp/lab03.pid)
}

# decode: run ./first_event 0 (in 6.10's layout when layout is 6.10) and
# read the reader sub-buffer's header again (check_aid maps the buffer anew:
# the same sub-buffer, as the kernel left it).
layout=6.12
page=$(page_bytes)
decode() {
	meta=$(meta_page 0)
	if [ $layout = 6.10 ]; then
		run_prog 20 env LAB_LAYOUT_610=1 "$dir/first_event" 0
	else
		run_prog 20 "$dir/first_event" 0
	fi
	out=$prog_out
	head=$(check_aid reader-head 0)
}

# judge_address: the offset of the reader sub-buffer.
judge_address() {
	local mps nr id want got why
	mps=$(echo "$meta" | sed -n 's/^meta_page_size //p')
	[ $layout != 6.10 ] || mps=$page
	nr=$(echo "$meta" | sed -n 's/^nr_subbufs //p')
	id=$(field reader.id)
	if [ -z "$id" ] || [ "$id" -ge "$nr" ]; then
		flunk step-1-address "reader.id '$id' is not an ID below nr_subbufs ($nr)"
		return
	fi
	want=$((mps + id * subbuf_size)) got=$(field offset)
	[ "$got" != "$want" ] || return 0
	# With reader.id 1 and a meta-page of one sub-buffer, two mistakes can
	# give the same offset: then the message names both.
	why=''
	[ "$got" != $((4096 + id * subbuf_size)) ] ||
		why="the meta-page is meta_page_size bytes (since 6.12 a whole sub-buffer), not one 4096-byte page"
	[ "$got" != $((mps + id * 4096)) ] ||
		why="${why:+$why, or }sub-buffers are subbuf_size bytes apart, not 4096"
	[ "$got" != $((id * subbuf_size)) ] ||
		why="${why:+$why, or }the meta-page (meta_page_size bytes) comes before sub-buffer 0"
	[ "$got" != "$mps" ] ||
		why="${why:+$why, or }reader.id was left out: after GET_READER the reader is sub-buffer $id, not 0"
	[ "$got" != $(((id + 1) * subbuf_size)) ] || [ $layout != 6.10 ] ||
		why="${why:+$why, or }(reader.id + 1) * subbuf_size holds only while the meta-page is one sub-buffer long (6.12); in 6.10's layout, as here, it is one page (meta_page_size $mps): add meta_page_size"
	[ -n "$why" ] || why="both sizes are in the meta-page"
	flunk step-1-address "the reader sub-buffer starts at meta_page_size + reader.id * subbuf_size = $mps + $id * $subbuf_size = $want; got offset '$got': $why"
}

# judge_header: time_stamp and commit against the header read again.
judge_header() {
	local ts low data got
	ts=$(head_field time_stamp) low=$(head_field commit_low)
	data=$((low & ~(3 << 30)))
	got=$(field commit)
	if [ -z "$ts" ] || [ -z "$low" ]; then
		flunk step-2-header "the check could not read the sub-buffer's header again: $head"
	elif [ "$got" = "$low" ] && [ "$low" != "$data" ]; then
		flunk step-2-header "commit '$got' still has the flag bits: events were lost, so bit 31 (RB_MISSED_EVENTS)$([ $((low >> 30 & 1)) = 1 ] && echo ' and bit 30 (RB_MISSED_STORED)') of the low 32 bits are set; the data bytes are those bits with both flags masked off: $data"
	elif [ "$got" = $((low & ~(1 << 31))) ] && [ $((low >> 30 & 1)) = 1 ]; then
		flunk step-2-header "commit '$got' has bit 30 (RB_MISSED_STORED, the missed count is stored after the data) still set: mask off both flag bits, 31 and 30; want $data"
	elif [ "$got" != "$data" ]; then
		flunk step-2-header "commit is the low 32 bits of the word at byte 8 with the flag bits 31 and 30 masked off: want $data; got '$got'"
	elif [ "$(field time_stamp)" = $((ts & 0xffffffff)) ] && [ "$ts" != $((ts & 0xffffffff)) ]; then
		flunk step-2-header "time_stamp '$(field time_stamp)' is only the low 32 bits: it is the u64 at byte 0 of the sub-buffer, $ts"
	elif [ "$(field time_stamp)" != "$ts" ]; then
		flunk step-2-header "time_stamp is the u64 at byte 0 of the sub-buffer: want $ts; got '$(field time_stamp)'"
	fi
}

# judge_event SIZE: type_len and length of one ftrace/print event whose
# payload is SIZE bytes, and the time_deltas of that event and of the one
# after it, against the library's decoding (check_aid reader-head).
judge_event() {
	local size=$1 type_len length got gap nd
	if [ "$size" -le 112 ]; then
		type_len=$((size / 4)) length=$((size + 4))
	else
		type_len=0 length=$((size + 8))
	fi
	got=$(field length)
	if [ "$(field type_len)" != "$type_len" ]; then
		flunk step-3-event-header "type_len is the low 5 bits of the first u32 of the data, at byte 16 after the sub-buffer header: want type_len $type_len; got '$(field type_len)'"
	elif [ "$got" = "$length" ]; then
		:
	elif [ $type_len != 0 ]; then
		flunk step-3-event-header "length is the whole record, its 4-byte header and the payload: want length $length; got '$got'"
	elif [ "$got" = $((length - 4)) ]; then
		flunk step-3-event-header "type_len 0 (a payload over 112 bytes): array[0], the u32 after the header, is $((length - 4)), the payload length + 4 (the word itself); the event is 4 + array[0] = $length bytes; got length '$got'"
	elif [ "$got" = $((length + 4)) ]; then
		flunk step-3-event-header "type_len 0: array[0] already counts its own 4 bytes (it is the payload length + 4), so the event is 4 + array[0] = $length bytes, not 8 + array[0]; got length '$got'"
	else
		flunk step-3-event-header "type_len 0 (a payload over 112 bytes, as here): the length is in array[0], the u32 after the header, the payload length + 4; the event is 4 + array[0] = $length bytes and its payload starts at array[1]; got length '$got'"
	fi
	[ "$got" = "$length" ] || return 0
	gap=$(head_field event_gap) nd=$(field next_time_delta)
	if [ "$(field time_delta)" != "$(head_field first_delta)" ] &&
		[ "$(field time_delta)" = $((($(head_field time_stamp) & 0xffffffff) >> 5)) ]; then
		flunk step-3-event-header "time_delta '$(field time_delta)' is the sub-buffer's time_stamp shifted down by 5: the header word was read at byte 0 of the sub-buffer, its time_stamp; the first event's header is at byte 16, after the sub-buffer header"
	elif [ "$(field time_delta)" != "$(head_field first_delta)" ]; then
		flunk step-3-event-header "time_delta is the header word's bits 5 to 31 (hdr >> 5): want $(head_field first_delta) (the first event on a sub-buffer takes the sub-buffer's time_stamp); got '$(field time_delta)'"
	elif [ -z "$gap" ]; then
		flunk step-3-event-header "the check found no second event on the reader sub-buffer: $head"
	elif [ "$(head_field next_at)" != "$length" ]; then
		# A record before the second event (a time extend, when more than
		# 2^27 ns passed): its time_delta is only part of the gap.
		note "check: a record between the two events (the second at byte $((16 + $(head_field next_at))), $gap ns later): next_time_delta not judged [$round]"
	elif [ "$nd" = "$gap" ]; then
		:
	elif [ -z "$nd" ]; then
		flunk step-3-event-header "no next_time_delta line: the check wrote a second line $gap ns after the first; decode the header of the record after the first event, at byte 16 + length = $((16 + length)), and print its time_delta"
	elif [ "$nd" = $((gap << 5)) ]; then
		flunk step-3-event-header "next_time_delta '$nd' is $gap << 5: time_delta is the header word shifted down by 5 (hdr >> 5), not its bits 5 to 31 masked in place (hdr & ~0x1f); want $gap"
	else
		flunk step-3-event-header "next_time_delta is the time_delta (bits 5 to 31) of the header of the record at byte 16 + length = $((16 + length)), the ns since the first event: want $gap; got '$nd'"
	fi
}

# judge_payload TEXT SIZE: the trace_entry and the text.
judge_payload() {
	local why='' ct
	ct=$(field common_type)
	if [ "$ct" = 5 ]; then
		:
	elif [ "$2" -gt 112 ] && [ "$ct" = $((($2 + 4) & 0xffff)) ]; then
		why="common_type '$ct' is array[0], the length word: for type_len 0 the payload starts after it, at array[1] (byte 8 of the event)"
	else
		why="common_type is the u16 at payload byte 0: want 5 (ftrace/print), got '$ct'"
	fi
	if [ "$(field common_pid)" = "$pid" ]; then
		:
	elif [ "$(field common_pid)" = $((pid & 0xffff)) ]; then
		why="${why:+$why; }common_pid '$(field common_pid)' is the low 16 bits of $pid: it is an int, 4 bytes at payload byte 4"
	else
		why="${why:+$why; }common_pid is the int at payload byte 4: want $pid, got '$(field common_pid)'"
	fi
	[ "$(field buf)" = "$1" ] || why="${why:+$why; }buf is the text at payload byte 16: want '$1', got '$(field buf)'"
	[ -z "$why" ] || flunk step-4-payload "$why"
}

# marker_round KB LEN: one marker of LEN characters in KB KiB sub-buffers.
marker_round() {
	local msg size
	trace_reset "" "$1"
	msg=$(text "$2")
	write_line "$msg" "lab03 $tag again"
	decode
	subbuf_size=$(echo "$meta" | sed -n 's/^subbuf_size //p')
	# What trace_marker stores: struct trace_entry and ip (16 bytes), the
	# text with its newline, a NUL and one spare byte; rounded up to 4.
	size=$(((16 + ${#msg} + 1 + 2 + 3) / 4 * 4))
	round="$1 KiB sub-buffers, a trace_marker line of ${#msg} characters ($size bytes of payload) from PID $pid, and a second one"
	[ $layout != 6.10 ] || round="$round; 6.10's layout (LAB_LAYOUT_610=1 ./first_event 0: meta_page_size $page, sub-buffer 0 right after it)"
	judge_address
	judge_header
	judge_event "$size"
	judge_payload "$msg" "$size"
}

# A lapped buffer of twice the sub-buffer size (three sub-buffers: the size
# counts their data, 16 bytes short of each, rounded up), 2000 seq_producer
# events of 28 bytes, which leave room after the data for the missed count
# (bit 30) in 4 and 16 KiB sub-buffers (an 8 KiB one is filled to the byte;
# three of 32 KiB hold them all). A time extend (a pause of the writer) can
# take that room: then once more, up to three runs.
lapped() {
	trace_reset $(($1 * 2)) "$1"
	seq_produce 2000 0 0 || return 1
	decode
	subbuf_size=$(echo "$meta" | sed -n 's/^subbuf_size //p')
	round="$1 KiB sub-buffers, a buffer lapped by 2000 events: $(sed -n 's/^overrun: //p' $TRACEFS/per_cpu/cpu0/stats) overwritten"
}
try=0
while lapped "$(any_kb 4 16)"; do
	try=$((try + 1))
	[ $(($(head_field commit_low) + 0 >> 30)) != 3 ] && [ $try -lt 3 ] || break
done
if [ $try = 0 ]; then
	note "check: the seq_producer module did not load: no round with lost events"
else
	[ $(($(head_field commit_low) + 0 >> 30)) = 3 ] ||
		note "check: the reader sub-buffer of the lapped buffer lacks a missed-event flag ($head)"
	judge_address
	judge_header
fi

# Then the marker rounds, under the tai clock (ns since 1970: the realtime
# clock, which the kernel sets from the guest's CMOS clock at boot, plus the
# TAI offset, 0 unless set): their sub-buffers' time stamps must be above
# 2^32, or a u32 read of time_stamp would go unseen, and the default clock
# (local, from boot) gets there only 4.3 s after boot. A guest whose
# realtime clock started at 0 (no CMOS clock) waits until it is past 2^32 ns.
# lab_defaults puts local back.
echo tai >$TRACEFS/trace_clock
while [ "$(date +%s)" -lt 5 ]; do sleep 0.1; done
old_round=$(rand 1 2)
[ "$old_round" != 1 ] || layout=6.10
marker_round "$(any_kb 8 16 32 64)" "$(rand 20 88)"
layout=6.12
[ "$old_round" != 2 ] || layout=6.10
marker_round "$(any_kb 8 16 32 64)" "$(rand 100 900)"
layout=6.12

echo "$pid_max" >/proc/sys/kernel/pid_max

# An event written in interrupt context (the timer interrupt, irqs off:
# common_flags has TRACE_FLAG_IRQS_OFF and TRACE_FLAG_HARDIRQ; a soft
# timer's in its softirq, TRACE_FLAG_SOFTIRQ): the expiry of a timer on
# CPU 0, that of a sleep there at least.
ev=$TRACEFS/events/timer/hrtimer_expire_entry
if [ -f $ev/id ]; then
	kb=$(any_kb 4 8 16)
	trace_reset "" "$kb"
	echo 1 >$ev/enable
	taskset -c 0 sleep 0.05
	echo 0 >$ev/enable
	decode
	round="$kb KiB sub-buffers whose first event is timer:hrtimer_expire_entry (ID $(cat $ev/id)), written in interrupt context"
	ct=$(field common_type) id=$(cat $ev/id)
	case $ct in '' | *[!0-9]*) ct=-1 ;; esac
	if [ "$ct" = "$id" ]; then
		:
	elif [ "$ct" -ge 0 ] && [ "$((ct & 0xffff))" = "$id" ]; then
		flunk step-4-payload "common_type '$ct' is $id plus common_flags $((ct >> 16 & 0xff)) and common_preempt_count $((ct >> 24 & 0xff)) in its high half: common_type is the u16 at payload byte 0, and the u8s after it are not 0 in an event written with irqs off or preemption disabled"
	else
		flunk step-4-payload "common_type is the u16 at payload byte 0: want $id (timer:hrtimer_expire_entry), got '$ct'"
	fi
else
	note "check: no timer:hrtimer_expire_entry event: no round with an event written in interrupt context"
fi
echo 0 >$ev/enable 2>/dev/null

for step in step-1-address step-2-header step-3-event-header step-4-payload; do
	case " $failed " in *" $step "*) ;; *) pass $step ;; esac
done
trace_reset
