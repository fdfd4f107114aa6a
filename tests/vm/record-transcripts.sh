#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest side of "make transcripts": run each $GUEST_PREFIX/transcripts/NAME.sh
# (or those named) with output to OUT/NAME.txt. The exit status says whether
# every script succeeded.
out=$1
shift
rc=0
for t in ${*:-$GUEST_PREFIX/transcripts/*.sh}; do
	[ -f "$t" ] || t=$GUEST_PREFIX/transcripts/$t.sh
	name=$(basename "$t" .sh)
	echo "=== transcript $name"
	(cd /root && timeout 300 sh "$t") >"$out/$name.txt" 2>&1 || {
		echo "transcript $name: exited $?" >&2
		rc=1
	}
done
exit $rc
