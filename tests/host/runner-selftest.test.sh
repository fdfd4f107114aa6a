# SPDX-License-Identifier: MIT
# The test machinery itself (issue 21): fake suites, run by the real runners
# (tests/host/run.sh, tests/vm/run-guest-tests.sh on the host) with the
# real helpers (tests/results.sh), each with one fault injected, and
# tests/summary.sh with a plan must turn each run red with a line that
# names the fault; the same suites without a fault are green.
. tests/host/lib.sh
dir=$(realpath "$WORK_DIR")
suites=$dir/suites
mkdir -p "$suites" "$dir/out"

# A test program that prints result lines with stdio (fully buffered into a
# pipe or file), then, by its second argument: "segv" dies before its third,
# "early" returns 0 before it, anything else prints it and returns 0.
cat >"$dir/prog.c" <<'C'
#include <signal.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	printf("PASS: %s/one\nPASS: %s/two\n", argv[1], argv[1]);
	if (!strcmp(argv[2], "segv"))
		raise(SIGSEGV);
	if (!strcmp(argv[2], "early"))
		return 0;
	printf("PASS: %s/three\n", argv[1]);
	return 0;
}
C
check_build build-fake-program "$dir/prog" "$dir/prog.c" || exit 0

# host_suite NAME MODE: a host suite running the program in MODE through
# run_checked, run by tests/host/run.sh into $dir/NAME.results
host_suite() {
	printf '. tests/host/lib.sh\npass before\nrun_checked prog-exit %q "$SUITE" %q\npass after\n' \
		"$dir/prog" "$2" >"$suites/$1.test.sh"
	OUT_DIR=$dir/out CHECK_TIMES='' tests/host/run.sh "$suites/$1.test.sh" >"$dir/$1.results" 2>"$dir/$1.err"
}

# The guest's side on the host: a copy of its install root's tests/ with
# the real scripts, RESULT_CHANNEL a file for /dev/ttyS1.
guest=$dir/guest
mkdir -p "$guest/tests"
cp tests/results.sh tests/vm/guest-lib.sh tests/vm/run-guest-tests.sh "$guest/tests/"
# guest_suite NAME BODY: a guest suite, run by run-guest-tests.sh; its
# channel is $dir/NAME.results, as make check reads it.
guest_suite() {
	printf '. "$(dirname "$0")/guest-lib.sh"\n%s\n' "$2" >"$guest/tests/$1.test.sh"
	rm -f "$dir/$1.results"
	GUEST_PREFIX=$guest RESULT_CHANNEL=$dir/$1.results sh "$guest/tests/run-guest-tests.sh" "$1" \
		>"$dir/$1.console" 2>&1
}

# plan NAME RESULT...: the plan of case NAME, its results under NAME/
plan() {
	local name=$1
	shift
	printf "$name/%s\n" "$@" >"$dir/$name.plan"
}

# red NAME WANT_ERE: summary.sh with NAME's plan on NAME's results fails,
# and a line of its output matches WANT_ERE (the fault, named).
red() {
	local rc=0 out
	out=$(tests/summary.sh --plan "$dir/$1.plan" "$dir/$1.results") || rc=$?
	expect_eq "$1-turns-red" 1 "$rc"
	expect_match "$1-named" "$2" "$out"
}
# green NAME: the same with no fault passes.
green() {
	local rc=0 out
	out=$(tests/summary.sh --plan "$dir/$1.plan" "$dir/$1.results") || rc=$?
	expect_eq "$1-green" "0: " "$rc: $(grep -E '^(FAIL|Missing|Undeclared| )' <<<"$out" | head -n 3)"
}

