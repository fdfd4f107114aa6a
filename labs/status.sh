#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Where the learner stands on each lab (make labs-status, make lab-diff).
#   labs/status.sh record LAB RESULTS   after make lab-check: remember
#                                       whether RESULTS (its result lines)
#                                       passed, for the files checked
#   labs/status.sh [LAB...]             one line per lab: not started
#                                       (no labs/work/LAB, or the skeleton
#                                       as generated), does not build,
#                                       builds, or passes (the last
#                                       lab-check of these files passed)
#   labs/status.sh diff LAB             after a passing lab-check: the
#                                       learner's files beside the solution,
#                                       whose "WHY N:" lines say why TODO N
#                                       is done that way
# The records are in OUT_DIR/labs/status (env OUT_DIR, default _build);
# env UAPI as labs/build.sh.
set -euo pipefail
# Paths given relative to where it was started, before it moves to the tree.
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
[ -z "${OUT_DIR:-}" ] || OUT_DIR=$(abs "$OUT_DIR")
[ -z "${UAPI:-}" ] || export UAPI=$(abs "$UAPI")
[ "${1:-}" != record ] || [ $# -ne 3 ] || set -- "$1" "$2" "$(abs "$3")"
cd "$(dirname "$0")/.."
status_dir=${OUT_DIR:-_build}/labs/status

usage() { awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0" >&2; exit 2; }
need_lab() { [ -f "labs/$1/check.sh" ] || { echo "labs/status.sh: unknown lab '$1'" >&2; exit 2; }; }

# files LAB: the learner's files of LAB (the lab's files but check.sh).
files() {
	local f
	for f in labs/"$1"/*; do
		[ -f "$f" ] && [ "$(basename "$f")" != check.sh ] && basename "$f"
	done
}

# key LAB: a hash of the learner's copies of LAB's files.
key() {
	local f
	for f in $(files "$1"); do
		echo "$f"
		cat "labs/work/$1/$f" 2>/dev/null || echo "(missing)"
	done | sha256sum | cut -d' ' -f1
}

# passes LAB: true when the last lab-check of the current files passed.
passes() { [ "$(cat "$status_dir/$1" 2>/dev/null)" = "pass $(key "$1")" ]; }

status() {
	local lab=$1 f same=1 tmp
	[ -d "labs/work/$lab" ] || { echo "not started"; return; }
	for f in $(files "$lab"); do
		labs/skel.sh "labs/$lab/$f" | cmp -s - "labs/work/$lab/$f" || same=0
	done
	if [ "$same" = 1 ]; then echo "not started"; return; fi
	if passes "$lab"; then echo "passes"; return; fi
	tmp=$(mktemp -d)
	if labs/build.sh "labs/work/$lab" "$tmp" >/dev/null 2>&1; then
		echo "builds"
	else
		echo "does not build"
	fi
	rm -rf "$tmp"
}

case ${1:-} in
record)
	[ $# -eq 3 ] || usage
	need_lab "$2"
	mkdir -p "$status_dir"
	if [ -s "$3" ] && ! grep -q '^FAIL: ' "$3"; then
		echo "pass $(key "$2")" >"$status_dir/$2"
	else
		echo "fail $(key "$2")" >"$status_dir/$2"
	fi
	;;
diff)
	[ $# -eq 2 ] || usage
	need_lab "$2"
	if ! passes "$2"; then
		echo "lab-diff: the solution is shown once 'make lab-check L=$2' passes on your current files" >&2
		exit 1
	fi
	for f in $(files "$2"); do
		echo "=== labs/work/$2/$f (yours, left) beside labs/$2/$f (the solution, right; WHY N: why TODO N is done that way)"
		diff -y -W "${COLUMNS:-200}" --left-column "labs/work/$2/$f" "labs/$2/$f" || true
		# The side-by-side view cuts long lines at half the width: the
		# reasons, whole.
		echo "=== why each TODO of labs/$2/$f is done that way"
		sed -nE 's,^[[:space:]]*(/\*|#)[[:space:]]*(WHY [0-9]+:.*[^[:space:]])[[:space:]]*$,\2,p' "labs/$2/$f" |
			sed -E 's,[[:space:]]*\*/$,,'
	done
	;;
-h | --help) usage ;;
*)
	labs=("$@")
	[ $# -gt 0 ] || mapfile -t labs < <(cd labs && ls -d [0-9][0-9]-*)
	for lab in "${labs[@]}"; do
		need_lab "$lab"
		printf '%-22s %s\n' "$lab" "$(status "$lab")"
	done
	;;
esac
