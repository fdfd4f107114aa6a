# SPDX-License-Identifier: MIT
# trace.dat output (examples/lib/tracedat.c) judged by Debian's trace-cmd: the
# host captures (tests/host/data) converted with trace2dat, then
# "trace-cmd report -R -t" must show the same events, timestamps, field
# values and losses as trace_stream --offline prints for the same bytes
# (tests/host/tracedat_compare.py). Bad captures: one line, exit 1.
. tests/host/lib.sh
data=tests/host/data
if ! command -v trace-cmd >/dev/null; then
	fail trace-cmd "trace-cmd is not installed (make deps)"
	exit 0
fi
build_examples build-trace2dat trace2dat || exit 0
build_examples build-trace_stream trace_stream || exit 0

# same NAME SUBBUF_SIZE OUR_CPU CAPTURE...: convert, report, compare CPU OUR_CPU.
same() {
	local name=$1 size=$2 cpu=$3 capture out why
	shift 3
	capture=${!#}
	out=$WORK_DIR/$name
	if ! why=$("$EXAMPLES/trace2dat" "$data" "$size" "$out.dat" "$@" 2>&1); then
		fail "$name" "trace2dat: $why"
		return
	fi
	if ! trace-cmd report -R -t "$out.dat" >"$out.tc" 2>"$out.tc.err"; then
		fail "$name" "trace-cmd report: $(tail -n 2 "$out.tc.err")"
		return
	fi
	"$EXAMPLES/trace_stream" --offline "$capture" --subbuf-size "$size" --cpu "$cpu" \
		--tracefs "$data" >"$out.ours" 2>"$out.ours.err" || true
	if why=$(python3 tests/host/tracedat_compare.py "$out.ours" "$out.tc"); then
		pass "$name"
	else
		fail "$name" "$why"
	fi
}

# 4 KiB sub-buffers, 1696 events overwritten: trace-cmd must say so.
same cap4k-losses 4096 0 "$data/cap4k.raw"
expect_eq cap4k-drop-line "CPU:0 [1696 EVENTS DROPPED]" \
	"$(grep -m1 'EVENTS DROPPED' "$WORK_DIR/cap4k-losses.tc" || true)"
# 8 KiB sub-buffers: the file's page_size is the sub-buffer size.
same cap8k-large-subbufs 8192 0 "$data/cap8k.raw"
# CPUs 0 and 1 without data, the capture as CPU 2: three CPUs in the file.
same empty-cpus 4096 2 - - "$data/cap4k.raw"
expect_eq empty-cpus-count "cpus=3" "$(head -n 1 "$WORK_DIR/empty-cpus.tc")"

# trace_stream --offline --output: the same file as trace2dat writes.
"$EXAMPLES/trace_stream" --offline "$data/cap4k.raw" --tracefs "$data" \
	--output "$WORK_DIR/stream.dat" >/dev/null 2>&1 || true
if cmp -s "$WORK_DIR/stream.dat" "$WORK_DIR/cap4k-losses.dat"; then
	pass stream-offline-output
else
	fail stream-offline-output "trace_stream --offline --output did not write what trace2dat wrote"
fi

# The comparison can fail: one payload changed in trace-cmd's text.
sed 's/buf=capture 1800$/buf=capture 1801/' "$WORK_DIR/cap4k-losses.tc" >"$WORK_DIR/changed.tc"
if why=$(python3 tests/host/tracedat_compare.py "$WORK_DIR/cap4k-losses.ours" "$WORK_DIR/changed.tc"); then
	fail compare-detects-change "a changed payload compared equal: $why"
else
	expect_eq compare-detects-change "cpu0 item 104 (ftrace/print): text 'capture 1800' vs 'capture 1801'" "$why"
fi

# Bad input: one line naming the problem, exit 1, no file left behind.
# bad NAME WANT_SUBSTRING ARGS...
bad() {
	local name=$1 want=$2 rc=0 out
	shift 2
	rm -f "$WORK_DIR/bad.dat"
	out=$("$EXAMPLES/trace2dat" "$@" 2>&1) || rc=$?
	if [ "$rc" = 1 ] && [ "$(echo "$out" | wc -l)" = 1 ] && [[ $out == *"$want"* ]] &&
		[ ! -e "$WORK_DIR/bad.dat" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, output: $out"
	fi
}
head -c 6000 "$data/cap4k.raw" >"$WORK_DIR/partial.raw"
bad partial-capture "ends with 1904 bytes, not a whole sub-buffer of 4096" \
	"$data" 4096 "$WORK_DIR/bad.dat" "$WORK_DIR/partial.raw"
# commit past the end of the sub-buffer (bytes 8..11 = 0x3fff)
{ head -c 8 "$data/cap4k.raw"; printf '\377\77\0\0'; tail -c +13 "$data/cap4k.raw"; } >"$WORK_DIR/commit.raw"
bad bad-commit "commit or record that cannot be right" \
	"$data" 4096 "$WORK_DIR/bad.dat" "$WORK_DIR/commit.raw"
bad no-header-page "events/header_page" "$WORK_DIR" 4096 "$WORK_DIR/bad.dat" "$data/cap4k.raw"
bad not-power-of-two "not a power of two" "$data" 6144 "$WORK_DIR/bad.dat" "$data/cap4k.raw"
