#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 04 in the guest: the learner's ./swap on a non-blocking and a
# blocking fd, with buffer_percent, and on a partly read sub-buffer. Each
# step sets what it does not own (buffer_percent before steps 2 and 3), so
# the steps can be done in any order.
#   sh check.sh DIR
SUITE=${SUITE:-labs/04-reader-swap}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" swap step-1-nonblock
out=/tmp/lab04.out
# Step 3's percentage, chosen per run: not the kernel's default (50), nor
# what the check leaves in buffer_percent (0), nor the page's example (60),
# so only a ./swap that writes the PERCENT it is given passes. Above 50, so
# that one event on one of the three sub-buffers (step_block) is not enough.
percent=$(rand 61 95)

trace_reset
"$dir/swap" 0 nonblock >$out 2>&1 &
pid=$!
prog_cmd="./swap 0 nonblock"
wait_settled $pid 120 && settled=0 || settled=$?
if [ $settled != 0 ]; then
	kill $pid 2>/dev/null
	wait $pid
	prog_rc=143 prog_out=$(cat $out)
	fail step-1-nonblock "$([ $settled = 1 ] && echo "asleep in ioctl() on an empty buffer" || echo "still running after 120 s"): map from an O_NONBLOCK fd, and GET_READER returns at once"
else
	wait $pid && prog_rc=0 || prog_rc=$?
	prog_out=$(cat $out)
	case $prog_rc:$prog_out in
	"0:nonblock rc 0 reader.id "*" reader.read 0 commit 0") ;;
	*) fail step-1-nonblock "on an empty buffer a non-blocking GET_READER returns 0 at once, with reader.read 0 and commit 0" ;;
	esac
	# Again with events in the buffer: GET_READER swaps in the sub-buffer
	# that holds them, which a program that never calls it cannot show.
	if [ $prog_rc = 0 ]; then
		trace_reset
		n=$(rand 3 30)
		markers "lab04 nonblock" 0 $n
		run_prog 120 "$dir/swap" 0 nonblock
		if echo "$prog_out" | grep -q '^nonblock rc 0 reader.id [0-9]* reader.read \([1-9][0-9]*\) commit \1$'; then
			pass step-1-nonblock
		else
			fail step-1-nonblock "with $n events in the buffer, GET_READER swaps in the sub-buffer that holds them: want reader.read = commit, not 0; was GET_READER called, after the mapping?"
		fi
	fi
fi

