#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host half of "make bench": our decoder against libtraceevent's kbuffer
# on the sub-buffers captured in the guest (tests/host/data/): a check that
# both decode the same events, ns per event (median of several trials; a
# busy machine makes it noisy) and instructions per event under callgrind
# (stable from run to run).
#   tests/bench/decoder.sh OUT_DIR
# Writes OUT_DIR/decoder.txt: the benchmark's lines, then one line per
# decoder "callgrind decoder=NAME instructions_per_event=N".
set -euo pipefail
out=${1:?usage: tests/bench/decoder.sh OUT_DIR}
. "$(dirname "$0")/../host/lib.sh" # build_c; and the repository as the working folder
mkdir -p "$out"
REPS=200 # passes over the sub-buffers under callgrind
data=(tests/host/data/cap4k.raw 4096 tests/host/data/cap8k.raw 8192)
bin=$out/decoder_bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in valgrind; do
	command -v "$tool" >/dev/null || { echo "decoder.sh: $tool is missing (make deps)" >&2; exit 1; }
done
# The library's own flags (examples/build.mk: -O2 -g unless CFLAGS says else).
build_c "$bin" --lib tests/bench/decoder_bench.c -ltraceevent ||
	{ echo "decoder.sh: the benchmark does not build: $(head -n 3 "$bin.log")" >&2; exit 1; }

"$bin" "${data[@]}" >"$out/decoder.txt"
for impl in ours kbuffer; do
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$impl" \
		--toggle-collect="decode_$impl" "$bin" --only "$impl" --reps "$REPS" "${data[@]}" \
		>"$tmp/$impl.out" 2>"$tmp/$impl.err"
	events=$(sed -n 's/.*events=\([0-9]*\).*/\1/p' "$tmp/$impl.out")
	ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/cg.$impl")
	[ -n "$events" ] && [ -n "$ir" ] && [ "$events" -gt 0 ] ||
		{ echo "decoder.sh: callgrind run of $impl failed: $(tail -n 2 "$tmp/$impl.err")" >&2; exit 1; }
	awk -v n="$impl" -v ir="$ir" -v e="$events" \
		'BEGIN { printf "callgrind decoder=%s instructions_per_event=%.1f events=%d\n", n, ir / e, e }' \
		>>"$out/decoder.txt"
done
cat "$out/decoder.txt"
