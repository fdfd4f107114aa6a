# SPDX-License-Identifier: MIT
# trace_stream as a user meets it: --help, a stdout that fails (a full
# device, a closed pipe), SIGINT (prints what arrived since the last look,
# and stops promptly under a flood), --interval 0 (no busy loop), tracing
# without root, the first example of the README and the guide; and what a
# tracing system does while it runs: resets (echo > trace, a trace_clock
# change), a second trace_stream on the same CPU, another reader.
. "$(dirname "$0")/guest-lib.sh"
tmp=/tmp/trace-stream-test
rm -rf $tmp && mkdir -p $tmp

# markers CPU N TEXT: write "TEXT i" N times to trace_marker from CPU CPU
markers() {
	taskset "$((1 << $1))" sh -c "i=0; while [ \$i -lt $2 ]; do i=\$((i+1)); echo \"$3 \$i\" >$TRACEFS/trace_marker; done"
}
# stderr_has NAME FILE TEXT: FILE is one line that contains TEXT
# (trace_stream's fallback notice aside: errors, guest-lib.sh)
stderr_has() {
	local e
	e=$(errors "$2")
	if [ -n "$e" ] && [ "$(echo "$e" | wc -l)" = 1 ] && echo "$e" | grep -q -- "$3"; then
		pass "$1"
	else
		fail "$1" "wanted one line with '$3', got '$(echo "$e" | head -c 300 | tr '\n' '|')'"
	fi
}

rc=0
trace_stream --help >$tmp/help 2>&1 || rc=$?
expect_eq help "0 usage: trace_stream" "$rc $(head -n 1 $tmp/help | cut -d' ' -f1,2)"

# A stdout that fails: the events are taken from the ring, so say it.
trace_reset
markers 0 300 full
rc=0
trace_stream --cpu 0 --nonblock >/dev/full 2>$tmp/err || rc=$?
expect_eq write-error-exit 1 "$rc"
stderr_has write-error-said $tmp/err "writing to stdout: No space left on device"
# A closed pipe: the reader (true) is gone before trace_stream writes.
markers 0 300 pipe
rc=$( (sleep 1; trace_stream --cpu 0 --nonblock 2>$tmp/err; echo $? >$tmp/rc) | true; sleep 2; cat $tmp/rc)
expect_eq closed-pipe-exit 1 "$rc"
stderr_has closed-pipe-said $tmp/err "writing to stdout: Broken pipe"

# SIGINT, SIGTERM and SIGHUP (a closed terminal) print what arrived since
# the last wake (far below buffer_percent, and before --interval is up).
for sig in INT TERM HUP; do
	name=sig$(echo $sig | tr A-Z a-z)
	trace_reset
	trace_stream --cpu 0 --interval 10000 >$tmp/int 2>$tmp/err &
	pid=$!
	wait_asleep $pid # started: its handlers are set
	markers 0 3 "before $name"
	kill -$sig $pid
	wait $pid
	expect_eq $name-exit 0 "$?"
	expect_eq $name-drains "before $name 1|before $name 2|before $name 3" \
		"$(cut -d' ' -f4- $tmp/int | tr '\n' '|' | sed 's/|$//')"
done

# --interval 0: wait for the kernel's wake-up only, never spin. The CPU
# time it uses in 2 s, once started (loading the formats takes a while
# under TCG: wait, up to 10 s, until a half second passes without any).
# cpu_ticks PID: user + system time of PID, in clock ticks (1/100 s)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
trace_stream --cpu 0 --interval 0 >/dev/null 2>$tmp/err &
pid=$!
n=0 t0=-1
while [ "$t0" != "$(cpu_ticks $pid)" ] && [ $n -lt 20 ]; do
	t0=$(cpu_ticks $pid)
	sleep 0.5
	n=$((n + 1))
done
t0=$(cpu_ticks $pid)
sleep 2
ticks=$(($(cpu_ticks $pid) - t0))
kill -INT $pid
wait $pid
rc=$?
echo "--interval 0: $ticks ticks of CPU in 2 s"
if [ "$ticks" -lt 10 ] && [ "$rc" = 0 ]; then pass interval-0-sleeps; else fail interval-0-sleeps "$ticks ticks of CPU in 2 s, exit $rc"; fi

