#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest side of "make check-labs", on what labs/build-all.sh built into
# BUILT_DIR. For each lab named:
#  - the solution: every step must pass (its lines are the lab's results);
#  - the skeleton: some step must fail ("labs/LAB/skeleton-fails");
#  - each mutant-NAME: the check must fail, and its first failure must be the
#    step and message its want file names ("labs/LAB/mutant-NAME"); a
#    mutant that passes every step is a FAIL.
# At the end, the tracefs settings must be what they were before. Each lab's
# wall time goes to the status channel as "TIME: labs/LAB SECONDS".
# With LAB_CLAIMS set to a folder that several guests see, each lab is
# checked by the guest that first makes LAB_CLAIMS/LAB, so that guests
# given the same list share the labs between them.
#   [LAB_CLAIMS=DIR] sh check-all.sh LABS_DIR BUILT_DIR LAB...
. "$(dirname "$0")/check-helpers.sh"
labs=$1 built=$2
shift 2
# settings: what the checks change: buffer_percent, buffer_size_kb (before
# the first use of the buffer the kernel shows "7 (expanded: 1408)": the
# size it will have), buffer_subbuf_size_kb, overwrite and trace_clock (the
# one in brackets).
settings() {
	echo "buffer_percent $(cat $TRACEFS/buffer_percent)" \
		"buffer_size_kb $(sed 's/.*expanded: \([0-9]*\).*/\1/' $TRACEFS/buffer_size_kb)" \
		"buffer_subbuf_size_kb $(cat $TRACEFS/buffer_subbuf_size_kb)" \
		"overwrite $(cat $TRACEFS/options/overwrite)" \
		"trace_clock $(sed 's/.*\[\(.*\)\].*/\1/' $TRACEFS/trace_clock)"
}
lab_defaults
before=$(settings)

# quiet_check LAB DIR: the lab's check on DIR, stopped at its first failure,
# its result lines not on the status channel; prints them.
quiet_check() {
	SUITE=labs/$1 LAB_FIRST_FAIL=1 LAB_NO_CHANNEL=1 timeout 300 sh "$labs/$1/check.sh" "$2" 2>&1
}

for lab in "$@"; do
	[ -z "${LAB_CLAIMS:-}" ] || mkdir "$LAB_CLAIMS/$lab" 2>/dev/null || continue
	start=$(uptime_s)
	echo "=== lab $lab: solution"
	SUITE=labs/$lab timeout 300 sh "$labs/$lab/check.sh" "$built/$lab/solution" ||
		result FAIL "labs/$lab/check" "check.sh exited $?"
	SUITE=labs/$lab
	echo "=== lab $lab: skeleton"
	out=$(quiet_check "$lab" "$built/$lab/skeleton")
	echo "$out"
	if echo "$out" | grep -q "^FAIL: labs/$lab/step-"; then
		pass skeleton-fails
	else
		fail skeleton-fails "every step passed on the generated skeleton: a check that cannot fail"
	fi
	for m in "$built/$lab"/mutant-*/; do
		[ -f "$m/want" ] || continue
		name=$(basename "$m")
		want=$(cat "$m/want")
		echo "=== lab $lab: $name (want $want)"
		out=$(quiet_check "$lab" "$m")
		echo "$out"
		got=$(echo "$out" | grep -m 1 "^FAIL: labs/$lab/" | sed "s#^FAIL: labs/$lab/##")
		if [ -z "$got" ]; then
			fail "$name" "every step passed: the check does not catch this mistake"
		elif echo "$got" | grep -qE "^${want%%: *}: .*${want#*: }"; then
			pass "$name"
			echo "    caught: $got"
		else
			fail "$name" "failed, but not as '$want' says: $got"
		fi
	done
	report_time "labs/$lab" "$start"
done
SUITE=labs
expect_eq defaults-restored "$before" "$(settings)"
