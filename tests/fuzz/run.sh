#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the libFuzzer harnesses of tests/fuzz/ (clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, -O2) and run each for a bounded time, starting
# from its committed corpus (tests/fuzz/corpus/NAME/):
#   subbuf       the sub-buffer decoder (subbuf_fuzz.c)
#   format       the format-file and header_page parsers and the payload
#                formatter (format_fuzz.c)
#   formats_dir  a directory of format files, loaded and indexed as
#                trace_stream --offline loads one (formats_dir_fuzz.c)
#   tests/fuzz/run.sh OUT_DIR SECONDS [NAME...]
# SECONDS is the total: with all three it is split 3:2:1 (30 s: 15 s,
# 10 s, 5 s), with some of them in the same proportions, with one it is
# all its own. OUT_DIR/NAME gets the binary, the working corpus (the
# committed one plus what the run found; the committed one is never
# changed), fuzz.log and, on a crash, the input that caused it. Prints one
# line per harness
#   fuzz NAME: N executions in S s (E/s), corpus C inputs, no crash
# and exits 0, or names each crashing input and exits 1. FUZZ_RUNS=N in the
# environment stops each harness after N inputs, if its time is not up
# first (a long run of a set size on a busy machine).
set -euo pipefail
usage="usage: tests/fuzz/run.sh OUT_DIR SECONDS [subbuf|format|formats_dir...]"
out=${1:?$usage}
seconds=${2:?$usage}
shift 2
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: SECONDS must be a positive whole number, not '$seconds'" >&2; exit 2; }
runs=${FUZZ_RUNS:--1}
[[ $runs =~ ^(-1|[1-9][0-9]*)$ ]] || { echo "fuzz: FUZZ_RUNS must be a positive whole number, not '$runs'" >&2; exit 2; }
. "$(dirname "$0")/../host/lib.sh" # build_c; and the repository as the working folder
command -v clang >/dev/null || { echo "fuzz: clang is missing (make deps)" >&2; exit 1; }

# name: share of SECONDS, largest input (-max_len: two 4 KiB sub-buffers;
# a format file with its payload)
declare -A weight=([subbuf]=3 [format]=2 [formats_dir]=1)
declare -A max_len=([subbuf]=8192 [format]=4096 [formats_dir]=4096)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(subbuf format formats_dir)
total=0
for n in "${names[@]}"; do
	[ -n "${weight[$n]:-}" ] || { echo "fuzz: no harness '$n' ($usage)" >&2; exit 2; }
	total=$((total + weight[$n]))
done

rm -rf "$out" && mkdir -p "$out"
# formats_dir_fuzz writes its files in TMPDIR: in memory where there is a
# tmpfs (about five times as fast as ext4 here)
tmp=$(mktemp -d "$( [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The project's flags (examples/build.mk) with clang, the sanitizers and
# -O2; the library's archive for these flags is built once (build_c --lib).
# Without libFuzzer's hooks on every comparison (trace-cmp) the decoder's
# harness runs about twice as fast and reaches the same coverage; the
# hooks on strcmp() and memcmp() the parsers use stay.
build() {
	CC=clang CFLAGS='-g -O2 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-sanitize-coverage=trace-cmp' \
		build_c "$@"
}
status=0
for n in "${names[@]}"; do
	dir=$out/$n
	secs=$((seconds * weight[$n] / total))
	secs=$((secs > 0 ? secs : 1))
	mkdir -p "$dir/corpus" "$dir/artifacts"
	if ! build "$dir/${n}_fuzz" --lib "tests/fuzz/${n}_fuzz.c"; then
		echo "fuzz $n: the harness does not build: $(head -n 3 "$dir/${n}_fuzz.log" | tr '\n' ' ')" >&2
		status=1
		continue
	fi
	cp tests/fuzz/corpus/"$n"/* "$dir/corpus/"
	rc=0
	TMPDIR=$tmp "$dir/${n}_fuzz" -max_total_time="$secs" -runs="$runs" -max_len="${max_len[$n]}" -timeout=5 -rss_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/fuzz.log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/fuzz.log")
	if [ "$rc" != 0 ] || [ -z "$execs" ]; then
		crash=$(ls "$dir/artifacts" | head -n 1)
		echo "fuzz $n: failed (exit $rc)${crash:+ on $dir/artifacts/$crash}: $(grep -m1 -E 'ERROR|_fuzz:|runtime error' "$dir/fuzz.log" || tail -n 1 "$dir/fuzz.log")" >&2
		status=1
		continue
	fi
	took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$dir/fuzz.log")
	took=${took:-$secs}
	echo "fuzz $n: $execs executions in $took s ($((execs / (took > 0 ? took : 1)))/s), corpus $(ls "$dir/corpus" | wc -l) inputs, no crash"
done
exit $status
