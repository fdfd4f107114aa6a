#!/bin/sh
# SPDX-License-Identifier: MIT
# Every event accounted for: the sequenced producer (examples/modules/seq_producer)
# writes N numbered events as fast as it can into a small buffer while a
# slow consumer (seq_consume) reads it on the other CPU, so events are lost.
#  - overwrite mode, sub-buffers of 4 to 64 KiB, both CPUs, through the
#    mapping: delivered + the missed counts the library reports = N
#    exactly, each gap in the sequence is the count reported before it, and
#    the meta-page's reader.lost_events (kernel-patches/0001) agrees (0
#    on a kernel without our series: tests/check-debian-kernels.sh);
#    read() and splice() at 4 KiB too, where a loss may be "unknown" only
#    on a sub-buffer with no room left for the kernel to store its count;
#  - a payload size that fills a 4 KiB sub-buffer to the byte, leaving no
#    room to store the count: the library takes it from the meta-page
#    (kernel-patches/0001) and never says "unknown" (without the patch
#    the meta-page has no count and the library must say "unknown");
#  - producer/consumer mode (options/overwrite=0): delivered + the
#    "dropped events" of per_cpu/cpuN/stats = N, no sub-buffer reports a
#    loss (the kernel drops new events and says so only in stats), and the
#    library reports the drops from stats: delivered + reported = N;
#  - trace_stream, in both modes: delivered + the counts of its "missed"
#    lines = N, no count unknown.
# SEQ_CONSUME names the consumer and ACCOUNTING_MODES the ways it reads
# (tracemap-m32.test.sh: the 32-bit build, read and splice only, without
# trace_stream).
. "$(dirname "$0")/guest-lib.sh"
SEQ_CONSUME=${SEQ_CONSUME:-seq_consume}
ACCOUNTING_MODES=${ACCOUNTING_MODES:-mmap read splice}

# mode_on MODE: is MODE in ACCOUNTING_MODES?
mode_on() { case " $ACCOUNTING_MODES " in *" $1 "*) true ;; *) false ;; esac; }

N=${ACCOUNTING_EVENTS:-30000}
SIZE=36 # payload bytes: 64-byte records, 48 bytes left in every sub-buffer size
OUT=/tmp/accounting.out

# val KEY: a value of seq_consume's result line in $OUT
# (-1 when the line lacks it: an older consumer)
val() {
	local v
	v=$(sed -n "s/.* $1=\([0-9]*\).*/\1/p" $OUT)
	echo "${v:--1}"
}

# setup SUBBUF_KB OVERWRITE: 4 sub-buffers of that size, the event on
setup() {
	trace_reset
	echo 0 >$TRACEFS/tracing_on
	echo "$1" >$TRACEFS/buffer_subbuf_size_kb
	echo $(($1 * 4)) >$TRACEFS/buffer_size_kb
	echo "$2" >$TRACEFS/options/overwrite
	echo >$TRACEFS/trace
	echo 1 >$TRACEFS/events/seq_producer/seq_event/enable
	echo 1 >$TRACEFS/tracing_on
}

# consume NAME MODE CPU PAYLOAD [ARG]: one run of N events (ARG: one more
# argument of the consumer's), consumed by a
# consumer that sleeps after each sub-buffer, 250 us for each KiB of the
# sub-buffer size the kernel gave (at least a page: 64 KiB sub-buffers on
# 64 KiB pages, whatever was asked), so that it falls behind at every size;
# false (and a FAIL) when the consumer failed.
consume() {
	seq_configure "$3" "$N" "$4" 0
	if ! $SEQ_CONSUME --mode "$2" --cpu "$3" --start --slow-us $((250 * $(subbuf_bytes) / 1024)) ${5:-} >$OUT 2>/tmp/accounting.err; then
		fail "$1" "seq_consume: $(cat /tmp/accounting.err)"
		return 1
	fi
	echo "$1: $(cat $OUT)"
	expect_eq "$1/produced" "$N" "$(val produced)"
	expect_eq "$1/in-order" 0 "$(val bad)"
}

