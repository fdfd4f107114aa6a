# SPDX-License-Identifier: MIT
# examples/demos/minimal_consumer.c, the consumer without the library: what
# it prints is what was written to trace_marker (count, text, order), its
# time stamps are those of the kernel's own trace file, it carries on where
# an earlier reader left the reader sub-buffer, it decodes large events, it
# stops after --count, and when the buffer overwrote events the ones it
# delivers plus the ones it reports missed are all that were written.
. "$(dirname "$0")/guest-lib.sh"
tmp=/tmp/minimal-consumer-test
rm -rf $tmp && mkdir -p $tmp

# It maps the buffer and has no read() fallback, by design: on a kernel
# that cannot map (Debian's 6.1), one SKIP.
if ! can_map; then
	skip mapping "$NO_MAP_WHY: minimal_consumer has no read() fallback, by design"
	exit 0
fi
if ! command -v minimal_consumer >/dev/null; then
	fail present "minimal_consumer is not in the guest's PATH (examples/Makefile DEMOS)"
	exit 0
fi
if [ ! -r $TRACEFS/per_cpu/cpu0/trace_pipe_raw ]; then
	fail present "no $TRACEFS/per_cpu/cpu0/trace_pipe_raw in this guest"
	exit 0
fi

# The program assumes a 64-bit kernel's sub-buffer header, data at byte 16
# (docs/ringbuffer/minimal.rst); it does not read events/header_page. On a
# kernel whose data start elsewhere (byte 12 on a 32-bit kernel) it
# misreads every event: what it prints is not checked there (SKIP), only
# that it exits 0 and prints nothing when there is nothing.
data_offset=$(header_page data offset)
layout_skip=''
[ "$data_offset" = 16 ] ||
	layout_skip="this kernel's sub-buffer data start at byte $data_offset (events/header_page); minimal_consumer assumes 16, a 64-bit kernel's (minimal.rst)"
# decoded NAME WANT GOT: expect_eq on what the program decoded, or SKIP
# (above)
decoded() {
	if [ -n "$layout_skip" ]; then skip "$1" "$layout_skip"; else expect_eq "$@"; fi
}

# markers N TEXT: write "TEXT i" for i in 1..N to trace_marker from CPU 0
markers() {
	taskset 1 sh -c "i=0; while [ \$i -lt $1 ]; do i=\$((i+1)); echo \"$2 \$i\" >$TRACEFS/trace_marker; done"
}
# seq_text TEXT FIRST LAST: "TEXT FIRST|...|TEXT LAST"
seq_text() {
	i=$2
	while [ "$i" -le "$3" ]; do
		printf '%s %d' "$1" "$i"
		[ "$i" = "$3" ] || printf '|'
		i=$((i + 1))
	done
}
# texts FILE: the texts of FILE's ftrace/print lines ("SECONDS size N id 5
# TEXT"), "|"-joined
texts() { awk '$2 == "size" && $4 == "id" && $5 == 5' "$1" | cut -d' ' -f6- | tr '\n' '|' | sed 's/|$//'; }
# consume NAME [OPTIONS]: run minimal_consumer --cpu 0 OPTIONS into
# $tmp/NAME; a failure (exit status, anything on stderr) is a result
consume() {
	local name=$1 rc=0
	shift
	minimal_consumer --cpu 0 "$@" >$tmp/$name 2>$tmp/$name.err || rc=$?
	expect_eq "$name-exit" "0 " "$rc $(head -c 300 $tmp/$name.err)"
}

# Nothing written: nothing printed, exit 0 (non-blocking, it does not wait).
trace_reset
consume empty
expect_eq empty-prints-nothing 0 "$(wc -l <$tmp/empty)"

# Numbered markers, with a pause in the middle (longer than the 2^27 ns a
# time delta holds, so a time extend is decoded too): every line, in order.
trace_reset
markers 20 "first"
sleep 0.3
markers 20 "second"
# The kernel's trace file (it does not consume): microsecond time stamps.
grep -v '^#' $TRACEFS/trace >$tmp/trace
consume exact
decoded exact-lines 40 "$(wc -l <$tmp/exact)"
decoded exact-texts "$(seq_text first 1 20)|$(seq_text second 1 20)" "$(texts $tmp/exact)"
# "SECONDS.NNNNNNNNN size N id 5 TEXT" -> "SECONDS.UUUUUU TEXT", rounded as
# the trace file rounds (ns2usecs: + 500 ns). The nanoseconds lose their
# leading zeros first: busybox awk reads "0" followed by octal digits only
# (054040653) as an octal number.
awk '{ split($1, t, "."); ns = t[2]; sub(/^0+/, "", ns); us = int((ns + 500) / 1000); s = t[1];
	if (us == 1000000) { s++; us = 0 }
	$1 = sprintf("%d.%06d", s, us); print $1, $6, $7 }' $tmp/exact >$tmp/exact.us
