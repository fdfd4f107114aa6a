#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build a lab folder for the guest: every NAME.c becomes the static program
# NAME in OUT, against the kernel's uapi headers, with examples/ and labs/ on
# the include path; a program that includes lab.h is linked with the
# project's library (examples/tracemap.c, compiled once into LAB_OBJ_DIR).
# When OUT is another folder, the other files (scripts) are copied there too;
# folders (mutants/) are not.
#   labs/build.sh SRC OUT     (env UAPI: the uapi headers folder, required;
#                              LAB_OBJ_DIR: where the library's object is
#                              kept, default OUT)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: labs/build.sh SRC OUT" >&2; exit 2; }
src=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
examples=$here/../examples
[ -d "$src" ] || { echo "labs/build.sh: no folder '$src'" >&2; exit 2; }
[ -d "${UAPI:-}/include/linux" ] || { echo "labs/build.sh: UAPI='${UAPI:-}' holds no include/linux; run 'make kernel'" >&2; exit 2; }
mkdir -p "$out"
cflags=(-std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -static
	-isystem "$UAPI/include" -I "$examples" -I "$here")

# library: the library's object, rebuilt when a source or the flags changed.
library() {
	local dir=${LAB_OBJ_DIR:-$out} obj stamp
	obj=$dir/tracemap.o stamp=$dir/tracemap.flags
	mkdir -p "$dir"
	if [ ! -f "$obj" ] || [ "$examples/tracemap.c" -nt "$obj" ] ||
		[ "$examples/tracemap.h" -nt "$obj" ] ||
		[ "$(cat "$stamp" 2>/dev/null)" != "${CC:-gcc} ${cflags[*]}" ]; then
		${CC:-gcc} "${cflags[@]}" -c -o "$obj" "$examples/tracemap.c" || return 1
		echo "${CC:-gcc} ${cflags[*]}" >"$stamp"
	fi
	echo "$obj"
}

rc=0
for f in "$src"/*; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	case $name in
	*.c)
		objs=()
		if grep -q '^#include "lab.h"' "$f"; then
			obj=$(library) || { echo "labs/build.sh: examples/tracemap.c does not build" >&2; exit 1; }
			objs=("$obj")
		fi
		${CC:-gcc} "${cflags[@]}" -o "$out/${name%.c}" "$f" "${objs[@]}" ||
			{ echo "labs/build.sh: $f does not build" >&2; rc=1; }
		;;
	*)
		[ "$src/$name" -ef "$out/$name" ] || cp -p "$f" "$out/$name"
		;;
	esac
done
exit $rc