# overwrite NAME MODE CPU SUBBUF_KB
overwrite() {
	local d m
	setup "$4" 1
	consume "$1" "$2" "$3" $SIZE || return 0
	d=$(val delivered) m=$(val missed)
	expect_ge "$1/events-lost" 1 "$m" "no loss: the test proves nothing"
	if [ "$2" = mmap ]; then
		expect_eq "$1/delivered-plus-missed" "$N" $((d + m))
		expect_eq "$1/count-known" 0 "$(val unknown)"
		expect_eq "$1/each-gap-as-reported" "$(val gaps)" "$(val matched)"
	else
		# read() and splice() get the count only where the kernel could
		# store it: after the sub-buffer's events, when a long still fits
		# (ring_buffer_read_page(), RB_MISSED_STORED). 48 bytes are free
		# at SIZE unless time extends or other records fill them; a loss
		# on a full sub-buffer is "unknown", and its gap is counted apart.
		expect_eq "$1/delivered-plus-missed" "$N" $((d + m + $(val unknown_events)))
		expect_eq "$1/count-known" 0 "$(val unknown_room)"
		expect_eq "$1/each-gap-as-reported" "$(val gaps)" $(($(val matched) + $(val unknown_gaps)))
	fi
	expect_eq "$1/nothing-missing-at-end" 0 "$(val trailing)"
	if [ "$2" = mmap ]; then
		# reader.lost_events: set only by kernel-patches/0001.
		if patched; then
			expect_eq "$1/meta-page-lost-events" "$m" "$(val meta_lost)"
		else
			expect_eq "$1/meta-page-lost-events" 0 "$(val meta_lost)"
		fi
	fi
}

# A kernel that cannot map the ring buffer (Debian's 6.1): the mapping's
# modes are not run (one SKIP says so); trace_stream is, through its read()
# fallback.
STREAM=''
mode_on mmap && STREAM=1
if mode_on mmap && ! can_map; then
	ACCOUNTING_MODES=$(echo " $ACCOUNTING_MODES " | sed 's/ mmap / /; s/^ //; s/ $//')
	skip mmap "$NO_MAP_WHY: the mapping's accounting not run, read() and splice() and trace_stream's are"
fi

if ! seq_load; then
	fail load "insmod $SEQ_MODULE failed"
	exit 0
fi
for cpu in 0 1; do
	for kb in 4 8 16 32 64; do
		! mode_on mmap || overwrite "overwrite-mmap-${kb}k-cpu$cpu" mmap $cpu $kb
	done
done
! mode_on read || overwrite overwrite-read-4k-cpu1 read 1 4
! mode_on splice || overwrite overwrite-splice-4k-cpu1 splice 1 4

# A consumer that keeps up with a rate-limited producer gets every event,
# the last ones included (the mapping needs a second GET_READER after one
# that only moved reader.read; examples/lib/tracemap.c does that).
for mode in $ACCOUNTING_MODES; do
	setup 4 1
	echo "$TRACE_BUFFER_KB" >$TRACEFS/buffer_size_kb
	name=keeps-up-$mode-4k-cpu0
	seq_configure 0 20000 $SIZE 40000
	if $SEQ_CONSUME --mode $mode --cpu 0 --start >$OUT 2>/tmp/accounting.err; then
		echo "$name: $(cat $OUT)"
		expect_eq $name/all-delivered "20000 0 0" "$(val delivered) $(val trailing) $(val bad)"
	else
		fail $name "seq_consume: $(cat /tmp/accounting.err)"
	fi
done

