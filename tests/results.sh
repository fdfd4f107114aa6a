# SPDX-License-Identifier: MIT
# The result lines of every test, on the host and in the guest (POSIX sh, for
# bash and busybox sh alike): "PASS: suite/name", "FAIL: suite/name: why",
# "SKIP: suite/name: why", which tests/summary.sh counts. Sourced by
# tests/host/lib.sh and tests/vm/guest-lib.sh; do not run it.
#   SUITE           the suite, the first part of every name
#   RESULT_CHANNEL  when set, a second place each line goes (in the guest,
#                   the status channel the host reads)

# result PASS|FAIL|SKIP NAME [WHY]: one line; WHY's line breaks become spaces.
result() {
	set -- "$1" "$2" "$(printf '%s' "${3:-}" | tr '\n' ' ')"
	echo "$1: $SUITE/$2${3:+: $3}"
	[ -z "${RESULT_CHANNEL:-}" ] || echo "$1: $SUITE/$2${3:+: $3}" >"$RESULT_CHANNEL"
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
