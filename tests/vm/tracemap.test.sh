# SPDX-License-Identifier: MIT
# The consumer library and its examples against the real kernel:
# trace_stream's output line by line, then tracemap_kernel (kselftest
# harness, several sub-buffer sizes). tracemap_kernel runs last: after its
# resize storm, tracefs was once seen answering ENODEV for the rest of the
# boot. The tree's own ring-buffer/map_test
# runs in rb-selftests.test.sh.
. "$(dirname "$0")/guest-lib.sh"
tmp=/tmp/tracemap-test
rm -rf $tmp && mkdir -p $tmp

trace_reset

# A known workload on CPU 0: the output, line by line.
taskset 1 sh -c 'for i in 1 2 3 4 5; do echo "stream line $i" >/sys/kernel/tracing/trace_marker; done'
trace_stream --cpu 0 --nonblock >$tmp/out 2>$tmp/err
rc=$?
expect_eq stream-exit 0 "$rc"
want=$(for i in 1 2 3 4 5; do echo "0 ftrace/print stream line $i"; done)
expect_eq stream-lines "$want" "$(awk '{ $2 = ""; sub(/  /, " "); print }' $tmp/out)"
if awk '{ if ($2 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]$/ || $2 + 0 < last) exit 1; last = $2 + 0 }' $tmp/out; then
	pass stream-timestamps
else
	fail stream-timestamps "$(head -n 2 $tmp/out | tr '\n' ' ')"
fi
trace_stream --cpu 0 --nonblock >$tmp/again
expect_eq stream-consumed "" "$(cat $tmp/again)"

# Overflow on CPU 0 with 4 sub-buffers: the gap line gives the overrun.
echo 0 >$TRACEFS/tracing_on
echo 8 >$TRACEFS/buffer_size_kb
echo >$TRACEFS/trace
echo 1 >$TRACEFS/tracing_on
taskset 1 sh -c 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); echo "o $i" >/sys/kernel/tracing/trace_marker; done'
overrun=$(sed -n 's/^overrun: //p' $TRACEFS/per_cpu/cpu0/stats)
trace_stream --cpu 0 --nonblock >$tmp/over
missed=$(awk '$3 == "missed" { s += $4 } END { print s + 0 }' $tmp/over)
events=$(grep -c ' ftrace/print ' $tmp/over)
expect_eq stream-missed-equals-overrun "$overrun" "$missed"
expect_eq stream-delivered-plus-missed 2000 "$((events + missed))"
expect_eq stream-last-event "o 2000" "$(tail -n 1 $tmp/over | cut -d' ' -f4-)"
trace_reset

# Blocking mode, all CPUs: runs until SIGINT, then exits 0.
trace_stream --interval 100 >$tmp/live 2>&1 &
pid=$!
wait_asleep $pid || fail stream-started "trace_stream did not settle in 30 s"
taskset 2 sh -c 'echo "on cpu one" >/sys/kernel/tracing/trace_marker'
taskset 1 sh -c 'echo "on cpu zero" >/sys/kernel/tracing/trace_marker'
sleep 1
kill -INT $pid
wait $pid
expect_eq stream-sigint-exit 0 "$?"
expect_eq stream-all-cpus "0 ftrace/print on cpu zero|1 ftrace/print on cpu one" \
	"$(errors $tmp/live | awk '{ print $1, $3, $4, $5, $6 }' | sort | tr '\n' '|' | sed 's/|$//')"

# Errors: one line, exit 1.
for args in "--cpu 99" "--instance tmg-none" "--tracefs /nonexistent"; do
	rc=0
	trace_stream $args --nonblock >/dev/null 2>$tmp/err || rc=$?
	name=error-$(echo "$args" | sed 's/^--//; s/ .*//')
	if [ "$rc" = 1 ] && [ "$(wc -l <$tmp/err)" = 1 ]; then pass "$name"; else fail "$name" "exit $rc: $(cat $tmp/err)"; fi
done
# A snapshot trigger keeps a snapshot armed ("echo 1 >snapshot" does not),
# so the buffer cannot be mapped: trace_stream reads it with read() and
# says so, one line. (The trigger's count of 0 keeps it from firing: a
# snapshot would swap the events away.)
trace_reset
echo 'ksys_sync:snapshot:0' >$TRACEFS/set_ftrace_filter
taskset 1 sh -c 'for i in 1 2 3; do echo "armed $i" >/sys/kernel/tracing/trace_marker; done'
rc=0
trace_stream --cpu 0 --nonblock >$tmp/armed 2>$tmp/err || rc=$?
echo '!ksys_sync:snapshot:0' >>$TRACEFS/set_ftrace_filter
expect_eq snapshot-armed-read-fallback "0 armed 1|armed 2|armed 3" \
	"$rc $(awk '$3 == "ftrace/print"' $tmp/armed | cut -d' ' -f4- | tr '\n' '|' | sed 's/|$//')"
if ! can_map; then
	skip snapshot-armed-says-read "$NO_MAP_WHY (that notice is the one trace_stream gives)"
elif [ "$(wc -l <$tmp/err)" = 1 ] && grep -q "snapshot is armed.*read()" $tmp/err; then
	pass snapshot-armed-says-read
else
	fail snapshot-armed-says-read "stderr: $(cat $tmp/err)"
fi

# reader_swap: the meta-page moves. 300 "swap N" markers per 4 KiB of
# sub-buffer (the kernel's, read back: 64 KiB on a 64 KiB-page kernel) fill
# more than two sub-buffers.
if ! can_map; then
	skip swap-reader-id-moves "$NO_MAP_WHY (reader_swap maps the buffer)"
	skip swap-events-total "$NO_MAP_WHY (reader_swap maps the buffer)"
else
	n=$((300 * $(subbuf_bytes) / 4096))
	taskset 1 sh -c 'i=0; while [ $i -lt '"$n"' ]; do i=$((i+1)); echo "swap $i"; done >/sys/kernel/tracing/trace_marker'
	reader_swap --cpu 0 --count 6 >$tmp/swap
	ids=$(sed -n 's/^after .* reader.id=\([0-9]*\) .*/\1/p' $tmp/swap | sort -u | wc -l)
	sum=$(sed -n 's/.* events=\([0-9]*\) .*/\1/p' $tmp/swap | awk '{ s += $1 } END { print s + 0 }')
	expect_ge swap-reader-id-moves 2 "$ids" "reader ids in: $(cat $tmp/swap)"
	expect_eq swap-events-total "$n" "$sum"
fi
rm -rf $tmp

trace_reset
run_tap tracemap_kernel tracemap_kernel
trace_reset
