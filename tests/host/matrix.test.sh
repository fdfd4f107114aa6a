# SPDX-License-Identifier: MIT
# make check-matrix's pieces that run without building a kernel: each
# matrix kernel (vm/matrix/NAME.config) names its architecture and has its
# suites and expect files; vm/run.sh refuses an unknown --arch and a
# matrix architecture without --kernel, and vm/matrix-kernel.sh an
# unknown kernel, each with a one-line error. A kernel with a
# "# matrix-patch: FILE" line (a variant of ours, vm/variants/): FILE is
# not in kernel-patches/, passes checkpatch.pl --strict and applies with
# no fuzz to the files as our series leaves them (the cached tree).
. tests/host/lib.sh
repo=$PWD
for name in $(vm/matrix-kernel.sh --names); do
	check "files/$name" test -f "tests/matrix/$name.suites" -a -f "tests/matrix/$name.expect"
	expect_match "arch/$name" '^(arm64|i386|s390|x86_64)$' "$(sed -n 's/^# matrix-arch: //p' "vm/matrix/$name.config")"
	extra=$(sed -n 's/^# matrix-patch: //p' "vm/matrix/$name.config")
	[ -n "$extra" ] || continue
	expect_match "variant-patch-outside-series/$name" '^vm/variants/[^/]*\.patch$' "$extra"
	tree=$(vm/kernel.sh --print-var TREE_DIR)
	if [ ! -f "$tree/scripts/checkpatch.pl" ]; then
		skip "variant-patch-checkpatch/$name" "no kernel tree at $tree; run 'make kernel'"
		skip "variant-patch-applies/$name" "no kernel tree at $tree; run 'make kernel'"
		continue
	fi
	out=$(cd "$tree" && scripts/checkpatch.pl --strict --quiet "$repo/$extra" 2>&1) && rc=0 || rc=$?
	expect_eq "variant-patch-checkpatch/$name" "0 " "$rc $out"
	rm -rf "$WORK_DIR/variant" && mkdir -p "$WORK_DIR/variant"
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$extra"); do
		install -D -m 0644 "$tree/$f" "$WORK_DIR/variant/$f"
	done
	check "variant-patch-applies/$name" patch -d "$WORK_DIR/variant" -p1 --forward --batch --fuzz=0 -i "$repo/$extra"
done
: >"$WORK_DIR/initrd"
out=$(vm/run.sh --arch sparc --initramfs "$WORK_DIR/initrd" -- true 2>&1) && rc=0 || rc=$?
expect_eq unknown-arch-exit 1 "$rc"
expect_match unknown-arch-said "^run.sh: error: --arch: unknown architecture 'sparc'" "$out"
out=$(vm/run.sh --arch arm64 --initramfs "$WORK_DIR/initrd" -- true 2>&1) && rc=0 || rc=$?
expect_eq arm64-without-kernel-exit 1 "$rc"
expect_match arm64-without-kernel-said '^run.sh: error: --arch arm64 needs --kernel' "$out"
out=$(vm/matrix-kernel.sh nosuch 2>&1) && rc=0 || rc=$?
expect_eq unknown-kernel-exit 1 "$rc"
expect_match unknown-kernel-said "^matrix-kernel.sh: error: unknown matrix kernel 'nosuch'; the names: arm64-64k i386 s390x x86_64-610-layout$" "$out"
