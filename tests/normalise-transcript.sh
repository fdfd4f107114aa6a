#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Print a transcript with what changes from run to run replaced by
# placeholders: timestamps, addresses, then the transcript's own rules in
# docs/transcripts/NAME.sed, if any.
#   tests/normalise-transcript.sh NAME FILE
set -euo pipefail
name=$1 file=$2
[ -f "$file" ] || { echo "normalise-transcript: no file '$file'" >&2; exit 1; }
rules=$(dirname "$0")/../docs/transcripts/$name.sed
sed -E -e 's/\b[0-9]+\.[0-9]{6,9}\b/<TIME>/g' \
	-e 's/\b0x[0-9a-f]{8,16}\b/<ADDR>/g' \
	-e 's/\b[0-9a-f]{12,16}\b/<ADDR>/g' "$file" |
	if [ -f "$rules" ]; then sed -E -f "$rules"; else cat; fi