# step_block NAME FIRST MORE ARGS...: with buffer_percent 0, start a blocking
# ./swap 0 block ARGS, write FIRST events: it must still wait; write MORE:
# it must wake with data.
step_block() {
	local name=$1 first=$2 more=$3 pid
	shift 3
	# 8 KiB: three sub-buffers per CPU (4080 bytes of data each, the
	# count rounded up), and the reader's.
	trace_reset 8
	echo 0 >$TRACEFS/buffer_percent
	"$dir/swap" 0 block "$@" >$out 2>&1 &
	pid=$!
	prog_cmd="./swap 0 block $*"
	# What buffer_percent is while ./swap waits in GET_READER, before any
	# event: what the kernel wakes it by. Three looks asleep in the ioctl
	# with no event written tell that it is there (nothing else in
	# GET_READER sleeps).
	wait_settled $pid 120 $out 3 || true
	waited=$(cat $TRACEFS/buffer_percent)
	if [ "$first" != 0 ]; then
		markers "lab04 fill" 0 "$first"
		# A ./swap the event woke is runnable (state R) from the wake-up
		# on, however slow the guest is to run it: half a second asleep
		# in GET_READER after the write means it was not woken.
		wait_settled $pid 120 $out 5 || true
	fi
	if ! alive $pid; then
		wait $pid
		prog_rc=$? prog_out=$(cat $out)
		fail "$name" "returned after $first events, before buffer_percent was reached: $(percent_hint "$@")"
		return
	fi
	markers "lab04 fill" 0 "$more"
	if ! wait_settled $pid 120 $out; then
		kill $pid
		wait $pid
		prog_rc=143 prog_out=$(cat $out)
		fail "$name" "still blocked after $more more events: $(percent_hint "$@")"
		return
	fi
	wait $pid
	prog_rc=$? prog_out=$(cat $out)
	if grep -q '^woke rc 0 reader.id [0-9]* reader.read [1-9][0-9]* commit [1-9]' $out; then
		pass "$name"
	else
		fail "$name" "want 'woke rc 0' with data on the reader sub-buffer (reader.read and commit not 0)"
	fi
}
# percent_hint [PERCENT]: what buffer_percent is, and whether ./swap set it.
percent_hint() {
	local now
	now=$(cat $TRACEFS/buffer_percent)
	if [ -z "${1:-}" ]; then
		echo "buffer_percent is $now (the check set it); is the fd blocking (no O_NONBLOCK)?"
	elif [ "$now" = "$1" ] && [ "$waited" != "$1" ]; then
		echo "buffer_percent was $waited while ./swap waited in GET_READER, and $1 only once it had ended: write PERCENT and close (or flush) the file before the ioctl"
	elif [ "$now" != "$1" ]; then
		echo "buffer_percent is $now, not $1; did ./swap write it?"
	else
		echo "buffer_percent is $1, as ./swap wrote it; is the fd blocking (no O_NONBLOCK)?"
	fi
}
step_block step-2-block 0 1
step_block step-3-buffer-percent 1 300 $percent
if [ "$(cat $TRACEFS/buffer_percent)" != $percent ]; then
	prog_cmd=''
	fail step-3-buffer-percent "buffer_percent is $(cat $TRACEFS/buffer_percent), not $percent; did ./swap write it?"
fi

# put: each line of stdin as one trace_marker event on CPU 0, one write
# each (awk's fflush: a shell's read takes a byte at a time from a pipe).
put() {
	taskset -c 0 awk '{ print; fflush() }' >$TRACEFS/trace_marker 2>/dev/null
}
# pad N: N x's, to give an event a size chosen per run.
pad() { head -c "$1" /dev/zero | tr '\0' x; }
# short: each line's trailing x's as "+Nx", for the messages.
short() { awk '{ if (match($0, / x+$/)) $0 = substr($0, 1, RSTART) "+" (RLENGTH - 1) "x"; print }'; }
# calls: "ID1 READ1 ID2 READ2" from the 'first' and 'second' lines in
# prog_out, empty when one is missing.
calls() {
	local a b
	a=$(echo "$prog_out" | sed -n 's/^first rc 0 reader.id \([0-9]*\) reader.read \([0-9]*\) commit \2$/\1 \2/p')
	b=$(echo "$prog_out" | sed -n 's/^second rc 0 reader.id \([0-9]*\) reader.read \([0-9]*\) commit \2$/\1 \2/p')
	[ -z "$a" ] || [ -z "$b" ] || echo "$a $b"
}

# Step 4, on an empty buffer: both calls keep the same sub-buffer.
partial_empty() {
	local c new
	trace_reset
	run_prog 120 "$dir/swap" 0 partial
	c=$(calls)
	new=$(echo "$prog_out" | grep '^new ')
	set -- $c
	if [ -z "$c" ] || [ "$1" != "$3" ]; then
		fail step-4-partial "the second call should keep the same reader sub-buffer, with reader.read at its commit"
	elif [ "$new" != "new lab04 second" ]; then
		fail step-4-partial "decode from where the first call left reader.read up to the second's: want only 'new lab04 second'; $(first_diff "new lab04 second" "$new")"
	else
		return 0
	fi
	return 1
}