# Records that fill the sub-buffer's data exactly: no room for the count
# in the sub-buffer; kernel-patches/0001's meta-page has it.
fill=$(full_subbuf)
fill_kb=${fill% *} fill_payload=${fill#* }
echo "full-subbuf-count: $fill_kb KiB sub-buffers, payload $fill_payload"
setup "$fill_kb" 1
# --gaps: each gap and each loss report into the guest's console, to set
# beside its kernel log (tests/check-debian-kernels.sh keeps both).
if mode_on mmap && ! patched; then
	# (a consumer that failed is one FAIL, from consume)
	if consume full-subbuf-count mmap 1 "$fill_payload" --gaps; then
		sed -n 's/^\(gap\|unknown\): /full-subbuf-count: \1: /p' /tmp/accounting.err
		# No count in the sub-buffer, none in the meta-page (no
		# kernel-patches/0001): the loss is known to be there, its
		# size is not.
		expect_eq full-subbuf-count/meta-page-has-none 0 "$(val meta_lost)"
		# Every gap is the count reported before it, or a loss said to
		# be of unknown size: never a wrong number.
		expect_eq full-subbuf-count/each-gap-counted-or-unknown "$(val gaps)" $(($(val matched) + $(val unknown_gaps)))
		# and every report of unknown size had its gap (none cancels a
		# wrong count)
		expect_eq full-subbuf-count/unknown-each-a-gap "$(val unknown)" "$(val unknown_gaps)"
		# The first such loss is of unknown size: the library counts
		# only between two swaps whose meta-page overrun
		# per_cpu/cpuN/stats confirmed just before the GET_READER, and
		# reads that file only once such a loss was seen (subbuf_loss(),
		# examples/lib/tracemap.c).
		expect_ge full-subbuf-count/said-unknown 1 "$(val unknown)" "no loss said to be of unknown size"
	fi
elif mode_on mmap && consume full-subbuf-count mmap 1 "$fill_payload"; then
	[ "$(val missed_meta)" -gt 0 ] && pass full-subbuf-count/counted-from-meta-page ||
		fail full-subbuf-count/counted-from-meta-page "no loss counted from the meta-page: the test proves nothing"
	expect_eq full-subbuf-count/never-unknown 0 "$(val unknown)"
	expect_eq full-subbuf-count/delivered-plus-missed "$N" $(($(val delivered) + $(val missed)))
	expect_eq full-subbuf-count/each-gap-as-reported "$(val gaps)" "$(val matched)"
	expect_eq full-subbuf-count/meta-page-has-it "$(val gap_events)" "$(val meta_lost)"
fi
# The same records through read(): the kernel has no room to store a count,
# so a loss is "unknown" (never on a sub-buffer with room), and the gaps
# after such losses hold every event neither delivered nor counted.
if mode_on read; then
	setup "$fill_kb" 1
	if consume full-subbuf-read read 1 "$fill_payload"; then
		expect_ge full-subbuf-read/said-unknown 1 "$(val unknown)" "no loss without a count: the test proves nothing"
		expect_eq full-subbuf-read/no-unknown-with-room 0 "$(val unknown_room)"
		expect_eq full-subbuf-read/delivered-plus-missed "$N" $(($(val delivered) + $(val missed) + $(val unknown_events)))
		expect_eq full-subbuf-read/each-gap-as-reported "$(val gaps)" $(($(val matched) + $(val unknown_gaps)))
	fi
fi

# Producer/consumer mode: new events are dropped, only stats says so, and
# the library reports them from there.
for cpu in 0 1; do
	for kb in 4 16 64; do
		mode_on mmap || continue
		name=no-overwrite-mmap-${kb}k-cpu$cpu
		setup $kb 0
		consume $name mmap $cpu $SIZE || continue
		dropped=$(sed -n 's/^dropped events: //p' $TRACEFS/per_cpu/cpu$cpu/stats)
		expect_ge $name/events-dropped 1 "$dropped" "none dropped: the test proves nothing"
		expect_eq $name/delivered-plus-dropped "$N" $(($(val delivered) + dropped))
		expect_eq $name/delivered-plus-reported "$N" $(($(val delivered) + $(val dropped)))
		expect_eq $name/pages-report-no-loss "0 0" "$(val missed) $(val unknown)"
		expect_eq $name/gaps-are-the-dropped "$dropped" $(($(val gap_events) + $(val trailing)))
	done
done

# trace_stream (on CPU 1) reports every loss on CPU 0 with its count:
# overwritten events from the sub-buffers or the meta-page, dropped ones
# (overwrite off) from per_cpu/cpu0/stats.
for name in trace-stream-overwrite-1 trace-stream-overwrite-0; do
	[ -n "$STREAM" ] || break
	ow=${name##*-}
	setup 4 "$ow"
	seq_configure 0 "$N" $SIZE 0
	taskset 2 trace_stream --cpu 0 --interval 50 >$OUT 2>/tmp/accounting.err &
	seq_stream_run $name $! $OUT 300
	expect_eq $name/exit "0 " "$rc $(errors /tmp/accounting.err)"
	expect_ge $name/events-lost 1 "$missed" "no loss: the test proves nothing"
	expect_eq $name/delivered-plus-missed "$N" $((delivered + missed))
	expect_eq $name/count-known 0 "$(awk '$3 == "missed" && $4 == "unknown"' $OUT | wc -l)"
done

rmmod seq_producer
trace_reset
rm -f $OUT /tmp/accounting.err