# SIGINT under a flood (the sequenced producer at full speed on CPU 0):
# trace_stream prints at most one more buffer's worth and stops (256 KiB
# here: formatting them takes time under TCG), and a second SIGINT stops
# it at once. Measured on an idle machine: 0.3 to 0.5 s, and 0.3 to 0.7 s
# for two; before, it never stopped while the flood went on. The limits
# (10 s, 3 s) leave room for a busy host.
# flood_stop NAME LIMIT_CS SIGNALS: the time from the first SIGINT to the
# exit is under LIMIT_CS centiseconds, and the exit status 0. The first
# SIGINT goes 2 s after trace_stream has set its handler, not 2 s after
# its start: sent before, it is lost (sh starts a background command with
# SIGINT ignored) and trace_stream runs on (seen in the guest).
flood_stop() {
	local pid t0 t1 n=0 rc
	taskset 2 trace_stream --cpu 0 >/dev/null 2>$tmp/err &
	pid=$!
	wait_catches $pid 2 || { fail "$1" "trace_stream did not set its SIGINT handler in 30 s"; return; }
	sleep 2
	t0=$(uptime_cs)
	kill -INT $pid
	[ "$3" = 1 ] || { sleep 0.2; kill -INT $pid; }
	while kill -0 $pid 2>/dev/null && [ $n -lt 300 ]; do sleep 0.05; n=$((n + 1)); done
	t1=$(uptime_cs)
	kill -KILL $pid 2>/dev/null
	wait $pid
	rc=$?
	echo "$1: trace_stream stopped $((t1 - t0)) cs after the first SIGINT under a flood, exit $rc"
	if [ $((t1 - t0)) -ge "$2" ]; then
		fail "$1" "still running $((t1 - t0)) cs after SIGINT"
	elif [ $rc != 0 ]; then
		fail "$1" "exit $rc after SIGINT under a flood, want 0$(errors $tmp/err | head -n 1 | sed 's/^/: /')"
	else
		pass "$1"
	fi
}
if seq_load; then
	trace_reset
	echo 256 >$TRACEFS/buffer_size_kb
	echo 1 >$TRACEFS/events/seq_producer/seq_event/enable
	seq_configure 0 0 16 0
	echo 1 >$SEQ_PARAMS/run
	flood_stop sigint-flood-stops 1000 1
	flood_stop sigint-twice-flood-stops-at-once 300 2
	echo 0 >$SEQ_PARAMS/run
	rmmod seq_producer
else
	fail sigint-flood-stops "insmod $SEQ_MODULE failed"
fi

# prints FILE: the payloads of FILE's ftrace/print lines, "|"-joined
prints() { awk '$3 == "ftrace/print"' "$1" | cut -d' ' -f4- | tr '\n' '|' | sed 's/|$//'; }
# seq_text TEXT N: "TEXT 1|TEXT 2|...|TEXT N"
seq_text() { i=0; while [ $i -lt "$2" ]; do i=$((i + 1)); printf '%s %d' "$1" $i; [ $i = "$2" ] || printf '|'; done; }

# Resets while trace_stream runs: one line each, and it goes on. Each
# reset comes once trace_stream has printed the events before it (or up
# to 60 s later): with a fixed second instead, under load, the events of
# "before reset" were not read yet when the reset dropped them (make
# check, 6 December 2026).
trace_reset
trace_stream --cpu 0 --interval 100 >$tmp/reset 2>$tmp/err &
pid=$!
wait_asleep $pid
markers 0 3 "before reset"
wait_output $tmp/reset "before reset 3"
echo >$TRACEFS/trace
markers 0 3 "after reset"
wait_output $tmp/reset "after reset 3"
echo global >$TRACEFS/trace_clock
markers 0 3 "after clock"
wait_output $tmp/reset "after clock 3"
kill -INT $pid
wait $pid
rc=$?
echo local >$TRACEFS/trace_clock
expect_eq reset-exit "0 " "$rc $(errors $tmp/err)"
expect_eq reset-events "$(seq_text "before reset" 3)|$(seq_text "after reset" 3)|$(seq_text "after clock" 3)" "$(prints $tmp/reset)"
# A reset is seen in the meta-page: in read() mode nothing says it.
if can_map; then
	expect_eq reset-lines 2 "$(awk '$3 == "reset"' $tmp/reset | wc -l)"
else
	skip reset-lines "$NO_MAP_WHY (a reset is seen in the meta-page)"
fi

