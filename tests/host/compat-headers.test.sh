#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The examples' own definitions (mseal_compat.h, landlock_compat.h) must
# equal the 6.12 uapi headers', and must be what a build against this
# machine's older headers uses.
set -euo pipefail
suite=${SUITE:-compat-headers}
src=tests/host/compat_headers.c
out=$B/host/$suite
mkdir -p "$out"
cflags=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror)

if ! gcc "${cflags[@]}" -DCOMPAT -Iexamples -o "$out/ours" "$src" 2>"$out/ours.log"; then
	echo "FAIL: $suite/builds-with-system-headers: $(head -n 3 "$out/ours.log" | tr '\n' ' ')"
	exit 0
fi
echo "PASS: $suite/builds-with-system-headers"
if ! gcc "${cflags[@]}" -isystem "$HEADERS_DIR/include" -o "$out/real" "$src" \
	2>"$out/real.log"; then
	echo "FAIL: $suite/builds-with-6.12-headers: $(head -n 3 "$out/real.log" | tr '\n' ' ')"
	exit 0
fi
"$out/ours" >"$out/ours.txt"
"$out/real" >"$out/real.txt"
while read -r name want; do
	got=$(awk -v n="$name" '$1 == n { print $2 }' "$out/ours.txt")
	if [ "$got" = "$want" ]; then
		echo "PASS: $suite/$name"
	else
		echo "FAIL: $suite/$name: 6.12 says $want, ours says '$got'"
	fi
done <"$out/real.txt"
# The system headers must really lack what we define, or this proves less.
if grep -q LANDLOCK_ACCESS_FS_IOCTL_DEV /usr/include/linux/landlock.h ||
	grep -q __NR_mseal /usr/include/x86_64-linux-gnu/asm/unistd_64.h; then
	echo "SKIP: $suite/system-headers-lack-them: this machine's headers already define them"
else
	echo "PASS: $suite/system-headers-lack-them"
fi
