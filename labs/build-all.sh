#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Host side of "make check-labs": build, for each lab named, what the guest
# side (labs/check-all.sh) checks: OUT/LAB/solution, OUT/LAB/skeleton (from
# labs/skel.sh) and OUT/LAB/mutant-NAME for each labs/LAB/mutants/NAME.sed.
# Prints a FAIL line for what does not build; the build output goes to
# OUT/build.log.
#   labs/build-all.sh OUT LAB...     (env UAPI, as labs/build.sh)
#
# A mutant is a realistic wrong solution: a sed script applied to the lab's
# learner file (the one file besides check.sh, or the one its "# file: NAME"
# line names). Its "# want: STEP: REGEX" line says which step must fail and
# what its message must match (grep -E); OUT/LAB/mutant-NAME/want holds it.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: labs/build-all.sh OUT LAB..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$1
shift
rm -rf "$out"
mkdir -p "$out"
log=$out/build.log
: >"$log"

# learner_file LAB_DIR: the one file of the lab besides check.sh.
learner_file() {
	local f n=0 found=''
	for f in "$1"/*; do
		[ -f "$f" ] && [ "$(basename "$f")" != check.sh ] || continue
		found=$(basename "$f") n=$((n + 1))
	done
	[ "$n" = 1 ] && echo "$found"
}

# mutant LAB SED: build OUT/LAB/mutant-NAME; a FAIL line when it cannot.
mutant() {
	local lab=$1 sed=$2 name file want d
	name=$(basename "$sed" .sed)
	d=$out/$lab/mutant-$name
	file=$(sed -n 's/^# file: //p' "$sed")
	file=${file:-$(learner_file "$here/$lab")} || true
	want=$(sed -n 's/^# want: //p' "$sed")
	if [ -z "$file" ] || [ ! -f "$here/$lab/$file" ]; then
		echo "FAIL: labs/$lab/mutant-$name: no learner file to apply it to (add '# file: NAME')"
	elif [ -z "$want" ] || [ "${want#step-*: }" = "$want" ]; then
		echo "FAIL: labs/$lab/mutant-$name: no '# want: step-N-NAME: REGEX' line in $sed"
	else
		mkdir -p "$d/src"
		cp -p "$here/$lab"/* "$d/src/" 2>/dev/null || true
		sed -f "$sed" "$here/$lab/$file" >"$d/src/$file"
		if cmp -s "$here/$lab/$file" "$d/src/$file"; then
			echo "FAIL: labs/$lab/mutant-$name: $sed no longer changes $file; update it"
		elif ! "$here/build.sh" "$d/src" "$d" >>"$log" 2>&1; then
			echo "FAIL: labs/$lab/mutant-$name: does not build; see $log"
		else
			echo "$want" >"$d/want"
		fi
	fi
}

for lab in "$@"; do
	[ -f "$here/$lab/check.sh" ] || { echo "FAIL: labs/$lab/exists: no labs/$lab/check.sh"; continue; }
	"$here/build.sh" "$here/$lab" "$out/$lab/solution" >>"$log" 2>&1 ||
		echo "FAIL: labs/$lab/solution-builds: see $log"
	{ "$here/skel.sh" -f "$here/$lab" "$out/$lab/skeleton-src" &&
		"$here/build.sh" "$out/$lab/skeleton-src" "$out/$lab/skeleton"; } >>"$log" 2>&1 ||
		echo "FAIL: labs/$lab/skeleton-builds: see $log"
	n=0
	for sed in "$here/$lab"/mutants/*.sed; do
		[ -f "$sed" ] || continue
		mutant "$lab" "$sed"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || echo "FAIL: labs/$lab/mutants: $n mutants in labs/$lab/mutants/; every lab needs at least 3"
done
