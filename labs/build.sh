#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build a lab folder for the guest: every NAME.c becomes the static program
# NAME in OUT, with the project's compiler and flags (examples/build.mk),
# against the kernel's uapi headers, with labs/ on the include path too,
# and linked with the project's library (examples/build.mk's archive, which
# a program that does not use it leaves out).
# When OUT is another folder, the other files (scripts) are copied there too;
# folders (mutants/) are not.
#   labs/build.sh SRC OUT     (env UAPI: the uapi headers folder, required)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: labs/build.sh SRC OUT" >&2; exit 2; }
src=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
examples=$here/../examples
[ -d "$src" ] || { echo "labs/build.sh: no folder '$src'" >&2; exit 2; }
[ -d "${UAPI:-}/include/linux" ] || { echo "labs/build.sh: UAPI='${UAPI:-}' holds no include/linux; run 'make kernel'" >&2; exit 2; }
mkdir -p "$out"
vars=$(UAPI=$UAPI STATIC=1 make -s --no-print-directory -f "$examples/build.mk" print-sh) ||
	{ echo "labs/build.sh: the library does not build (examples/build.mk)" >&2; exit 1; }
eval "$vars"
cflags=("${BUILD_CFLAGS[@]}" -I "$here")

rc=0
for f in "$src"/*; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	case $name in
	*.c)
		"$BUILD_CC" "${cflags[@]}" -o "$out/${name%.c}" "$f" "${BUILD_LIB[@]}" "${BUILD_LDFLAGS[@]}" ||
			{ echo "labs/build.sh: $f does not build" >&2; rc=1; }
		;;
	*)
		[ "$src/$name" -ef "$out/$name" ] || cp -p "$f" "$out/$name"
		;;
	esac
done
exit $rc
