#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the libFuzzer harness for the sub-buffer decoder (subbuf_fuzz.c,
# clang with AddressSanitizer and UndefinedBehaviorSanitizer) and run it for
# a bounded time, starting from the committed corpus (tests/fuzz/corpus/:
# sub-buffers captured in the guest, tests/host/data/).
#   tests/fuzz/run.sh OUT_DIR SECONDS
# OUT_DIR gets the binary, the working corpus (the committed one plus what
# the run found; the committed one is never changed), fuzz.log and, on a
# crash, the input that caused it. Prints one line
#   fuzz: N executions in S s (E/s), corpus C inputs, no crash
# and exits 0, or names the crashing input and exits 1.
set -euo pipefail
out=${1:?usage: tests/fuzz/run.sh OUT_DIR SECONDS}
seconds=${2:?usage: tests/fuzz/run.sh OUT_DIR SECONDS}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: SECONDS must be a positive whole number, not '$seconds'" >&2; exit 2; }
. "$(dirname "$0")/../host/lib.sh" # build_c; and the repository as the working folder
command -v clang >/dev/null || { echo "fuzz: clang is missing (make deps)" >&2; exit 1; }

rm -rf "$out" && mkdir -p "$out/corpus" "$out/artifacts"
# The project's flags (examples/build.mk) with clang, the sanitizers and -O1.
if ! CC=clang CFLAGS='-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all' \
	build_c "$out/subbuf_fuzz" --lib tests/fuzz/subbuf_fuzz.c; then
	echo "fuzz: the harness does not build: $(head -n 3 "$out/subbuf_fuzz.log" | tr '\n' ' ')" >&2
	exit 1
fi
cp tests/fuzz/corpus/* "$out/corpus/"
rc=0
"$out/subbuf_fuzz" -max_total_time="$seconds" -max_len=16400 -timeout=5 -rss_limit_mb=1024 \
	-print_final_stats=1 -artifact_prefix="$out/artifacts/" "$out/corpus" >"$out/fuzz.log" 2>&1 || rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz.log")
if [ "$rc" != 0 ] || [ -z "$execs" ]; then
	crash=$(ls "$out/artifacts" | head -n 1)
	echo "fuzz: failed (exit $rc)${crash:+ on $out/artifacts/$crash}: $(grep -m1 -E 'ERROR|subbuf_fuzz:|runtime error' "$out/fuzz.log" || tail -n 1 "$out/fuzz.log")" >&2
	exit 1
fi
secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$out/fuzz.log")
secs=${secs:-$seconds}
echo "fuzz: $execs executions in $secs s ($((execs / (secs > 0 ? secs : 1)))/s), corpus $(ls "$out/corpus" | wc -l) inputs, no crash"
