# SPDX-License-Identifier: MIT
# The result lines of every test, on the host and in the guest (POSIX sh, for
# bash and busybox sh alike): "PASS: suite/name", "FAIL: suite/name: why",
# "SKIP: suite/name: why", which tests/summary.sh counts. Sourced by
# tests/host/lib.sh and tests/vm/guest-lib.sh; do not run it. Every result
# name is declared in tests/expected-results: make check fails on a declared
# result that never came and on one that was not declared (tests/summary.sh).
#   SUITE           the suite, the first part of every name
#   RESULT_CHANNEL  when set, a second place each line goes (in the guest,
#                   the status channel the host reads)

# result PASS|FAIL|SKIP NAME [WHY]: one line; WHY's line breaks become spaces.
result() {
	set -- "$1" "$2" "$(printf '%s' "${3:-}" | tr '\n' ' ')"
	echo "$1: $SUITE/$2${3:+: $3}"
	[ -z "${RESULT_CHANNEL:-}" ] || echo "$1: $SUITE/$2${3:+: $3}" >>"$RESULT_CHANNEL"
}
pass() { result PASS "$1"; }
fail() { result FAIL "$1" "${2:-}"; }
skip() { result SKIP "$1" "${2:-}"; }

# check NAME CMD...: PASS when CMD succeeds, FAIL with its last lines otherwise.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(echo "$out" | tail -n 3)"
	fi
}

# expect_eq NAME WANT GOT
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "wanted '$2', got '$3'"; fi
}

# check_fails NAME CMD...: PASS when CMD fails (a refusal that is the test).
check_fails() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		fail "$name" "succeeded: $(echo "$out" | tail -n 1)"
	else
		pass "$name"
	fi
}

# expect_ge NAME LEAST GOT [WHY]: PASS when the integer GOT >= LEAST.
expect_ge() {
	if [ "$3" -ge "$2" ] 2>/dev/null; then
		pass "$1"
	else
		fail "$1" "wanted at least $2, got '$3'${4:+: $4}"
	fi
}

# expect_match NAME ERE TEXT: PASS when TEXT has a line matching ERE. (A
# here-document, not a pipe: grep -q ends at the first match, and under
# pipefail the writer's SIGPIPE would fail the test.)
expect_match() {
	if grep -qE -- "$2" <<EOF
$3
EOF
	then
		pass "$1"
	else
		fail "$1" "no line matches '$2' in '$(printf '%s' "$3" | head -c 200)'"
	fi
}

# run_checked NAME CMD...: run a test program that prints its own result lines
# (they pass through as they come); then NAME passes if it exited 0, and
# fails naming the status otherwise. A program that dies early loses the
# results it had not printed: they are missing, which fails the run too.
run_checked() {
	local name=$1 rc=0
	shift
	"$@" || rc=$?
	if [ "$rc" = 0 ]; then
		pass "$name"
	elif [ "$rc" -gt 128 ]; then
		fail "$name" "exited $rc (signal $((rc - 128)))"
	else
		fail "$name" "exited $rc"
	fi
}

# tap_results [NAME]: turn kselftest TAP on stdin into result lines (and
# echo it); with NAME, then NAME-plan: the "1..N" plan against the number
# of ok/not ok lines that came.
tap_results() {
	local line name plan='' n=0
	while IFS= read -r line; do
		echo "$line"
		case $line in
		1..*) plan=${line#1..} ;;
		"ok "*"# SKIP"*) n=$((n + 1)); name=${line#ok [0-9]* }; skip "${name%% # SKIP*}" "${name#* # SKIP}" ;;
		"not ok "*) n=$((n + 1)); name=${line#not ok [0-9]* }; fail "$name" "see console" ;;
		"ok "*) n=$((n + 1)); name=${line#ok [0-9]* }; pass "$name" ;;
		esac
	done
	[ -n "${1:-}" ] || return 0
	if [ "$plan" = "$n" ]; then
		pass "$1-plan"
	else
		fail "$1-plan" "TAP plan 1..${plan:-(none)}, $n results came"
	fi
}

# run_tap NAME CMD...: run a kselftest program (stderr too) through
# tap_results NAME, then NAME-exit: its exit status, 0 wanted.
run_tap() {
	local name=$1 st
	shift
	st=$(mktemp)
	{
		rc=0
		"$@" 2>&1 || rc=$?
		echo "$rc" >"$st"
	} | tap_results "$name"
	expect_eq "$name-exit" 0 "$(cat "$st")"
	rm -f "$st"
}
