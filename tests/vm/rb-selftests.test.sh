#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel's ring-buffer selftests from the patched tree's
# tools/testing/selftests/ring-buffer: upstream map_test and map_rules_test
# (kernel-patches/). tests/vm/Makefile builds them static as rb_<name>;
# every TAP line becomes a result line, and a non-zero exit is a failure.
. "$(dirname "$0")/guest-lib.sh"

for t in map_test map_rules_test; do
	if ! command -v "rb_$t" >/dev/null; then
		fail "$t" "rb_$t is not in $GUEST_PREFIX/bin"
		continue
	fi
	trace_reset
	rc=0
	"rb_$t" >/tmp/rb_$t.tap 2>&1 || rc=$?
	tap_results </tmp/rb_$t.tap
	expect_eq "$t-exit-status" 0 "$rc"
	rm -f /tmp/rb_$t.tap
done
trace_reset
