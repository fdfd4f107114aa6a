#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host half of "make bench": our decoder against libtraceevent's kbuffer
# on the sub-buffers captured in the guest (tests/host/data/): a check that
# both decode the same events, ns per event (median of several trials; a
# busy machine makes it noisy) and instructions per event under callgrind
# (stable from run to run).
#   tests/bench/decoder.sh OUT_DIR
# Writes OUT_DIR/decoder.txt: the benchmark's lines, then one line per
# decoder "callgrind decoder=NAME instructions_per_event=N" (ours-live:
# ours on the same bytes loaded as a live, mapped page), then where they
# go in ours, one line per function: "callgrind-function decoder=NAME
# function=F ir_per_event=N" (its own instructions; decode_ours is the
# benchmark's loop that calls the decoder). OUT_DIR/callgrind.NAME.txt
# keeps callgrind_annotate's per-line output for every decoder.
set -euo pipefail
out=${1:?usage: tests/bench/decoder.sh OUT_DIR}
. "$(dirname "$0")/../host/lib.sh" # build_c; and the repository as the working folder
mkdir -p "$out"
REPS=200 # passes over the sub-buffers under callgrind
data=(tests/host/data/cap4k.raw 4096 tests/host/data/cap8k.raw 8192)
bin=$out/decoder_bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in valgrind callgrind_annotate; do
	command -v "$tool" >/dev/null || { echo "decoder.sh: $tool is missing (make deps)" >&2; exit 1; }
done
# The library's own flags (examples/build.mk: -O2 -g unless CFLAGS says else).
build_c "$bin" --lib tests/bench/decoder_bench.c -ltraceevent ||
	{ echo "decoder.sh: the benchmark does not build: $(head -n 3 "$bin.log")" >&2; exit 1; }

"$bin" "${data[@]}" >"$out/decoder.txt"
for impl in ours kbuffer ours-live; do
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$impl" \
		--toggle-collect="decode_${impl%-live}" "$bin" --only "$impl" --reps "$REPS" "${data[@]}" \
		>"$tmp/$impl.out" 2>"$tmp/$impl.err"
	events=$(sed -n 's/.*events=\([0-9]*\).*/\1/p' "$tmp/$impl.out")
	ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/cg.$impl")
	[ -n "$events" ] && [ -n "$ir" ] && [ "$events" -gt 0 ] ||
		{ echo "decoder.sh: callgrind run of $impl failed: $(tail -n 2 "$tmp/$impl.err")" >&2; exit 1; }
	awk -v n="$impl" -v ir="$ir" -v e="$events" \
		'BEGIN { printf "callgrind decoder=%s instructions_per_event=%.1f events=%d\n", n, ir / e, e }' \
		>>"$out/decoder.txt"
	callgrind_annotate --auto=yes --threshold=100 "$tmp/cg.$impl" >"$out/callgrind.$impl.txt"
	[ "$impl" = kbuffer ] && continue # Debian's library has no symbols for its inner functions
	callgrind_annotate --auto=no --threshold=100 "$tmp/cg.$impl" >"$tmp/$impl.fn"
	# "  342,400 ( 8.77%)  /path/file.c:function [/path/binary]"
	sed -n 's/^ *\([0-9,]*\) ( *[0-9.]*%) *[^ ]*:\([A-Za-z_][A-Za-z0-9_]*\) .*/\1 \2/p' "$tmp/$impl.fn" |
		awk -v n="$impl" -v e="$events" '{
			ir = $1; gsub(",", "", ir)
			printf "callgrind-function decoder=%s function=%s ir_per_event=%.2f\n", n, $2, ir / e
		}' >>"$out/decoder.txt"
done
cat "$out/decoder.txt"
