#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build a lab folder for the guest: every NAME.c becomes the static program
# NAME in OUT, against the kernel's uapi headers, with examples/ and labs/ on
# the include path; when OUT is another folder, the other files (scripts) are
# copied there too.
#   labs/build.sh SRC OUT     (env UAPI: the uapi headers folder, required)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: labs/build.sh SRC OUT" >&2; exit 2; }
src=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$src" ] || { echo "labs/build.sh: no folder '$src'" >&2; exit 2; }
[ -d "${UAPI:-}/include/linux" ] || { echo "labs/build.sh: UAPI='${UAPI:-}' holds no include/linux; run 'make kernel'" >&2; exit 2; }
mkdir -p "$out"
rc=0
for f in "$src"/*; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	case $name in
	*.c)
		${CC:-gcc} -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -static \
			-isystem "$UAPI/include" -I "$here/../examples" -I "$here" \
			-o "$out/${name%.c}" "$f" || { echo "labs/build.sh: $f does not build" >&2; rc=1; }
		;;
	*)
		[ "$src/$name" -ef "$out/$name" ] || cp -p "$f" "$out/$name"
		;;
	esac
done
exit $rc
