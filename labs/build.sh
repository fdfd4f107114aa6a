#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build a lab folder for the guest: every NAME.c becomes the static program
# NAME in OUT, with the project's compiler and flags (examples/build.mk),
# against the kernel's uapi headers, with labs/ on the include path too; a
# program that includes lab.h is linked with the project's library
# (examples/build.mk's LIB_SRCS, compiled once into LAB_OBJ_DIR).
# When OUT is another folder, the other files (scripts) are copied there too;
# folders (mutants/) are not.
#   labs/build.sh SRC OUT     (env UAPI: the uapi headers folder, required;
#                              LAB_OBJ_DIR: where the library's objects are
#                              kept, default $OUT_DIR/labs/obj)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: labs/build.sh SRC OUT" >&2; exit 2; }
src=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
examples=$here/../examples
[ -d "$src" ] || { echo "labs/build.sh: no folder '$src'" >&2; exit 2; }
[ -d "${UAPI:-}/include/linux" ] || { echo "labs/build.sh: UAPI='${UAPI:-}' holds no include/linux; run 'make kernel'" >&2; exit 2; }
mkdir -p "$out"
eval "$(UAPI=$UAPI STATIC=1 make -s -f "$examples/build.mk" print-sh)"
cflags=("${BUILD_CFLAGS[@]}" -I "$here")

# library: the library's objects, rebuilt when a source, a header of
# examples/ or the flags changed; prints their paths.
library() {
	local dir=${LAB_OBJ_DIR:-${OUT_DIR:-$here/../_build}/labs/obj} src obj stamp fresh=1
	stamp=$dir/lib.flags
	mkdir -p "$dir"
	[ "$(cat "$stamp" 2>/dev/null)" = "$BUILD_CC ${cflags[*]}" ] || fresh=0
	for src in "${BUILD_LIB_SRCS[@]}"; do
		obj=$dir/$(basename "${src%.c}").o
		if [ "$fresh" = 0 ] || [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] ||
			[ -n "$(find "$examples" -maxdepth 1 -name '*.h' -newer "$obj")" ]; then
			"$BUILD_CC" "${cflags[@]}" -c -o "$obj" "$src" || return 1
		fi
		echo "$obj"
	done
	echo "$BUILD_CC ${cflags[*]}" >"$stamp"
}

rc=0
for f in "$src"/*; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	case $name in
	*.c)
		objs=()
		if grep -q '^#include "lab.h"' "$f"; then
			mapfile -t objs < <(library) && [ ${#objs[@]} -gt 0 ] ||
				{ echo "labs/build.sh: the library does not build" >&2; exit 1; }
		fi
		"$BUILD_CC" "${cflags[@]}" -o "$out/${name%.c}" "$f" "${objs[@]}" "${BUILD_LDFLAGS[@]}" ||
			{ echo "labs/build.sh: $f does not build" >&2; rc=1; }
		;;
	*)
		[ "$src/$name" -ef "$out/$name" ] || cp -p "$f" "$out/$name"
		;;
	esac
done
exit $rc
