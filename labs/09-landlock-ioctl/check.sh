#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 09 in the guest: the learner's ./sandbox against what Landlock
# does in 6.12 (security/landlock; docs/landlock.rst), and the kernel's ABI
# as the project's landlock_ioctl example reads it.
#   sh check.sh DIR
SUITE=${SUITE:-labs/09-landlock-ioctl}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" sandbox step-1-abi
dev=/dev/console
# row OPERATION RESULT [ERRNO]: a row as the program prints it, blanks squeezed.
row() { echo "$1 | $2 | ${3:-}" | sed 's/ *$//'; }
rows() { echo "$prog_out" | sed -n "$1,$2p" | sed 's/  */ /g; s/ *$//'; }
abi=$(landlock_ioctl $dev 2>/dev/null | sed -n 's/^landlock ABI version used *| \([0-9]*\) .*/\1/p')

run_prog 20 "$dir/sandbox" $dev
want="$(row "landlock ABI" "$abi")
$(row LANDLOCK_ACCESS_FS_IOCTL_DEV handled)"
got=$(rows 2 3)
if [ "$got" = "$want" ]; then
	pass step-1-abi
elif [ "$(rows 2 2)" != "$(row "landlock ABI" "$abi")" ]; then
	fail step-1-abi "landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) returns the ABI: $abi here; $(first_diff "$want" "$got")"
else
	fail step-1-abi "ABI $abi knows LANDLOCK_ACCESS_FS_IOCTL_DEV (ABI 5 and later): handle it; $(first_diff "$want" "$got")"
fi

want="$(row sandboxed ok)
$(row "fd opened before: TCGETS" ok)
$(row "fd opened after: TCGETS" refused EACCES)"
got=$(rows 4 6)
if [ "$got" = "$want" ]; then
	pass step-2-ioctl-denied
elif [ "$prog_rc" != 0 ]; then
	fail step-2-ioctl-denied "./sandbox $(status_text $prog_rc): the rule for / must grant everything the ruleset handles except IOCTL_DEV, or opening DEVICE again is refused"
elif [ "$(rows 6 6)" = "$(row "fd opened after: TCGETS" ok)" ]; then
	fail step-2-ioctl-denied "ioctl() on the device opened after the sandbox went through: handle IOCTL_DEV, and leave it out of the rule for /; $(first_diff "$want" "$got")"
else
	fail step-2-ioctl-denied "Landlock decides at open(): the fd opened before keeps its rights, the one opened after gets EACCES; $(first_diff "$want" "$got")"
fi

want="$(row "fd opened after: FIONBIO" ok)
$(row "fd opened after: write()" ok)"
expect_lines step-3-still-allowed "FIONBIO is always allowed, and write() is not an ioctl" "$want" "$(rows 7 8)"

run_prog 20 "$dir/sandbox" --abi 4 $dev
want="$(row "landlock ABI" 4)
$(row LANDLOCK_ACCESS_FS_IOCTL_DEV dropped)
$(row sandboxed ok)
$(row "fd opened before: TCGETS" ok)
$(row "fd opened after: TCGETS" ok)"
got=$(rows 2 6)
if [ "$got" = "$want" ]; then
	pass step-4-best-effort
elif [ "$(rows 2 2)" != "$(row "landlock ABI" 4)" ]; then
	fail step-4-best-effort "with --abi 4, use ABI 4 even though the kernel has $abi; $(first_diff "$want" "$got")"
else
	fail step-4-best-effort "best effort on ABI 4: it does not know IOCTL_DEV, so leave it out of handled_access_fs and sandbox with the rest; $(first_diff "$want" "$got")"
fi
