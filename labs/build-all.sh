#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Host side of "make check-labs": build, for each lab named, what the guest
# side (labs/check-all.sh) checks: OUT/LAB/solution, OUT/LAB/skeleton (from
# labs/skel.sh) and OUT/LAB/mutant-NAME for each labs/LAB/mutants/NAME.sed.
# Prints a FAIL line (tests/results.sh) for what does not build; the build output goes to
# OUT/build.log. A variant whose inputs (its files, labs/build.sh,
# labs/lab.h, examples/build.mk and the library's sources, UAPI) are those
# of its last good build, recorded in OUT/LAB/VARIANT.inputs, is not built
# again; what is no longer in the sources leaves OUT.
#   labs/build-all.sh OUT LAB...     (env UAPI, as labs/build.sh)
#
# A mutant is a realistic wrong solution: a sed script applied to the lab's
# learner file (the one file besides check.sh, or the one its "# file: NAME"
# line names). Its "# want: STEP: REGEX" line says which step must fail and
# what its message must match (grep -E); OUT/LAB/mutant-NAME/want holds it.
set -euo pipefail
. "$(dirname "$0")/../tests/results.sh"
SUITE=labs
[ $# -ge 1 ] || { echo "usage: labs/build-all.sh OUT LAB..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$1
shift
mkdir -p "$out"
log=$out/build.log
: >"$log"
# Leave in OUT only the labs named and, of theirs, the mutants that exist.
for d in "$out"/*/; do
	[ -d "$d" ] || continue
	lab=$(basename "$d")
	case " $* " in
	*" $lab "*)
		for m in "$d"mutant-*/; do
			[ -d "$m" ] || continue
			m=$(basename "$m")
			[ -f "$here/$lab/mutants/${m#mutant-}.sed" ] || rm -rf "$d$m" "$d$m.inputs"
		done
		;;
	*) rm -rf "$d" ;;
	esac
done

# What every lab's build uses besides its own files: the compiler and flags
# too.
shared=$({
	UAPI=${UAPI:-} STATIC=1 make -s -f "$here/../examples/build.mk" print-sh
	for f in "$here/build.sh" "$here/lab.h" "$here/../examples/build.mk" "$here"/../examples/{lib,common,demos}/*.[ch]; do
		[ ! -f "$f" ] || cat "$f"
	done
} | sha256sum | cut -d' ' -f1)
# build SRC DIR: labs/build.sh SRC DIR, unless DIR.inputs says DIR already
# holds a build of these inputs (SRC's files and the shared ones).
build() {
	local key
	key=$({
		echo "$shared"
		(cd "$1" && find . -maxdepth 1 -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum)
	} | sha256sum | cut -d' ' -f1)
	[ "$(cat "$2.inputs" 2>/dev/null)" != "$key" ] || return 0
	rm -f "$2.inputs"
	"$here/build.sh" "$1" "$2" || return 1
	echo "$key" >"$2.inputs"
}

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
	rm -f "$d/want"
	if [ -z "$file" ] || [ ! -f "$here/$lab/$file" ]; then
		fail "$lab/mutant-$name" "no learner file to apply it to (add '# file: NAME')"
	elif [ -z "$want" ] || [ "${want#step-*: }" = "$want" ]; then
		fail "$lab/mutant-$name" "no '# want: step-N-NAME: REGEX' line in $sed"
	else
		rm -rf "$d/src" && mkdir -p "$d/src"
		cp -p "$here/$lab"/* "$d/src/" 2>/dev/null || true
		sed -f "$sed" "$here/$lab/$file" >"$d/src/$file"
		if cmp -s "$here/$lab/$file" "$d/src/$file"; then
			fail "$lab/mutant-$name" "$sed no longer changes $file; update it"
		elif ! build "$d/src" "$d" >>"$log" 2>&1; then
			fail "$lab/mutant-$name" "does not build; see $log"
		else
			echo "$want" >"$d/want"
		fi
	fi
}

for lab in "$@"; do
	[ -f "$here/$lab/check.sh" ] || { fail "$lab/exists" "no labs/$lab/check.sh"; continue; }
	build "$here/$lab" "$out/$lab/solution" >>"$log" 2>&1 ||
		fail "$lab/solution-builds" "see $log"
	{ rm -rf "$out/$lab/skeleton-src" && "$here/skel.sh" -f "$here/$lab" "$out/$lab/skeleton-src" &&
		build "$out/$lab/skeleton-src" "$out/$lab/skeleton"; } >>"$log" 2>&1 ||
		fail "$lab/skeleton-builds" "see $log"
	n=0
	for sed in "$here/$lab"/mutants/*.sed; do
		[ -f "$sed" ] || continue
		mutant "$lab" "$sed"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "$lab/mutants" "$n mutants in labs/$lab/mutants/; every lab needs at least 3"
done
