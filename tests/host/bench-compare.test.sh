# SPDX-License-Identifier: MIT
# make bench-compare's host half on made-up results: report.py --compare
# turns two kernels' lines into the before/after tables and measures the
# two goals (the mapped consumer within 3x the floor at 64 KiB and up, and
# less its wall time in GET_READER, round by round; a GET_READER on a full
# sub-buffer, one the writer has left and the writer's own, within 1.5x
# the empty call at every size); the walking kernel leaves out patches the
# series lists; compare.sh refuses bad arguments.
. tests/host/lib.sh

in=$WORK_DIR/in out=$WORK_DIR/out
mkdir -p "$in/walking" "$in/patched" "$out"

# run KERNEL REP SIZE MODE CPU_MS CALL_MS: one bench-run.sh line, 1 MiB
run() {
	printf 'rep=%s part=cost size=%s rate=100000 variant=- mode=%s bad=0 bytes=1048576 produced=100 delivered=100 seq_first=0 seq_last=99 ts_span_ns=1000 wall_ns=1000000000 cpu_ns=%s000000 calls=10 subbufs=10 call_ns=%s000000 decode_ns=0 polls=1 poll_ns=0 minflt=0 max_gap_ns=0 max_poll_ns=0\n' \
		"$2" "$3" "$4" "$5" "$6" >>"$in/$1/guest.txt"
}
for rep in 1 2; do
	for size in 4 64; do
		# walking: 8 ms per MiB, half of it in GET_READER; patched: 5,
		# a fifth of it; the floor 2: ratios 4 and 2.5
		run walking "$rep" "$size" mmap 8 4
		run walking "$rep" "$size" floor 2 0
		run patched "$rep" "$size" mmap 5 1
		run patched "$rep" "$size" floor 2 0
	done
	# 128 KiB: walking 10 ms per MiB, 1 then 6 of it in GET_READER (the
	# ratio less it 4.5 then 2.0: median 3.25, one round below 3; shares
	# 10 and 60 %, overlapping the patched 20 %)
	run walking "$rep" 128 mmap 10 $((rep == 1 ? 1 : 6))
	run walking "$rep" 128 floor 2 0
	run patched "$rep" 128 mmap 5 1
	run patched "$rep" 128 floor 2 0
done
# get_reader_cost's lines: KERNEL, then "size writer events calls" each
reader() {
	local k=$1 r
	shift
	for r in 1 2; do
		echo "round=$r"
		echo "getppid_ns=200"
		printf '%s\n' "$@" | while read -r kb w ev calls; do
			echo "subbuf_kb=$kb writer=$w events=$ev read_bytes=0 median_ns=$((calls * 200)) max_ns=0 getppid_calls=$calls per_event_ns=0"
		done
	done >"$in/$k/get-reader.txt"
}
reader walking '4 on 0 100' '4 left 72 150' '64 on 0 100' '64 on 1169 650' '64 left 1170 700'
reader patched '4 on 0 100' '4 left 72 110' '64 on 0 100' '64 on 1169 660' '64 left 1170 120'

report() { /usr/bin/python3 tests/bench/report.py --compare "$in" "$out" >"$WORK_DIR/report.txt"; }
if run_checked report report; then
	expect_eq cost-64k "64 KiB,8.0 [8.0-8.0],5.0 [5.0-5.0],4.00 [4.00-4.00],2.50 [2.50-2.50],50 [50-50],20 [20-20],2.00 [2.00-2.00],2.00 [2.00-2.00]" \
		"$(tr -d '\r' <"$out/compare-cost.csv" | grep '^64 KiB')"
	expect_eq get-reader-64k-left "64 KiB,left it,1170,140.0 [140.0-140.0],700 [700-700],24.0 [24.0-24.0],120 [120-120]" \
		"$(tr -d '\r' <"$out/compare-get-reader.csv" | grep '^64 KiB,left')"
	goals=$(cat "$out/compare-goals.txt")
	expect_match goal-ratio-walking-not-met 'walking: 64 KiB 4\.00, 128 KiB 5\.00: not met at 64 KiB, 128 KiB$' "$goals"
	expect_match goal-ratio-patched-met 'patched: 64 KiB 2\.50, 128 KiB 2\.50: met$' "$goals"
	expect_match goal-less-rounds-below 'walking: 64 KiB 2\.00, 128 KiB 3\.25: median above 3 at 128 KiB; rounds at 3 or less there: 128 KiB 1 of 2$' "$goals"
	expect_match goal-less-is-wall-time 'less the wall time inside tracemap_get_reader\(\)' "$goals"
	expect_match goal-share-overlap 'median lower on the patched kernel at 4 KiB, 64 KiB, 128 KiB; the rounds. ranges overlap at 128 KiB, do not at 4 KiB, 64 KiB\.$' "$goals"
	expect_match goal-flat-walking-grows 'walking, a sub-buffer the writer has left: .*64 KiB \(1170 events\) 700 / 100 = 7\.00 \(140\.0 / 20\.0 us\): grows with the events$' "$goals"
	expect_match goal-flat-patched-independent 'patched, a sub-buffer the writer has left: .*: independent$' "$goals"
	expect_match goal-flat-own-subbuf-grows 'patched, the writer.s own sub-buffer: 64 KiB \(1169 events\) 660 / 100 = 6\.60 \(132\.0 / 20\.0 us\): grows with the events$' "$goals"
	expect_match goal-flat-verdict-left '^  For a sub-buffer the writer has left: met on the patched kernel\.$' "$goals"
	expect_match goal-flat-verdict-own '^  For the writer.s own sub-buffer: not met on either kernel\.$' "$goals"
fi

# The walking kernel's dropped patches are in the series, and it keeps
# every other one.
dropped=$(vm/walking-kernel.sh --dropped)
expect_eq walking-drops-listed-patches "$dropped" "$(vm/kernel.sh --series | grep -xF "$dropped")"

rc=0
err=$(tests/bench/compare.sh "$WORK_DIR/x" /nonexistent 0 '4' 15 2>&1) || rc=$?
expect_eq compare-bad-reps-fails "1 compare.sh: error: REPS '0' is not a positive number" "$rc $err"

# The committed tables are what report.py makes of the committed raw lines
# (a change to report.py regenerates them, as compare.sh's caller does),
# and the guide's sentence on the share inside GET_READER names the sizes
# where the goal lines find the two kernels' ranges apart.
perf=docs/ringbuffer/perf committed=$WORK_DIR/committed
for k in walking patched; do
	mkdir -p "$committed/in/$k"
	cp "$perf/compare-$k.txt" "$committed/in/$k/guest.txt"
	cp "$perf/compare-get-reader-$k.txt" "$committed/in/$k/get-reader.txt"
done
/usr/bin/python3 tests/bench/report.py --compare "$committed/in" "$committed/out" >/dev/null
stale=
for f in compare-cost.csv compare-get-reader.csv compare-goals.txt compare.txt; do
	cmp -s "$perf/$f" "$committed/out/$f" || stale+=" $f"
done
expect_eq committed-tables-current "" "$stale"
apart=$(sed -n 's/.*ranges overlap at .*, do not at \(.*\)\.$/\1/p' "$perf/compare-goals.txt")
expect_match guide-share-sentence "overlap at every size but ${apart:-NONE} " \
	"$(tr -s '\n ' '  ' <docs/ringbuffer/performance.rst)"
