#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 06 in the guest: the learner's ./stream follows trace_marker
# writes on CPU 0 as they come, in order, sleeping (not spinning) while the
# buffer is empty, before and after its first events, and stops after
# COUNT; then runs over many sub-buffers, on CPU 1 with events too long for
# type_len (type_len 0), at several buffer and sub-buffer sizes, and with
# discarded events among the markers.
#   sh check.sh DIR
SUITE=${SUITE:-labs/06-consumer}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" stream step-1-waits
out=/tmp/lab06.out
expected() { i=$2; while [ "$i" -lt "$3" ]; do echo "$1 $i"; i=$((i + 1)); done; }

# start COUNT [CPU]: reset, buffer_percent 0 (one event wakes GET_READER),
# and ./stream CPU COUNT (CPU 0 by default) in the background as $pid.
start() {
	trace_reset
	echo 0 >$TRACEFS/buffer_percent
	"$dir/stream" "${2:-0}" "$1" >$out 2>&1 &
	pid=$!
	prog_cmd="./stream ${2:-0} $1" prog_rc=running prog_out=''
}
# finished SECONDS: true once ./stream has exited (prog_rc: its status) within
# SECONDS; else it is killed. prog_out is what it printed.
finished() {
	if wait_exit $pid "$1"; then
		wait $pid
		prog_rc=$?
	else
		kill $pid 2>/dev/null
		prog_rc=143
	fi
	prog_out=$(cat $out)
	[ $prog_rc != 143 ]
}
# settles SECONDS: like finished, but gives up (prog_rc "running") as soon
# as ./stream sleeps in GET_READER with its output unchanged for two
# seconds (wait_settled): it waits for events that will not come.
settles() {
	if ! wait_settled $pid "$1" $out; then
		kill $pid 2>/dev/null
		wait $pid 2>/dev/null
		prog_rc=running prog_out=$(cat $out)
		return 1
	fi
	finished 0
}
# skipped WANT: when the lines printed are WANT's in order but with some
# left out, "lines N..M" of WANT, the first run of lines it skipped.
skipped() {
	printf '%s\n' "$prog_out" >/tmp/lab06.got
	printf '%s\n' "$1" | awk 'NR == FNR { got[++n] = $0; next }
		{ if (j < n && got[j + 1] == $0) { j++; if (from) { print "lines " from ".." to; found = 1; exit } }
		  else if (j < n) { if (!from) from = FNR; to = FNR } }
		END { if (!found) exit 1 }' /tmp/lab06.got - 2>/dev/null
	rm -f /tmp/lab06.got
}
# how: how ./stream ended, for a message.
how() { [ "$prog_rc" = running ] && echo "it is still running" || echo "it $(status_text "$prog_rc")"; }
# twice: a hint when a line of prog_out comes twice (field_hint first: a
# field printed instead of the text repeats on every line).
twice() {
	local d
	d=$(field_hint)
	[ -z "$d" ] || { echo "$d"; return; }
	d=$(echo "$prog_out" | sort | uniq -d | head -n 1)
	[ -z "$d" ] || echo "'$d' printed twice: on the same reader sub-buffer, decode only from where the last call stopped; "
}
# others: a hint when prog_out has lines that are no marker of this round.
others() {
	! echo "$prog_out" | grep -qv "^$tag" ||
		echo "it printed lines that are no trace_marker text: seq_producer events were on CPU 0 too, print only type 5 (ftrace/print); "
}
# judge STEP WANT HINT [how]: PASS when ./stream printed WANT; else FAIL
# with twice's hint, HINT, how it ended (with "how") and the first line
# that differs. The hints run only on a failure: each takes a few forks,
# tens of milliseconds under TCG.
judge() {
	if [ "$prog_out" = "$2" ]; then
		pass "$1"
	else
		fail "$1" "$(twice)$3${4:+; $(how)}; $(first_diff "$2" "$prog_out")"
	fi
}
others_or_twice() {
	local h
	h=$(others)
	[ -n "$h" ] && echo "$h" || twice
}
# field_hint: a hint naming the field printed when the lines printed are
# not the marker texts because the text was taken at the wrong offset of
# the event's data: 8 bytes of common fields (type, flags, preempt_count,
# pid), the 8-byte ip field, then the text at offset 16.
field_hint() {
	local first last n
	first=$(printf '%s\n' "$prog_out" | head -n 1)
	last=$(printf '%s\n' "$prog_out" | wc -l)
	n=$(printf '%s\n' "$prog_out" | sort -u | wc -l)
	case $first in
	*lab06*) [ "${first%%lab06*}" = "" ] ||
		echo "bytes before each text: those are the ip field (8 bytes at offset 8 of the data, the address of the code that wrote the event, after type, flags, preempt_count and pid); the marker text starts at offset 16; " ;;
	*)
		if [ "$last" -gt 1 ] && [ "$n" = 1 ]; then
			echo "every line printed is the same ('$first'), whatever the event: a field that never changes was printed instead of the text, such as the ip field (the address of the code that wrote the event, 8 bytes at offset 8 of the data; a 0 byte in it ends the string early) or the pid at offset 4; the marker text starts at offset 16, after the ip; "
		elif [ -n "$first" ] && case "lab06 0" in *"$first") true ;; *) false ;; esac; then
			echo "the first bytes of each text are missing: the marker text starts at offset 16 of the data, right after the 8-byte ip field, not later; "
		fi
		;;
	esac
}
# cpu_ticks PID: user and system time of PID, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' /proc/$1/stat 2>/dev/null || echo 0; }
# nonblock_fd PID: true when PID's trace_pipe_raw is open with O_NONBLOCK.
nonblock_fd() {
	local fd
	for fd in /proc/$1/fd/*; do
		case $(readlink "$fd") in
		*/trace_pipe_raw)
			[ $((0$(sed -n 's/^flags:[ \t]*//p' /proc/$1/fdinfo/${fd##*/}) & 04000)) != 0 ] && return 0 ;;
		esac
	done
	return 1
}

start 60
# Until it has opened trace_pipe_raw (a slow guest takes a while to start it).
deadline 60
while running $pid && before_deadline && ! ls -l /proc/$pid/fd 2>/dev/null | grep -q trace_pipe_raw; do
	nap 0.02
done
# busy: the CPU time ./stream used in the next half second, in % of a CPU
# (clock ticks are hundredths of a second).
busy() {
	local t0
	t0=$(cpu_ticks $pid)
	sleep 0.5
	echo $((($(cpu_ticks $pid) - t0) * 2))
}
used=$(busy)
[ "$used" -le 30 ] || used=$(busy) # a second look before calling it spinning
if ! alive $pid; then
	finished 0
	fail step-1-waits "on an empty buffer the consumer should wait in GET_READER; $(how)"
elif [ -s $out ]; then
	prog_out=$(cat $out)
	fail step-1-waits "on an empty buffer the consumer should wait in GET_READER, not print"
elif nonblock_fd $pid; then
	fail step-1-waits "it opened trace_pipe_raw with O_NONBLOCK, so GET_READER never sleeps: it spins; open it blocking"
	spins=1
elif [ "$used" -gt 30 ]; then
	fail step-1-waits "it used $used% of a CPU for half a second on an empty buffer: it spins instead of sleeping in GET_READER"
	spins=1
else
	pass step-1-waits
fi
# The later steps tell a consumer that waits for more from one that is done
# by its sleep in GET_READER (settles): a spinning one would run each of
# them to its time limit, minutes in all on a slow guest.
if [ -n "${spins:-}" ]; then
	note "    the later steps are not run: they need a consumer that sleeps in GET_READER on an empty buffer (step 1)"
	exit 0
fi
markers lab06 0 10
# On a loaded machine two of these writes can be more than 2^27 ns apart.
gap="events more than 2^27 ns apart come after a time extend (type_len 30, 8 bytes, no event)"
# Until it has printed them and waits again (or has ended), a few seconds
# at a time: one that spins once it has printed the ten never waits
# asleep, and is looked at then; one that stops short sleeps with fewer.
deadline 120
settled=2
while [ $settled = 2 ] && before_deadline; do
	settled=0
	wait_settled $pid 3 $out 20 10 || settled=$?
	[ $settled != 2 ] || [ "$(wc -l <$out)" -lt 10 ] || break
done
[ $settled != 2 ] || ! before_deadline || ! alive $pid || nonblock_fd $pid ||
	[ "$(busy)" -gt 30 ] || wait_settled $pid 120 $out 20 10 || true
prog_out=$(cat $out)
# Then, once it has printed events, it must sleep again while it waits:
# no O_NONBLOCK set since, no CPU time (a second look before calling it
# spinning, as in step 1).
if alive $pid && nonblock_fd $pid; then
	fail step-2-streams "after its first events its trace_pipe_raw is O_NONBLOCK, so every later GET_READER returns at once and it spins while it waits: keep the fd blocking (with buffer_percent 0, a blocking GET_READER returns at once while an event is unread, and sleeps only when all is read)"
	spins=1
elif alive $pid && used=$(busy) && { [ "$used" -le 30 ] || used=$(busy); [ "$used" -gt 30 ]; }; then
	fail step-2-streams "it used $used% of a CPU for half a second while it waited for more after printing $(echo "$prog_out" | grep -c .) lines: it spins instead of sleeping in GET_READER"
	spins=1
elif ! alive $pid; then
	finished 0
	fail step-2-streams "after 10 events it should have printed 'lab06 0'..'lab06 9' and kept waiting ($gap); $(how)"
else
	judge step-2-streams "$(expected lab06 0 10)" \
		"after 10 events it should have printed 'lab06 0'..'lab06 9' and kept waiting ($gap)"
fi
if [ -n "${spins:-}" ]; then
	note "    the later steps are not run: they need a consumer that sleeps in GET_READER while it waits (step 2)"
	exit 0
fi
# After the wait above (three looks at least, 0.3 s, then half a second
# of CPU time looked at), then after a pause
# of 0.2 s in the middle of the sub-buffer the writer is on: each pause is
# longer than 2^27 ns (0.13 s), so the next event comes after a time extend.
markers lab06 10 30
sleep 0.2
markers lab06 30 60
# extend: the hint for what comes after the pauses.
extend="the events written after each pause (more than 2^27 ns, 0.13 s: the check waited 0.2 s or more before each) come after a time extend (type_len 30, 8 bytes, no event): skip all 8 bytes"
if ! settles 120; then
	fail step-3-count "still waiting after the 60th event, with $(echo "$prog_out" | grep -c .) lines printed: $extend; $(first_diff "$(expected lab06 0 60)" "$prog_out")"
else
	judge step-3-count "$(expected lab06 0 60)" \
		"want 'lab06 0'..'lab06 59', one a line, then exit 0 ($extend)" how
fi

# A second run: more than one sub-buffer's worth, written while it reads.
start 600
markers lab06 0 600
if ! settles 120; then
	# The lines stop short, none wrong, or some in the middle are left
	# out: the next sub-buffer was decoded from where the previous one
	# ended (nothing when that is past its data, else its later events).
	printed=$(echo "$prog_out" | grep -c .)
	reset=
	offset0="when GET_READER hands over a new sub-buffer (another reader.id), decoding starts at its offset 0, not where the last one stopped"
	if [ "$printed" != 0 ] && [ "$(expected lab06 0 "$printed")" = "$prog_out" ]; then
		reset="the first $printed in order, then nothing: $offset0; "
	elif gap=$(skipped "$(expected lab06 0 600)") && [ -n "$gap" ]; then
		reset="$gap never printed, the lines after them in order: $offset0 (its first events are then left out); "
	fi
	fail step-4-many-sub-buffers "'./stream 0 600' still waiting after 600 events over several sub-buffers, with $printed lines printed; $reset$(twice)$(first_diff "$(expected lab06 0 600)" "$prog_out")"
else
	judge step-4-many-sub-buffers "$(expected lab06 0 600)" \
		"'./stream 0 600': 600 events over several sub-buffers, every one in order" how
fi

# A third, on CPU 1: events longer than 112 bytes, which type_len cannot
# say, written on CPU 1 while 20 short markers are written on CPU 0.
long=lab06-long-$(printf '%0150d' 0)
start 20 1
markers lab06-cpu0 0 20 0 &
mpid=$!
markers "$long" 0 20 1
wait $mpid
# cpu: a hint when it printed CPU 0's markers.
cpu() {
	! echo "$prog_out" | grep -q '^lab06-cpu0 ' ||
		echo "it printed the markers written on CPU 0: './stream 1 20' reads per_cpu/cpu1/trace_pipe_raw, the CPU its first argument names; "
}
if ! settles 120; then
	fail step-5-long-events "$(cpu)'./stream 1 20' still waiting after 20 events of 170 bytes on CPU 1: type_len 0 records keep their length in array[0]"
else
	judge step-5-long-events "$(expected "$long" 0 20)" \
		"$(cpu)'./stream 1 20' on events of 170 bytes written on CPU 1: type_len 0, the length in array[0], the payload after it" how
fi

# Then at buffer and sub-buffer sizes chosen per run, small enough that the
# events written before ./stream starts wrap the buffer: the consumer goes
# through every sub-buffer, the last one of the mapping included, and the
# events the buffer kept (the trace file says which) come first, then
# events written while it runs, COUNT in all.
tag=lab06-$(rand 100 999) sizes_ok=0
for round in 1 2; do
	if [ $round = 1 ]; then
		kb=$(($(rand 1 2) * 8)) pages=$(rand 3 6)
	else
		kb=4 pages=$(rand 6 12)
	fi
	trace_reset $((kb * pages)) $kb
	# About 40 bytes an event: 1.5 times what the buffer holds. In the
	# second round, seq_producer events (another type, with a payload
	# longer than a print's header) come between them on CPU 0.
	n=$((kb * pages * 1024 * 3 / 2 / 40))
	if [ $round = 1 ]; then
		markers "$tag" 0 $n
		# Then the writer's sub-buffer filled past its first 4 KiB (136
		# events of 36 bytes or more; one of 8 KiB holds more than 180):
		# the buffer having wrapped before the program maps it, it is the
		# last of the mapping (id 0 is the reader's sub-buffer, then the
		# ring from the head page), and the meta-page's slot in the
		# mapping is a sub-buffer long (meta_page_size = subbuf_size:
		# rb_setup_ids_meta_page(); one page padded with zero pages:
		# __rb_map_vma(), kernel/trace/ring_buffer.c), so a mapping that
		# counts the meta-page as one 4 KiB page ends inside the data
		# read last.
		t=$(check_aid tail-records 0)
		[ "$t" -ge 136 ] || { markers "$tag" $n $((n + 136 - t)) && n=$((n + 136 - t)); }
	else
		markers "$tag" 0 $((n / 2))
		seq_produce $(rand 5 20) 24 || fail step-6-buffer-sizes "the seq_producer module did not load"
		markers "$tag" $((n / 2)) $n
	fi
	kept=$(sed -n 's/.*tracing_mark_write: //p' $TRACEFS/trace)
	if [ $round = 1 ]; then
		# COUNT a few below what the buffer kept: ./stream must stop in
		# the middle of the last sub-buffer it reads. When the writer's
		# sub-buffer holds no more than those few, COUNT steps back into
		# the one before, never onto the last event of a sub-buffer.
		short=$(rand 1 3) tail=$(check_aid tail-records 0)
		[ "$tail" -gt $short ] || short=$((tail + $(rand 1 3)))
		more=0 count=$(($(echo "$kept" | grep -c .) - short))
		kept=$(echo "$kept" | head -n $count)
	else
		more=$(rand 5 30)
		count=$(($(echo "$kept" | grep -c .) + more))
	fi
	echo 0 >$TRACEFS/buffer_percent
	"$dir/stream" 0 $count >$out 2>&1 &
	pid=$!
	prog_cmd="./stream 0 $count" prog_rc=running prog_out=''
	# The events written while it runs come once it has printed what the
	# buffer kept and sleeps in GET_READER (or after two seconds asleep
	# short of that).
	[ $more = 0 ] || wait_settled $pid 120 $out 20 $(echo "$kept" | grep -c .) || true
	markers "$tag-more" 0 $more
	want=$(printf '%s\n%s' "$kept" "$(expected "$tag-more" 0 $more)" | grep .)
	what="'./stream 0 $count' with $pages sub-buffers of $kb KiB, wrapped before it started (the last sub-buffer of the mapping is used)"
	if ! settles 120; then
		gap=$(skipped "$want")
		one=${gap#lines }
		if [ -n "$gap" ] && [ "${one%%..*}" = "${one##*..}" ]; then
			fail step-6-buffer-sizes "$what: it left out line ${one%%..*} alone, the lines around it in order, and then waited for more: was that marker's type read with more than its 16 bits? common_type is a u16; the flags and preempt_count bytes after it change from event to event (need-resched set under load)"
		elif [ -n "$gap" ]; then
			fail step-6-buffer-sizes "$what: it skipped $gap of the $count events and then waited for more: is the whole buffer mapped, meta_page_size + nr_subbufs * subbuf_size bytes, and each sub-buffer read at meta_page_size + id * subbuf_size?"
		elif [ "$(printf '%s\n' "$want" | head -n $(echo "$prog_out" | grep -c .))" = "$prog_out" ]; then
			fail step-6-buffer-sizes "$what: lines $(($(echo "$prog_out" | grep -c .) + 1))..$count never printed, and it waits for more: is the whole buffer mapped, meta_page_size + nr_subbufs * subbuf_size bytes, and each sub-buffer read at meta_page_size + id * subbuf_size? (outside the mapping, a sub-buffer can read as empty)"
		else
			fail step-6-buffer-sizes "$what: still waiting after its last event, with $(echo "$prog_out" | grep -c .) of $count lines printed; $(twice)$(first_diff "$want" "$prog_out")"
		fi
		break
	elif crashed "$prog_rc"; then
		fail step-6-buffer-sizes "$what: $(how) after $(echo "$prog_out" | grep -c .) of $count lines: is the whole buffer mapped, meta_page_size + nr_subbufs * subbuf_size bytes, and each sub-buffer at meta_page_size + id * subbuf_size?"
		break
	elif [ "$prog_out" != "$want" ] && [ "$(echo "$prog_out" | grep -c .)" -gt $count ] &&
		[ "$(echo "$prog_out" | head -n $count)" = "$want" ]; then
		fail step-6-buffer-sizes "$what: $(echo "$prog_out" | grep -c .) lines printed for COUNT $count: stop as soon as COUNT events are printed, also in the middle of a sub-buffer (check COUNT in the loop over its events, not only around it)"
		break
	elif [ $round = 2 ] && [ "$prog_rc" = 0 ] && [ -n "$prog_out" ] && [ "$prog_out" != "$want" ] &&
		[ "$(printf '%s\n' "$want" | head -n $(echo "$prog_out" | grep -c .))" = "$prog_out" ]; then
		fail step-6-buffer-sizes "$what: it exited 0 after $(echo "$prog_out" | grep -c .) of the $count lines, each right: the seq_producer events between the markers (another type, not printed) were counted toward COUNT? count only the type-5 events it prints"
		break
	elif [ "$prog_out" != "$want" ]; then
		fail step-6-buffer-sizes "$(others_or_twice)$what: want the $count events in order, then exit 0; $(how); $(first_diff "$want" "$prog_out")"
		break
	elif [ "$prog_rc" != 0 ]; then
		fail step-6-buffer-sizes "$what: the $count events right, but $(how)"
		break
	fi
	sizes_ok=$round
done
[ $sizes_ok != 2 ] || pass step-6-buffer-sizes

# Last, an event the kernel discarded in the middle of a sub-buffer, before
# events it must print (discard_arm in guest-lib.sh says how): padding with
# a non-zero time delta and its length in array[0] (rb_event_discard()).
# DFD, chosen per run, picks the openat call. Then a second discarded
# openat event, whose file name ("tmg-discard") the trigger's filter reads
# without a fault: nothing is written after it, so the kernel gives its
# space back and sets the before stamp to 0, and the next event, a marker,
# comes after an absolute time stamp (type_len 31, 8 bytes:
# rb_try_to_discard(), then the before/after stamp check in
# __rb_reserve_next(), kernel/trace/ring_buffer.c). Writing 1 to the
# event's enable file again clears the soft-disable the trigger left
# (__ftrace_event_enable_disable(), kernel/trace/trace_events.c): no
# tracepoint is turned on or off.
LAB_CLEANUP=discard_disarm
# discarded TAG BEFORE MID COUNT: reset, markers TAG 0..BEFORE-1, the
# discarded openat event, markers TAG BEFORE..MID-1, the openat event
# given back, markers TAG MID..COUNT-1, all on CPU 0.
discarded() {
	trace_reset
	discard_arm $dfd || return 1
	markers "$1" 0 "$2"
	discard_make $dfd
	markers "$1" "$2" "$3"
	echo 1 >$DISCARD_OPENAT/enable && (cd /tmp && taskset -c 0 cat tmg-discard 2>/dev/null)
	markers "$1" "$3" "$4"
	discard_disarm
}
tag=lab06-$(rand 100 999) dfd=$(rand 1000 99999) before=$(rand 3 20) count=$(rand 40 60)
mid=$(rand $((before + 5)) $((count - 10)))
# First for the check itself: the sub-buffer the writer is on, which holds
# them all (under 3 KiB; check_aid tail-list reads it without consuming),
# must hold the discarded event ("d/LEN") with markers (type 5) after it,
# then the absolute time stamp ("s/8") before a marker.
if ! discarded "$tag" $before $mid $count; then
	fail step-7-discarded-event "the check could not set the trigger on syscalls:sys_enter_openat"
elif ! records=$(check_aid tail-list 0) || ! echo "$records" | grep -q ' d/[0-9]*.* e5/.* s/8 e5/'; then
	fail step-7-discarded-event "the check wrote no discarded event before markers, then an absolute time stamp before a marker, in a sub-buffer (the kernel's doing, not the program's): $records"
else
	echo 0 >$TRACEFS/buffer_percent
	"$dir/stream" 0 $count >$out 2>&1 &
	pid=$!
	prog_cmd="./stream 0 $count" prog_rc=running prog_out=''
	what="'./stream 0 $count' on $count events with a discarded event after '$tag $((before - 1))' in the same sub-buffer (padding, type_len 29, with a non-zero time delta, its length in array[0]), and one the kernel gave back before '$tag $mid' (an absolute time stamp, type_len 31, comes before it)"
	lost="the events after the discarded one were lost: only padding with time delta 0 ends the data; a discarded event is 4 + array[0] bytes long, and the events after it count"
	# abs: a hint when it printed the markers up to the absolute time
	# stamp, and not the one after it.
	abs() {
		[ "$(printf '%s\n' "$prog_out" | head -n $mid)" = "$(expected "$tag" 0 $mid)" ] &&
			[ "$(printf '%s\n' "$prog_out" | sed -n "$((mid + 1))p")" != "$tag $mid" ] &&
			echo "'$tag $mid' and on were lost, after a discarded event the kernel gave back: the next event comes after an absolute time stamp (type_len 31, 8 bytes, no event): skip all 8 bytes; "
	}
	if ! settles 120; then
		if [ "$prog_out" = "$(expected "$tag" 0 $before)" ]; then
			fail step-7-discarded-event "$what: it printed the $before before it, then waited: $lost"
		else
			fail step-7-discarded-event "$what: still waiting after its last event, with $(echo "$prog_out" | grep -c .) lines printed; $(abs)$(first_diff "$(expected "$tag" 0 $count)" "$prog_out")"
		fi
	else
		judge step-7-discarded-event "$(expected "$tag" 0 $count)" \
			"$(abs)$what: want every one, in order, then exit 0" how
	fi
fi
