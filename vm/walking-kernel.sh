#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The walking kernel (issue 25 item 3): the guest kernel of vm/kernel.sh
# built from kernel-patches/series without patches 0007 and 0008, so that
# GET_READER still advances the reader once per event with interrupts off,
# as 6.12 does. vm/kernel.sh itself builds it, up to its kernel stage, in
# a cache of its own (CACHE_DIR/walking: its own unpacked source, tree,
# build, stamps and lock), from a copy of the series without the two
# patches; as every stage of vm/kernel.sh, it is redone only when the hash
# of its inputs changes. Prints the kernel image to boot (vm/run.sh
# --kernel). The patched kernel's initramfs and modules serve it: the
# version string is the same (0007 changes one function's body) and
# CONFIG_MODVERSIONS is off, so insmod checks no more than that.
#   vm/walking-kernel.sh            build if needed; print the image
#   vm/walking-kernel.sh --dropped  the patches it leaves out
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The patches the walking kernel leaves out: the fix and its selftest.
DROPPED=(0007-ring-buffer-Account-a-whole-reader-sub-buffer-at-onc.patch
	0008-selftests-ring-buffer-Test-the-read-count-that-GET_R.patch)
[ "${1:-}" != --dropped ] || { printf '%s\n' "${DROPPED[@]}"; exit 0; }
[ $# = 0 ] || die "usage: vm/walking-kernel.sh [--dropped]"

walking=$CACHE_DIR/walking
series=$walking/series
mkdir -p "$series"
"$REPO_DIR/vm/kernel.sh" --series >"$series/series.all"
for patch in "${DROPPED[@]}"; do
	grep -qxF "$patch" "$series/series.all" ||
		die "kernel-patches/series no longer lists $patch; update DROPPED in $0"
done
# The copy: the series file without the dropped lines and the patches it
# keeps (only rewritten when they differ, as the stamps hash contents).
grep -vxF -f <(printf '%s\n' "${DROPPED[@]}") "$series/series.all" >"$series/series.new"
cmp -s "$series/series.new" "$series/series" || mv "$series/series.new" "$series/series"
rm -f "$series/series.new" "$series/series.all"
while read -r patch; do
	cmp -s "$REPO_DIR/kernel-patches/$patch" "$series/$patch" ||
		cp "$REPO_DIR/kernel-patches/$patch" "$series/$patch"
done <"$series/series"
find "$series" -name '*.patch' -print0 | while IFS= read -r -d '' patch; do
	grep -qxF "${patch##*/}" "$series/series" || rm -f "$patch"
done

CACHE_DIR=$walking SERIES_DIR=$series KERNEL_VARIANT='' "$REPO_DIR/vm/kernel.sh" kernel >&2
image=$walking/build/arch/x86/boot/bzImage
[ -f "$image" ] || die "$image is missing after the build"
printf '%s\n' "$image"
