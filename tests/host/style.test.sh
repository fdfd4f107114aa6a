# SPDX-License-Identifier: MIT
# Every C file of the project is in the kernel's coding style (the tree's
# .clang-format) and carries an SPDX licence line.
. tests/host/lib.sh
style=$TREE_DIR/.clang-format
[ -f "$style" ] || { skip clang-format "$style missing"; exit 0; }
while IFS= read -r f; do
	if ! head -n 2 "$f" | grep -q 'SPDX-License-Identifier: '; then
		fail "spdx/$f" "no SPDX-License-Identifier in the first two lines"
	fi
	if diff -u "$f" <(clang-format --style="file:$style" "$f") >/dev/null; then
		pass "clang-format/$f"
	else
		fail "clang-format/$f" "run clang-format --style=file:$style -i $f"
	fi
done < <(git ls-files -co --exclude-standard -- '*.c' '*.h' | grep -v '^_build/')

# Nothing committed is a build product: no ELF file (object, program,
# module), whatever its name, and no file a build or tool writes.
elf=() products=()
while IFS= read -r f; do
	[ -f "$f" ] || continue
	[ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')" != 7f454c46 ] || elf+=("$f")
done < <(git ls-files)
mapfile -t products < <(git ls-files | grep -E '(^|/)(_build|tmp|__pycache__)/|\.(o|a|so|ko|mod\.c|pyc|cpio|cpio\.gz)$' || true)
expect_eq no-committed-elf "" "${elf[*]}"
expect_eq no-committed-build-products "" "${products[*]}"
