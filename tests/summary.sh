#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Count the result lines (PASS:/FAIL:/SKIP:) in the given files, print the
# failures and unexpected skips, and a closing "N passed, N failed, N skipped"
# line. Exit 1 on a failure, an unexpected skip, or no result at all.
# With --times, first a table of the times tests/timed.sh recorded there:
# each suite and build step, its wall and CPU seconds ("-": not measured,
# as for the guest's own suites), in the order they ended.
#   tests/summary.sh [--times TIMES_FILE] RESULT_FILE...
set -euo pipefail
expected=$(dirname "$0")/expected-skips
if [ "${1:-}" = --times ]; then
	times_file=${2:?usage: tests/summary.sh [--times TIMES_FILE] RESULT_FILE...}
	shift 2
	if [ -s "$times_file" ]; then
		echo "Time per suite and build step (wall and CPU seconds; they overlap when run in parallel):"
		printf '  %-32s %7s %7s\n' "" wall CPU
		awk -F'\t' '{ printf "  %-32s %7.1f %7s\n", $1, $2, $3 }' "$times_file"
	else
		echo "No times recorded in $times_file."
	fi
fi
all=$(cat "$@" | tr -d '\r' | grep -E '^(PASS|FAIL|SKIP): ' || true)
passed=$(grep -c '^PASS: ' <<<"$all" || true)
failed=$(grep -c '^FAIL: ' <<<"$all" || true)
skipped=$(grep -c '^SKIP: ' <<<"$all" || true)
bad=0
if [ "$failed" -gt 0 ]; then
	echo "Failures:"
	grep '^FAIL: ' <<<"$all" | sed 's/^/  /'
	bad=1
fi
while IFS= read -r line; do
	[ -n "$line" ] || continue
	name=${line#SKIP: }
	name=${name%%: *}
	if ! grep -qxF "$name" "$expected" 2>/dev/null; then
		echo "Unexpected skip (not in tests/expected-skips): $line"
		bad=1
	fi
done < <(grep '^SKIP: ' <<<"$all" || true)
if [ $((passed + failed)) -eq 0 ]; then
	echo "No test ran."
	bad=1
fi
echo "$passed passed, $failed failed, $skipped skipped"
exit "$bad"
