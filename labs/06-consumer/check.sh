#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 06 in the guest: the learner's ./stream follows trace_marker
# writes on CPU 0 as they come, in order, sleeping (not spinning) while the
# buffer is empty, and stops after COUNT; then a second run over many
# sub-buffers, and a third with events too long for type_len (type_len 0).
#   sh check.sh DIR
SUITE=${SUITE:-labs/06-consumer}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" stream step-1-waits
out=/tmp/lab06.out
expected() { i=$2; while [ "$i" -lt "$3" ]; do echo "$1 $i"; i=$((i + 1)); done; }

# start COUNT: reset, buffer_percent 0 (one event wakes GET_READER), and
# ./stream 0 COUNT in the background as $pid.
start() {
	trace_reset
	echo 0 >$TRACEFS/buffer_percent
	"$dir/stream" 0 "$1" >$out 2>&1 &
	pid=$!
	prog_cmd="./stream 0 $1" prog_rc=running prog_out=''
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
# how: how ./stream ended, for a message.
how() { [ "$prog_rc" = running ] && echo "it is still running" || echo "it $(status_text "$prog_rc")"; }
# twice: a hint when a line of prog_out comes twice.
twice() {
	local d
	d=$(echo "$prog_out" | sort | uniq -d | head -n 1)
	[ -z "$d" ] || echo "'$d' printed twice: on the same reader sub-buffer, decode only from where the last call stopped; "
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
sleep 0.5
# busy: the CPU time ./stream used in the last second, in % of a CPU.
busy() {
	local t0
	t0=$(cpu_ticks $pid)
	sleep 1
	echo $(($(cpu_ticks $pid) - t0))
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
elif [ "$used" -gt 30 ]; then
	fail step-1-waits "it used $used% of a CPU for 1 s on an empty buffer: it spins instead of sleeping in GET_READER"
else
	pass step-1-waits
fi
markers lab06 0 10
sleep 1
prog_out=$(cat $out)
if ! alive $pid; then
	finished 0
	fail step-2-streams "after 10 events it should have printed 'lab06 0'..'lab06 9' and kept waiting; $(how)"
else
	expect_lines step-2-streams "$(twice)after 10 events it should have printed 'lab06 0'..'lab06 9' and kept waiting" \
		"$(expected lab06 0 10)" "$prog_out"
fi
# A second later: the next event comes after a time extend.
markers lab06 10 60
# extend: the hint for what comes after the pause.
extend="the events written after the pause come after a time extend (type_len 30, 8 bytes, no event)"
if ! finished 10; then
	fail step-3-count "still running 10 s after the 60th event, with $(echo "$prog_out" | grep -c .) lines printed: $extend; $(first_diff "$(expected lab06 0 60)" "$prog_out")"
else
	expect_lines step-3-count "$(twice)want 'lab06 0'..'lab06 59', one a line, then exit 0 ($extend); $(how)" \
		"$(expected lab06 0 60)" "$prog_out"
fi

# A second run: more than one sub-buffer's worth, written while it reads.
start 600
markers lab06 0 600
if ! finished 20; then
	fail step-4-many-sub-buffers "'./stream 0 600' still running 20 s after 600 events over several sub-buffers"
else
	expect_lines step-4-many-sub-buffers "$(twice)'./stream 0 600': 600 events over several sub-buffers, every one in order; $(how)" \
		"$(expected lab06 0 600)" "$prog_out"
fi

# A third: events longer than 112 bytes, which type_len cannot say.
long=lab06-long-$(printf '%0150d' 0)
start 20
markers "$long" 0 20
if ! finished 10; then
	fail step-5-long-events "'./stream 0 20' still running 10 s after 20 events of 170 bytes: type_len 0 records keep their length in array[0]"
else
	expect_lines step-5-long-events "'./stream 0 20' on events of 170 bytes: type_len 0, the length in array[0], the payload after it; $(how)" \
		"$(expected "$long" 0 20)" "$prog_out"
fi