# Again on the same sub-buffer, with events of sizes and counts chosen per
# run: some written before ./swap starts (the first call's reader.read is
# then not where one event ends), some between its two calls (more than
# one event is new). To write those, the check holds ./swap after its first
# call: its stdout is a pipe the check fills first (64 KiB of zeros), so
# the line it prints after that call waits until the check reads the pipe.
partial_held() {
	local fifo=/tmp/lab04.fifo before='' between='' i=0 n pid held='' c new want
	trace_reset
	n=$(rand 4 7)
	while [ $i -lt $n ]; do
		before="${before:+$before
}lab04 before $i $(pad $(rand 100 200))"
		i=$((i + 1))
	done
	i=0 n=$(rand 2 5)
	while [ $i -lt $n ]; do
		between="${between:+$between
}lab04 between $i $(pad $(rand 1 60))"
		i=$((i + 1))
	done
	echo "$before" | put
	rm -f $fifo && mkfifo $fifo || return 1
	(head -c 65536 /dev/zero && exec "$dir/swap" 0 partial) >$fifo 2>&1 &
	pid=$!
	exec 3<$fifo
	prog_cmd="./swap 0 partial"
	deadline 120
	while running $pid && before_deadline; do
		case $(cut -d' ' -f3 /proc/$pid/stat 2>/dev/null):$(cut -d' ' -f1,2 /proc/$pid/syscall 2>/dev/null):$(readlink /proc/$pid/exe) in
		"S:1 0x1:$dir/swap") held=1 && break ;;
		Z:*) break ;;
		esac
		nap 0.02
	done
	[ -z "$held" ] || echo "$between" | put
	timeout 120 tail -c +65537 <&3 >$out
	exec 3<&-
	rm -f $fifo
	alive $pid && kill $pid
	wait $pid && prog_rc=0 || prog_rc=$?
	prog_out=$(cat $out)
	if [ -z "$held" ]; then
		fail step-4-partial "./swap 0 partial did not wait to print its 'first' line into a full pipe: it must print it (as the file does) after the first call and before writing 'lab04 second'"
		return 1
	fi
	c=$(calls)
	new=$(echo "$prog_out" | grep '^new ' | short)
	want=$({ echo "$between"; echo "lab04 second"; } | sed 's/^/new /' | short)
	set -- $c
	if [ -z "$c" ] || [ "$1" != "$3" ]; then
		fail step-4-partial "the second call should keep the same reader sub-buffer, with reader.read at its commit"
	elif [ "$new" = "$want" ]; then
		return 0
	elif case "$want" in "$new"?*) true ;; *) false ;; esac; then
		fail step-4-partial "with $(echo "$between" | wc -l) events written between the two calls, not one, the new bytes run from the first call's reader.read ($2) up to the second's ($4): decode up to the second's; $(first_diff "$want" "$new")"
	else
		fail step-4-partial "with $(echo "$before" | wc -l) events of sizes chosen per run in the sub-buffer before ./swap started, the first call's reader.read is $2: start where it is (the remembered value, not a fixed offset, nor reader.read minus it), up to the second's ($4); $(first_diff "$want" "$new")"
	fi
	return 1
}

# Again after a random number of events written before ./swap starts: the
# first call takes the oldest, full sub-buffer, the second swaps in the next
# one (a new reader.id), to be decoded from its start. The events left in
# the buffer (the trace file) say where it ended.
partial_fill() {
	local fill ids read2 new rest from want
	trace_reset
	fill=$(rand 250 600)
	markers "lab04 fill" 0 $fill
	run_prog 120 "$dir/swap" 0 partial
	ids=$(echo "$prog_out" | sed -n 's/^[a-z]* rc 0 reader.id \([0-9]*\) .*/\1/p' | sort -u | wc -l)
	read2=$(echo "$prog_out" | sed -n 's/^second rc 0 reader.id [0-9]* reader.read \([0-9]*\) .*/\1/p')
	new=$(echo "$prog_out" | sed -n 's/^new lab04 fill \([0-9]*\)$/\1/p')
	rest=$(sed -n 's/.*tracing_mark_write: lab04 fill \([0-9]*\)$/\1/p' $TRACEFS/trace | head -n 1)
	from=$(echo "$new" | head -n 1)
	want=$([ -z "$from" ] || seq "$from" $((${rest:-$fill} - 1)))
	if [ "$ids" != 2 ] || [ -z "$read2" ]; then
		fail step-4-partial "after $fill events written before ./swap 0 partial, the two calls must take two sub-buffers (two reader.id): print 'first' and 'second' after each call"
	elif [ -z "$new" ] || [ "$new" != "$want" ] || [ "$from" = 0 ] || [ $(echo "$new" | wc -l) -lt $((read2 / 64)) ]; then
		fail step-4-partial "after $fill events written first, the second call swapped in a new sub-buffer (reader.id changed): decode it from its start, up to reader.read; the first call's reader.read is an offset in the old one; got $(echo "$new" | grep -c .) events ($(echo $new | cut -c1-40)), want the $((${rest:-$fill} - ${from:-0})) before 'lab04 fill ${rest:-$fill}'"
	else
		return 0
	fi
	return 1
}

