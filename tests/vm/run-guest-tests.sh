#!/bin/sh
# SPDX-License-Identifier: MIT
# Run every guest test script (or those named) in the guest; each prints its
# own result lines, and its wall time as "TIME: SUITE SECONDS" on the
# status channel. Always exits 0 once all ran: the host counts the lines.
dir=$(dirname "$0")
. "$dir/guest-lib.sh"
for t in ${*:-$dir/*.test.sh}; do
	[ -f "$t" ] || t=$dir/$t.test.sh
	echo "=== $t"
	SUITE=$(basename "$t" .test.sh)
	start=$(uptime_s)
	# A suite that hangs fails after 20 min (the debug guest's rb-selftests,
	# 285 to 395 s alone, took 630 s in a loaded make check and was killed
	# at the 600 s this was before).
	SUITE=$SUITE timeout 1200 sh "$t" || fail script "exited $?"
	report_time "$SUITE" "$start"
done
