#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run a command and append one line to a times file: its name, wall seconds
# and CPU seconds (user + system of the command and its children),
# tab-separated; tests/summary.sh --times prints them as a table. Exits with
# the command's status.
#   tests/timed.sh TIMES_FILE NAME COMMAND...
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: tests/timed.sh TIMES_FILE NAME COMMAND..." >&2; exit 2; }
times_file=$1 name=$2
shift 2
tmp=$(mktemp "${TMPDIR:-/tmp}/timed.XXXXXX")
trap 'rm -f "$tmp"' EXIT
start=$EPOCHREALTIME rc=0
"$@" || rc=$?
end=$EPOCHREALTIME
# The builtin times, in this shell (a subshell would not see the children):
# its second line is the children's user and system time ("1m2.5s 0m0.25s").
times >"$tmp"
awk -v name="$name" -v start="${start/,/.}" -v end="${end/,/.}" 'NR == 2 {
	for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); cpu += t[1] * 60 + t[2] }
	printf "%s\t%.1f\t%.1f\n", name, end - start, cpu
}' "$tmp" >>"$times_file"
exit "$rc"
