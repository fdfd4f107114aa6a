# SPDX-License-Identifier: MIT
# Landlock LANDLOCK_ACCESS_FS_IOCTL_DEV: every row of the table in
# docs/landlock.rst (docs/transcripts/landlock.txt) must be what
# landlock_ioctl prints on this kernel; then the facts the chapter's prose
# states, checked on their own.
. "$(dirname "$0")/guest-lib.sh"

if out=$(landlock_ioctl /dev/console /dev/ttyS0); then
	pass demo-runs
else
	fail demo-runs "landlock_ioctl exited $?"
fi
check_rows "$GUEST_PREFIX/transcripts/landlock.txt" "$out"

# row OPERATION: "result errno" of that row of the demo's output ("-": no
# errno).
row() { printf '%s\n' "$out" | grep "^$1 *|" | awk -F'|' '{ gsub(/ /, ""); print $2, ($3 == "" ? "-" : $3) }'; }
expect_eq abi-6 "6 -" "$(row 'landlock ABI version used')"
expect_eq unknown-right-einval "refused EINVAL" "$(row 'ruleset handling an unknown right (bit 63)')"
expect_eq new-fd-tcgets-eacces "refused EACCES" "$(row 'fd opened after: TCGETS')"
expect_eq old-fd-tcgets-allowed "ok -" "$(row 'fd opened before: TCGETS')"
expect_eq fionbio-always-allowed "ok -" "$(row 'fd opened after: FIONBIO')"
expect_eq regular-file-unaffected "ok -" "$(row 'regular file opened after: FIONREAD')"
expect_eq granted-device-allowed "ok -" "$(row 'granted device, opened after: TCGETS')"
check lsm-list-has-landlock grep -q landlock /sys/kernel/security/lsm

# Best effort on an older ABI: as if the kernel had ABI 4 (before 6.10), the
# ioctl right is dropped, said so, and ioctls stay unrestricted.
out=$(landlock_ioctl --abi 4 /dev/console)
expect_eq abi-4-used "4 -" "$(row 'landlock ABI version used')"
expect_eq abi-4-says-dropped "dropped -" "$(row 'LANDLOCK_ACCESS_FS_IOCTL_DEV (needs ABI 5)')"
expect_eq abi-4-ioctl-unrestricted "ok -" "$(row 'fd opened after: TCGETS')"
rc=0
landlock_ioctl --abi x /dev/console >/dev/null 2>&1 || rc=$?
expect_eq bad-abi-argument-exit-2 2 "$rc"
