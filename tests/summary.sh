#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Count the result lines (PASS:/FAIL:/SKIP:) in the given files, print the
# failures and unexpected skips, and a closing "N passed, N failed, N skipped"
# line. Exit 1 on a failure, an unexpected skip, or no result at all.
# With --plan, the declared results (one "suite/name" a line, # comments;
# make check's is tests/expected-results): a declared result that never
# came ("Missing result") or a result not declared ("Undeclared result")
# fails the run too. With --times, first a table of the times
# tests/timed.sh recorded there: each suite and build step, its wall and
# CPU seconds ("-": not measured, as for the guest's own suites), in the
# order they ended. With --names, print the results' names, sorted, and
# nothing else (to write a plan: tests/update-plan.sh).
#   tests/summary.sh [--plan PLAN] [--times TIMES_FILE] [--names] RESULT_FILE...
set -euo pipefail
usage="usage: tests/summary.sh [--plan PLAN] [--times TIMES_FILE] [--names] RESULT_FILE..."
expected=$(dirname "$0")/expected-skips
plan='' times_file='' names_only=''
while [ $# -gt 0 ]; do
	case $1 in
	--plan) plan=${2:?$usage}; shift 2 ;;
	--times) times_file=${2:?$usage}; shift 2 ;;
	--names) names_only=1; shift ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
all=$(cat "$@" | tr -d '\r' | grep -E '^(PASS|FAIL|SKIP): ' || true)
# names: each result's name, sorted (a name given twice, twice)
names=$(sed -E 's/^(PASS|FAIL|SKIP): //; s/: .*//' <<<"$all" | sed '/^$/d' | LC_ALL=C sort)
if [ -n "$names_only" ]; then
	[ -z "$names" ] || echo "$names"
	exit 0
fi
if [ -n "$times_file" ]; then
	if [ -s "$times_file" ]; then
		echo "Time per suite and build step (wall and CPU seconds; they overlap when run in parallel):"
		printf '  %-32s %7s %7s\n' "" wall CPU
		awk -F'\t' '{ printf "  %-32s %7.1f %7s\n", $1, $2, $3 }' "$times_file"
	else
		echo "No times recorded in $times_file."
	fi
fi
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
declared=''
if [ -n "$plan" ]; then
	[ -f "$plan" ] || { echo "tests/summary.sh: no plan $plan" >&2; exit 2; }
	want=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$plan" | LC_ALL=C sort)
	declared=$(grep -c . <<<"$want" || true)
	missing=$(LC_ALL=C comm -23 <(echo "$want") <(echo "$names") | sed '/^$/d')
	extra=$(LC_ALL=C comm -13 <(echo "$want") <(echo "$names") | sed '/^$/d')
	if [ -n "$missing" ]; then
		echo "Missing results (declared in $plan, never reported: a test that did not run or died first):"
		sed 's/^/  /' <<<"$missing"
		bad=1
	fi
	if [ -n "$extra" ]; then
		echo "Undeclared results (not in $plan, or reported more often than declared):"
		sed 's/^/  /' <<<"$extra"
		bad=1
	fi
	[ -z "$missing$extra" ] ||
		echo "(A test added, renamed or removed on purpose: run tests/update-plan.sh after make check, and review its diff.)"
fi
if [ $((passed + failed)) -eq 0 ]; then
	echo "No test ran."
	bad=1
fi
echo "$passed passed, $failed failed, $skipped skipped${plan:+; $declared declared, $(grep -c . <<<"$missing" || true) missing, $(grep -c . <<<"$extra" || true) undeclared}"
exit "$bad"
