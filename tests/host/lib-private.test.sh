#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No program outside the library reads or writes the fields of its private
# structs (those whose comment says "The fields are private"): every C file
# outside examples/lib/ must compile against a copy of the library's
# headers in which those fields are renamed (tests/host/hide_private.py),
# as it does against the real ones. Nor does any include the library's
# private header.
. tests/host/lib.sh
hidden=$WORK_DIR/hidden
python3 tests/host/hide_private.py examples/lib "$hidden" >"$WORK_DIR/structs"
# The library's handles must be among them (a lost marker would hide
# nothing and pass everything).
for s in tracemap tracemap_subbuf tracemap_formats tracemap_merge tracemap_merge_cpu tracemap_dat tracemap_dat_cpu; do
	if grep -q ": struct $s: [1-9]" "$WORK_DIR/structs"; then
		pass "private/$s"
	else
		fail "private/$s" "struct $s is not marked 'The fields are private' in examples/lib/"
	fi
done
# The flags the project compiles with, the kernel's uapi and kselftest
# headers, labs/ and tests/host/ (the C files' own includes).
read -r -a flags <<<"$(UAPI=$HEADERS_DIR make -s --no-print-directory -f examples/build.mk print-cflags)"
extra=(-I "$TREE_DIR/tools/testing/selftests" -I labs -I tests/host)
# syntax_only INCLUDE FILE: FILE compiles with INCLUDE as the library's folder.
syntax_only() {
	gcc -fsyntax-only "${flags[@]/#-I*examples\/lib/-I$1}" "${extra[@]}" "$2" 2>&1 |
		grep -m1 'error' || true
}
printf '#include "tracemap.h"\nint reach_in(struct tracemap *tm) { return tm->fd; }\n' >"$WORK_DIR/reach_in.c"
# The check can fail: a reach-in written for it compiles against the real
# headers and is refused against the renamed ones.
expect_eq reach-in-builds-with-real-headers "" \
	"$(syntax_only "$PWD/examples/lib" "$WORK_DIR/reach_in.c")"
expect_eq reach-in-refused-with-hidden-fields "no member named" \
	"$(syntax_only "$hidden" "$WORK_DIR/reach_in.c" | grep -o 'no member named' || true)"
files=$(git ls-files '*.c' '*.h' | grep -v '^examples/lib/\|^examples/modules/\|^kernel-patches/')
while read -r f; do
	case $f in *.h) continue ;; esac
	real=$(syntax_only "$PWD/examples/lib" "$f")
	if [ -n "$real" ]; then
		fail "builds/$f" "$real"
		continue
	fi
	expect_eq "no-reach-in/$f" "" "$(syntax_only "$hidden" "$f")"
done <<<"$files"
expect_eq private-header-stays-inside "" \
	"$(grep -l '#include "tracemap_internal.h"' $files || true)"
