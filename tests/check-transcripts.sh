#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Compare freshly recorded transcripts with the committed ones, after
# normalising both; one result line per transcript.
#   tests/check-transcripts.sh RECORDED_DIR
set -euo pipefail
here=$(dirname "$0")
recorded=$1
for script in "$here"/../docs/transcripts/*.sh; do
	[ -f "$script" ] || continue
	name=$(basename "$script" .sh)
	committed=$here/../docs/transcripts/$name.txt
	if [ ! -f "$committed" ]; then
		echo "FAIL: transcripts/$name: docs/transcripts/$name.txt is missing; run 'make transcripts'"
	elif [ ! -f "$recorded/$name.txt" ]; then
		echo "FAIL: transcripts/$name: the guest recorded nothing"
	elif diff -u <("$here/normalise-transcript.sh" "$name" "$committed") \
		<("$here/normalise-transcript.sh" "$name" "$recorded/$name.txt") >"$recorded/$name.diff"; then
		echo "PASS: transcripts/$name"
	else
		echo "FAIL: transcripts/$name: differs from the committed one; see $recorded/$name.diff (re-record with 'make transcripts' if the change is intended)"
	fi
done
