#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Generate a lab's learner skeleton from its solution.
#   labs/skel.sh FILE              print the skeleton of one solution file
#   labs/skel.sh [-f] LAB_DIR OUT  write the skeleton of every file of the lab
#                                  (all but check.sh) into OUT; a file the
#                                  learner changed is kept unless -f is given
# In a solution file, "TODO N: what to do" (in a C or # comment) opens a block
# that the skeleton drops, "END TODO N" closes it; the TODO line stays. A line
# "/* SKEL: code */" or "# SKEL: code" becomes "code" in the skeleton only.
# A "WHY N: sentence" comment inside TODO N's block says why it is done that
# way (make lab-diff shows it beside the learner's copy); like the rest of
# the block, the skeleton leaves it out.
set -euo pipefail

# usage: the comment block at the top of this file, after the SPDX line.
usage() { awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0" >&2; exit 2; }

# skeleton FILE: the skeleton on stdout; a misplaced marker is a one-line error.
skeleton() {
	awk -v file="$1" '
	function bad(msg) { printf "skel: %s:%d: %s\n", file, NR, msg >"/dev/stderr"; err = 1; exit 1 }
	/(\/\*|#)[ \t]*END TODO [0-9]+/ {
		match($0, /END TODO [0-9]+/)
		n = substr($0, RSTART + 9, RLENGTH - 9)
		if (open == "") bad("END TODO " n " without an open TODO")
		if (n != open) bad("END TODO " n " closes TODO " open)
		open = ""
		next
	}
	/(\/\*|#)[ \t]*TODO [0-9]+:/ {
		match($0, /TODO [0-9]+:/)
		n = substr($0, RSTART + 5, RLENGTH - 6)
		if (open != "") bad("TODO " n " opens inside TODO " open)
		if (n in seen) bad("TODO " n " is used twice")
		seen[n] = 1; open = n; opened = NR
		print
		next
	}
	/(\/\*|#)[ \t]*WHY [0-9]+:/ {
		match($0, /WHY [0-9]+:/)
		n = substr($0, RSTART + 4, RLENGTH - 5)
		if (n != open) bad("WHY " n " outside its TODO " n " block")
	}
	open != "" { next }
	/^[ \t]*\/\* SKEL: .* \*\/[ \t]*$/ {
		match($0, /^[ \t]*/); ind = substr($0, 1, RLENGTH)
		s = $0; sub(/^[ \t]*\/\* SKEL: /, "", s); sub(/ \*\/[ \t]*$/, "", s)
		print ind s
		next
	}
	/^[ \t]*# SKEL: / {
		match($0, /^[ \t]*/); ind = substr($0, 1, RLENGTH)
		s = $0; sub(/^[ \t]*# SKEL: /, "", s)
		print ind s
		next
	}
	{ print }
	END { if (!err && open != "") { NR = opened; bad("TODO " open " is never closed (END TODO " open ")") } }
	' "$1"
}

force=0
if [ "${1:-}" = -f ]; then force=1; shift; fi
case $# in
1)
	[ -f "$1" ] || { echo "skel: no file '$1'" >&2; exit 2; }
	skeleton "$1"
	;;
2)
	lab=$1 out=$2
	[ -f "$lab/check.sh" ] || { echo "skel: '$lab' is not a lab folder (no check.sh)" >&2; exit 2; }
	mkdir -p "$out"
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	for src in "$lab"/*; do
		name=$(basename "$src")
		if [ ! -f "$src" ] || [ "$name" = check.sh ]; then continue; fi
		skeleton "$src" >"$tmp"
		dst=$out/$name
		if [ -f "$dst" ] && cmp -s "$tmp" "$dst"; then
			continue
		elif [ -f "$dst" ] && [ "$force" = 0 ]; then
			echo "skel: keeping your $dst (FORCE=1 overwrites it)" >&2
			continue
		fi
		cp "$tmp" "$dst"
		chmod --reference="$src" "$dst"
		echo "skel: wrote $dst"
	done
	;;
*) usage ;;
esac