# Host: a green suite; a program that segfaults halfway; one that exits 0
# early; a declared result that is no longer there; one not declared.
host_suite host-ok full
plan host-ok before one two three prog-exit after
green host-ok
host_suite host-segv segv
plan host-segv before one two three prog-exit after
red host-segv '^  FAIL: host-segv/prog-exit: exited 139 \(signal 11\)$'
expect_match host-segv-loses-results '^  host-segv/three$' "$(tests/summary.sh --plan "$dir/host-segv.plan" "$dir/host-segv.results" || true)"
host_suite host-early early
plan host-early before one two three prog-exit after
red host-early '^  host-early/three$'
host_suite host-gone full
plan host-gone before one two three prog-exit after removed-test
red host-gone '^  host-gone/removed-test$'
host_suite host-extra full
plan host-extra before one two prog-exit after
red host-extra '^Undeclared results'
expect_match host-extra-names-it '^  host-extra/three$' "$(tests/summary.sh --plan "$dir/host-extra.plan" "$dir/host-extra.results" || true)"
# A host suite that dies (set -e, a command fails) half-way.
printf '. tests/host/lib.sh\npass one\nfalse\npass two\n' >"$suites/host-dies.test.sh"
OUT_DIR=$dir/out CHECK_TIMES='' tests/host/run.sh "$suites/host-dies.test.sh" >"$dir/host-dies.results" 2>/dev/null
plan host-dies one two
red host-dies '^  FAIL: host-dies/script: exited 1$'

# Guest: a green suite, one that dies half-way (killed), kselftest programs
# whose TAP plan is not met or that exit non-zero with every test ok.
tap='printf "TAP version 13\n1..%s\nok 1 a\nok 2 b\n" "$1"; exit "$2"'
guest_suite guest-ok "pass one; run_tap prog sh -c '$tap' sh 2 0; pass two"
plan guest-ok one a b prog-plan prog-exit two
green guest-ok
guest_suite guest-dies 'pass one; kill -9 $$; pass two'
plan guest-dies one two
red guest-dies '^  FAIL: guest-dies/script: exited 137$'
guest_suite guest-tap-plan "run_tap prog sh -c '$tap' sh 3 0"
plan guest-tap-plan a b prog-plan prog-exit
red guest-tap-plan '^  FAIL: guest-tap-plan/prog-plan: TAP plan 1..3, 2 results came$'
guest_suite guest-tap-exit "run_tap prog sh -c '$tap' sh 2 1"
plan guest-tap-exit a b prog-plan prog-exit
red guest-tap-exit "^  FAIL: guest-tap-exit/prog-exit: wanted '0', got '1'$"

# Transcripts (tests/check-transcripts.sh, in a copy of the tree with one
# transcript): the same after normalising passes; a changed line fails and
# names the line it was and the one it became; nothing recorded fails.
fake=$dir/transcripts-tree
mkdir -p "$fake/tests" "$fake/docs/transcripts" "$dir/rec-same" "$dir/rec-changed" "$dir/rec-none"
cp tests/check-transcripts.sh tests/normalise-transcript.sh tests/results.sh "$fake/tests/"
echo 'echo x' >"$fake/docs/transcripts/t.sh"
echo 's/took [0-9]+ us/took <N> us/' >"$fake/docs/transcripts/t.sed"
printf 'PASS: a\nread took 12 us\nPASS: b\n' >"$fake/docs/transcripts/t.txt"
printf 'PASS: a\nread took 907 us\nPASS: b\n' >"$dir/rec-same/t.txt"
printf 'PASS: a\nread took 12 us\nFAIL: b: slow\n' >"$dir/rec-changed/t.txt"
expect_eq transcript-same 'PASS: transcripts/t' "$("$fake/tests/check-transcripts.sh" "$dir/rec-same")"
expect_match transcript-changed-named "^FAIL: transcripts/t: differs from the committed one: 'PASS: b' became 'FAIL: b: slow'; " \
	"$("$fake/tests/check-transcripts.sh" "$dir/rec-changed")"
# A line added first, another taken out further on (two hunks): the
# message names the first change only.
mkdir -p "$dir/rec-added"
seq 1 12 >"$fake/docs/transcripts/u.txt"
echo 'echo u' >"$fake/docs/transcripts/u.sh"
{ echo 1; echo added; seq 2 11; } >"$dir/rec-added/u.txt"
cp "$fake/docs/transcripts/t.txt" "$dir/rec-added/t.txt"
expect_match transcript-added-named "^FAIL: transcripts/u: differs from the committed one: \\(nothing\\) became 'added'; " \
	"$("$fake/tests/check-transcripts.sh" "$dir/rec-added")"
rm "$fake/docs/transcripts/u.sh"
expect_match transcript-none-named '^FAIL: transcripts/t: the guest recorded nothing$' \
	"$("$fake/tests/check-transcripts.sh" "$dir/rec-none")"