# Two trace_stream on the same CPU: neither fails, one that finds the
# reader sub-buffer moved under it says another reader took events, and
# neither prints an event twice. Events can be lost to both: a GET_READER
# of one reader moves the kernel's read position past events the other
# has not decoded yet (the kernel keeps one reader page per CPU). So the
# check is that such a loss never goes unannounced: a reader that printed
# fewer than the 300 has an other-reader line. Its count is compared in
# stream-losses.test.sh (two-readers-counted: printed plus the other
# reader's count is the 300 the kernel read, for each reader), and a
# read() reader's below (other-reader-counted).
trace_reset
trace_stream --cpu 0 --interval 100 >$tmp/first 2>$tmp/first.err &
pid1=$!
trace_stream --cpu 0 --interval 100 >$tmp/second 2>$tmp/second.err &
pid2=$!
wait_asleep $pid1
wait_asleep $pid2
markers 0 300 "two readers"
sleep 1
kill -INT $pid1 $pid2
wait $pid1
rc1=$?
wait $pid2
expect_eq two-readers-exit "0 0 " "$rc1 $? $(errors $tmp/first.err)$(errors $tmp/second.err)"
both=$(grep -c ' other-reader ' $tmp/first $tmp/second | sed 's/.*://' | tr '\n' ' ')
union=$(cat $tmp/first $tmp/second | awk '$3 == "ftrace/print"' | cut -d' ' -f4- | sort -u | wc -l)
unannounced=''
for f in first second; do
	[ "$(grep -c ' ftrace/print ' $tmp/$f)" = 300 ] || grep -q ' other-reader ' $tmp/$f ||
		unannounced="$unannounced $f printed $(grep -c ' ftrace/print ' $tmp/$f) of 300 and has no other-reader line;"
done
# Another reader is seen from the meta-page's reader id: mapping only.
if can_map; then
	expect_eq two-readers-losses-announced "" "$unannounced"
else
	skip two-readers-losses-announced "$NO_MAP_WHY (another reader is seen from the meta-page)"
fi
for f in first second; do
	expect_eq two-readers-$f-no-duplicates "" "$(awk '$3 == "ftrace/print"' $tmp/$f | cut -d' ' -f4- | sort | uniq -d | head -n 3 | tr '\n' ' ')"
done
echo "two readers: printed $(grep -c ' ftrace/print ' $tmp/first) and $(grep -c ' ftrace/print ' $tmp/second), $union of 300 together; other-reader lines: $both"
if can_map; then
	expect_match two-readers-say-so '[1-9]' "$both"
else
	skip two-readers-say-so "$NO_MAP_WHY (another reader is seen from the meta-page)"
fi

# Another reader of another kind (read() of trace_pipe_raw) takes a
# sub-buffer while trace_stream waits: trace_stream goes on without an
# error, every event is printed by it or taken by the other, and it says
# how many of those it did not print the other took. (Both may have an
# event: when trace_stream started late and read the page live, the
# read() copies events from the kernel's read position, behind ours.) A
# read() does not refresh the meta-page: the library finds the loss in the
# meta-page's count of events read, at its next GET_READER (see "Two
# readers of one CPU" in the library chapter).
trace_reset
echo 100 >$TRACEFS/buffer_percent
trace_stream --cpu 0 --interval 10000 >$tmp/other 2>$tmp/err &
pid=$!
wait_asleep $pid
markers 0 300 "shared"
dd if=$TRACEFS/per_cpu/cpu0/trace_pipe_raw of=$tmp/taken.raw bs=4096 count=1 2>/dev/null
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
echo 50 >$TRACEFS/buffer_percent
trace_stream --offline $tmp/taken.raw >$tmp/taken
taken=$(grep -c ' ftrace/print ' $tmp/taken)
got=$(grep -c ' ftrace/print ' $tmp/other)
said=$(sed -n 's/.* other-reader (.* it took \([0-9]*\) events.*/\1/p' $tmp/other | awk '{ n += $1 } END { print n + 0 }')
echo "other reader: trace_stream printed $got, the other took $taken, trace_stream says the other took $said it did not print"
expect_eq other-reader-exit "0 " "$rc $(errors $tmp/err)"
expect_eq other-reader-accounted 300 "$(cat $tmp/other $tmp/taken | awk '$3 == "ftrace/print"' | cut -d' ' -f4- | sort -u | wc -l)"
if can_map; then
	expect_eq other-reader-counted $((300 - got)) "$said"
else
	skip other-reader-counted "$NO_MAP_WHY (another reader is seen from the meta-page)"
fi

# Not root: a permission error, not "tracefs not found".
trace_reset
grep -q '^nobody:' /etc/passwd 2>/dev/null || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
rc=0
su -s /bin/sh nobody -c 'trace_stream --cpu 0 --nonblock' >/dev/null 2>$tmp/err || rc=$?
expect_eq not-root-exit 1 "$rc"
stderr_has not-root-said $tmp/err "Permission denied"

# The first example of the README and the guide, with the shell on CPU 1.
trace_reset
taskset 2 sh -c "echo hello > $TRACEFS/trace_marker"
expect_eq first-example "1 ftrace/print hello" "$(trace_stream --nonblock | cut -d' ' -f1,3-)"
trace_reset
rm -rf $tmp
