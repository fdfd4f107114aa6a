#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Compare freshly recorded transcripts with the committed ones, after
# normalising both; one result line per transcript.
#   tests/check-transcripts.sh RECORDED_DIR
set -euo pipefail
here=$(dirname "$0")
. "$here/results.sh"
SUITE=transcripts
recorded=$1
for script in "$here"/../docs/transcripts/*.sh; do
	[ -f "$script" ] || continue
	name=$(basename "$script" .sh)
	committed=$here/../docs/transcripts/$name.txt
	if [ ! -f "$committed" ]; then
		fail "$name" "docs/transcripts/$name.txt is missing; run 'make transcripts'"
	elif [ ! -f "$recorded/$name.txt" ]; then
		fail "$name" "the guest recorded nothing"
	elif diff -u <("$here/normalise-transcript.sh" "$name" "$committed") \
		<("$here/normalise-transcript.sh" "$name" "$recorded/$name.txt") >"$recorded/$name.diff"; then
		pass "$name"
	else
		# The first changed lines, so that a log shows what differed.
		was=$(sed -n '4,$ { /^-/ { s/^-//p; q; } }' "$recorded/$name.diff" | cut -c 1-200)
		now=$(sed -n '4,$ { /^+/ { s/^+//p; q; } }' "$recorded/$name.diff" | cut -c 1-200)
		fail "$name" "differs from the committed one: '${was:-(no line)}' became '${now:-(no line)}'; see $recorded/$name.diff (re-record with 'make transcripts' if the change is intended)"
	fi
done