# Again after the writer has lapped a buffer of a size chosen per run
# (overwrite mode), with events of sizes chosen per run: the first call
# takes the oldest sub-buffer left, whose data end where its last event
# ends (events were lost: the kernel drops the padding after them from its
# commit); the second swaps in the next, full one, a new reader.id whose
# reader.read is above the first call's. Only the ID tells a new sub-buffer
# from more bytes on the same one, so this is run until that case came up,
# up to 5 times (each run's output is judged; the first run had it in 2 of
# 3 checks seen).
partial_lapped() {
	local kb n try=0 c new rest from want count
	while [ $try -lt 5 ]; do
		try=$((try + 1))
		kb=$(rand 12 20)
		trace_reset $kb
		n=$((kb * 40 + $(rand 0 99)))
		awk -v n=$n -v seed=$(rand 1 999999) 'BEGIN {
			srand(seed)
			x = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			for (i = 0; i < n; i++)
				print "lab04 lap " i " " substr(x, 1, 1 + int(rand() * 60))
		}' | put
		run_prog 120 "$dir/swap" 0 partial
		c=$(calls)
		new=$(echo "$prog_out" | sed -n 's/^new lab04 lap \([0-9]*\) x*$/\1/p')
		count=$(echo "$prog_out" | grep '^new ' | grep -vc '^new lab04 second$')
		rest=$(sed -n 's/.*tracing_mark_write: lab04 lap \([0-9]*\) x*$/\1/p' $TRACEFS/trace | head -n 1)
		from=$(echo "$new" | head -n 1)
		want=$([ -z "$from" ] || seq "$from" $((${rest:-$n} - 1)))
		set -- $c
		if [ -z "$c" ] || [ "$1" = "$3" ]; then
			fail step-4-partial "after the writer lapped a $kb KiB buffer ($n events written first), the two calls must take two sub-buffers (two reader.id): print 'first' and 'second' after each call"
			return 1
		fi
		# At most 112 bytes an event: a 4-byte header, 16 of print
		# entry, up to 76 of text and 3 more, an 8-byte time extend.
		if [ -z "$new" ] || [ "$new" != "$want" ] || [ $count != $(echo "$new" | wc -l) ] ||
			[ $count -lt $(($4 / 112)) ]; then
			fail step-4-partial "after the writer lapped a $kb KiB buffer, the first call took the oldest sub-buffer left (reader.id $1, reader.read $2), the second a new one (reader.id $3, reader.read $4$([ $4 -gt $2 ] && echo ", above the first call's")): a new reader.id is a new sub-buffer, decode it from its start whatever reader.read says (it is an offset in one sub-buffer: the two calls' do not compare); got $count events ($(echo $new | cut -c1-40)), want at least $(($4 / 112)), a run up to 'lab04 lap $((${rest:-$n} - 1))'"
			return 1
		fi
		[ $4 -le $2 ] || return 0
	done
	return 0
}

partial_empty && partial_held && partial_fill && partial_lapped && pass step-4-partial
