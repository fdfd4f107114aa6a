#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The examples' own definitions (mseal_compat.h, landlock_compat.h) must
# equal the 6.12 uapi headers', and must be what a build against this
# machine's older headers uses.
. tests/host/lib.sh
src=tests/host/compat_headers.c
out=$WORK_DIR

check_build builds-with-system-headers "$out/ours" -DCOMPAT "$src" || exit 0
check_build builds-with-6.12-headers "$out/real" -isystem "$HEADERS_DIR/include" "$src" || exit 0
"$out/ours" >"$out/ours.txt"
"$out/real" >"$out/real.txt"
while read -r name want; do
	got=$(awk -v n="$name" '$1 == n { print $2 }' "$out/ours.txt")
	expect_eq "$name" "$want" "$got"
done <"$out/real.txt"
# The system headers must really lack what we define, or this proves less.
if grep -q LANDLOCK_ACCESS_FS_IOCTL_DEV /usr/include/linux/landlock.h ||
	grep -q __NR_mseal /usr/include/x86_64-linux-gnu/asm/unistd_64.h; then
	skip system-headers-lack-them "this machine's headers already define them"
else
	pass system-headers-lack-them
fi
