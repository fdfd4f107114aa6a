# SPDX-License-Identifier: MIT
# make check-matrix's pieces that run without building a kernel: each
# matrix kernel (vm/matrix/NAME.config) names its architecture and has its
# suites and expect files; vm/run.sh refuses an unknown --arch and a
# matrix architecture without --kernel, and vm/matrix-kernel.sh an
# unknown kernel, each with a one-line error.
. tests/host/lib.sh
for name in $(vm/matrix-kernel.sh --names); do
	check "files/$name" test -f "tests/matrix/$name.suites" -a -f "tests/matrix/$name.expect"
	expect_match "arch/$name" '^(arm64|i386|s390)$' "$(sed -n 's/^# matrix-arch: //p' "vm/matrix/$name.config")"
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
expect_match unknown-kernel-said "^matrix-kernel.sh: error: unknown matrix kernel 'nosuch'; the names: arm64-64k i386 s390x$" "$out"