sed -n 's/.* \([0-9]*\.[0-9]\{6\}\): tracing_mark_write: /\1 /p' $tmp/trace >$tmp/trace.us
if [ -n "$layout_skip" ]; then
	skip exact-times-match-trace-file "$layout_skip"
elif cmp -s $tmp/trace.us $tmp/exact.us; then
	pass exact-times-match-trace-file
else
	fail exact-times-match-trace-file "$(diff $tmp/trace.us $tmp/exact.us | head -n 6 | tr '\n' '|')"
fi
# The pause shows in the times: more than a time delta's 27 bits can hold.
gap=$(awk '$7 == 20 { a = $1 } $6 == "second" && $7 == 1 { print ($1 - a > 0.135) ? "over" : "under: " $1 - a }' $tmp/exact)
decoded exact-pause-needs-time-extend over "$gap"
consume again
expect_eq consumed-once 0 "$(wc -l <$tmp/again)"

# The reader sub-buffer is still the writer's after a run: the next run
# starts where the last one stopped (reader.read), not at its beginning.
trace_reset
markers 3 "early"
consume resume-1
markers 2 "late"
consume resume-2
decoded resume-first-run "$(seq_text early 1 3)" "$(texts $tmp/resume-1)"
decoded resume-second-run "$(seq_text late 1 2)" "$(texts $tmp/resume-2)"

# A payload over 112 bytes is a large event (type_len 0, length in array[0]).
trace_reset
long=$(printf 'x%.0s' $(seq 150))
taskset 1 sh -c "echo $long >$TRACEFS/trace_marker"
consume large
decoded large-event "$long" "$(texts $tmp/large)"

# --count N: the first N, then exit.
trace_reset
markers 10 "count"
consume count --count 4
decoded count-stops "$(seq_text count 1 4)" "$(texts $tmp/count)"

# Overwrite mode, a buffer of two sub-buffers' data (8 KiB: 4 sub-buffers
# of 4 KiB with the reader's; with 64 KiB pages, 128 KiB of 64 KiB ones),
# 2000 markers per 4 KiB of sub-buffer: most are lost. What is delivered is
# numbered from the first survivor to the last without a gap, and
# delivered + reported missed = all written. The markers go without a
# newline (the kernel adds one): "loss 12345" is then a 32-byte record, and
# a sub-buffer of 4080 or 65520 data bytes keeps 16 after its last whole
# one, room for the missed count. With the newline it is 36 bytes, and 1820
# of them fill 65520 exactly: the kernel flags the loss but has no room to
# store the count (seen: "missed -1").
trace_reset
subbuf=$(subbuf_bytes)
echo $((subbuf / 1024 * 2)) >$TRACEFS/buffer_size_kb
total=$((2000 * subbuf / 4096))
taskset 1 sh -c "i=0; while [ \$i -lt $total ]; do i=\$((i+1)); printf 'loss %d' \$i; done >$TRACEFS/trace_marker"
consume loss
missed=$(awk '$1 == "missed" { n += $2 } END { print n + 0 }' $tmp/loss)
delivered=$(awk '$4 == "id" && $5 == 5' $tmp/loss | wc -l)
first=$(awk '$4 == "id" && $5 == 5 { print $7; exit }' $tmp/loss)
echo "loss: $delivered delivered, $missed reported missed, first delivered: loss $first"
if [ -n "$layout_skip" ]; then
	skip loss-reported "$layout_skip"
elif [ "$missed" -gt 0 ]; then pass loss-reported; else fail loss-reported "no 'missed N' line: $(head -n 2 $tmp/loss | tr '\n' '|')"; fi
decoded loss-no-unknown-count 0 "$(grep -c '^missed -1$' $tmp/loss)"
decoded loss-missed-line-first "missed" "$(head -n 1 $tmp/loss | cut -d' ' -f1)"
decoded loss-delivered-plus-missed "$total" "$((delivered + missed))"
decoded loss-delivered-without-gap "$(seq_text loss $((missed + 1)) "$total")" "$(texts $tmp/loss)"
trace_reset
