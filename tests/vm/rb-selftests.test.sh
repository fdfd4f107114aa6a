#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel's ring-buffer selftests from the patched tree's
# tools/testing/selftests/ring-buffer: upstream map_test, then
# map_rules_test (kernel-patches/0004) twice in a row. tests/vm/Makefile
# builds them static as rb_<name>; every TAP line becomes a result line,
# and a non-zero exit or an unmet TAP plan is a failure (run_tap).
# map_rules_test must give the same results both times and leave the top level's buffer_size_kb,
# current_tracer and set_event as it found them (set here to values that
# are not the defaults).
. "$(dirname "$0")/guest-lib.sh"

# run_selftest NAME TAG: run rb_NAME (run_tap: its plan and exit status
# checked too), results named TAG/...; the TAP result lines are kept in
# /tmp/rb_TAG.results.
run_selftest() {
	local suite=$SUITE
	if ! command -v "rb_$1" >/dev/null; then
		fail "$2" "rb_$1 is not in $GUEST_PREFIX/bin"
		return
	fi
	SUITE=$suite/$2
	run_tap "rb_$1" "rb_$1" | tee /tmp/rb_$2.tap
	SUITE=$suite
	grep -E '^(not )?ok ' /tmp/rb_$2.tap >/tmp/rb_$2.results
	rm -f /tmp/rb_$2.tap
}

# top_state: the top-level settings map_rules_test must not change
top_state() {
	echo "buffer_size_kb=$(cat $TRACEFS/buffer_size_kb)"
	echo "current_tracer=$(cat $TRACEFS/current_tracer)"
	echo "set_event=$(cat $TRACEFS/set_event | tr '\n' ' ')"
}

trace_reset
run_selftest map_test map_test

trace_reset
echo 700 >$TRACEFS/buffer_size_kb
echo syscalls:sys_enter_getpid >$TRACEFS/set_event 2>/dev/null || true
if echo __x64_sys_getpid >$TRACEFS/set_ftrace_filter 2>/dev/null; then
	echo function >$TRACEFS/current_tracer
fi
before=$(top_state)
# The instances there before it (vm/init's vm-sched-hold).
instances_before=$(ls $TRACEFS/instances)
run_selftest map_rules_test map_rules_test
after1=$(top_state)
run_selftest map_rules_test map_rules_test-again
after2=$(top_state)
expect_eq map_rules_test-leaves-top-level "$before" "$after1"
expect_eq map_rules_test-again-leaves-top-level "$before" "$after2"
if [ -s /tmp/rb_map_rules_test.results ] &&
	cmp -s /tmp/rb_map_rules_test.results /tmp/rb_map_rules_test-again.results; then
	pass map_rules_test-same-results-twice
else
	fail map_rules_test-same-results-twice "$(diff /tmp/rb_map_rules_test.results /tmp/rb_map_rules_test-again.results | grep '^[-+][no]' | head -n 2 | tr '\n' ' ')"
fi
expect_eq map_rules_test-no-instance-left "$instances_before" "$(ls $TRACEFS/instances)"
rm -f /tmp/rb_map_rules_test*.results /tmp/rb_map_test.results

echo nop >$TRACEFS/current_tracer
echo >$TRACEFS/set_ftrace_filter 2>/dev/null || true
echo >$TRACEFS/set_event
trace_reset
