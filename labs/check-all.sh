#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest side of "make check-labs": for each lab named, run its check on the
# solution's build (every step must pass) and on the skeleton's build (at
# least one step must fail). The skeleton's own lines go out under the suite
# skeleton/labs/LAB, which the host drops; one line per lab says the result.
#   sh check-all.sh LABS_DIR BUILT_DIR LAB...
. "$GUEST_PREFIX/tests/guest-lib.sh"
labs=$1 built=$2
shift 2
for lab in "$@"; do
	echo "=== lab $lab: solution"
	SUITE=labs/$lab timeout 300 sh "$labs/$lab/check.sh" "$built/$lab/solution" ||
		result FAIL "labs/$lab/check" "check.sh exited $?"
	echo "=== lab $lab: skeleton"
	out=$(SUITE=skeleton/labs/$lab timeout 300 sh "$labs/$lab/check.sh" "$built/$lab/skeleton" 2>&1)
	echo "$out"
	SUITE=labs/$lab
	if echo "$out" | grep -q "^FAIL: skeleton/labs/$lab/step-"; then
		pass skeleton-fails
	else
		fail skeleton-fails "every step passed on the generated skeleton: a check that cannot fail"
	fi
done
