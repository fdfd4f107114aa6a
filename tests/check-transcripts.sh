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
		# The first change (its first line out and first line in), so
		# that a log shows what differed.
		change=$(awk 'NR > 3 && /^[-+]/ { c = 1
				if (/^-/ && !w++) was = substr($0, 2)
				if (/^\+/ && !n++) now = substr($0, 2)
				next }
			c { exit }
			END { printf "%s became %s", w ? "\047" substr(was, 1, 200) "\047" : "(nothing)",
				n ? "\047" substr(now, 1, 200) "\047" : "(nothing)" }' "$recorded/$name.diff")
		fail "$name" "differs from the committed one: $change; see $recorded/$name.diff (re-record with 'make transcripts' if the change is intended)"
	fi
done
