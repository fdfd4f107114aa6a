#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 09 in the guest: the learner's ./sandbox against what Landlock
# does in 6.12 (security/landlock; docs/landlock.rst), and the kernel's ABI
# as the project's landlock_ioctl example reads it. ./sandbox runs as uid
# 65534 (nobody), where landlock_restrict_self() needs no_new_privs, on a
# tty node of its own whose name, like the ABI of --abi, changes per run.
#   sh check.sh DIR
SUITE=${SUITE:-labs/09-landlock-ioctl}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" sandbox step-1-abi
dev=/dev/lab09-tty$(rand 100 999)
LAB_CLEANUP="rm -f $dev"
# The console's device (5, 1), openable by nobody.
rm -f $dev && mknod -m 666 $dev c 5 1
grep -q '^nobody:' /etc/passwd 2>/dev/null || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
# sandbox ARGS...: ./sandbox ARGS as uid 65534.
sandbox() { run_prog 60 su -s /bin/sh nobody -c "$dir/sandbox $*"; }
# row OPERATION RESULT [ERRNO]: a row as the program prints it, blanks squeezed.
row() { echo "$1 | $2 | ${3:-}" | sed 's/ *$//'; }
rows() { echo "$prog_out" | sed -n "$1,$2p" | sed 's/  */ /g; s/ *$//'; }
abi=$(landlock_ioctl $dev 2>/dev/null | sed -n 's/^landlock ABI version used *| \([0-9]*\) .*/\1/p')

sandbox $dev
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
elif [ "$(rows 4 4)" = "$(row sandboxed refused EPERM)" ]; then
	fail step-2-ioctl-denied "landlock_restrict_self() is EPERM for a process without CAP_SYS_ADMIN (the check runs ./sandbox as uid 65534) unless it first called prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); $(first_diff "$want" "$got")"
elif [ "$prog_rc" != 0 ] && echo "$prog_out" | grep -q "$dev.*denied"; then
	fail step-2-ioctl-denied "./sandbox $(status_text $prog_rc): opening DEVICE again was refused, so the rule for / did not grant what the ruleset handles but IOCTL_DEV (check landlock_add_rule()'s result: a rule refused leaves a ruleset that denies everything)"
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

old=$(rand 1 4)
sandbox --abi $old $dev
want="$(row "landlock ABI" $old)
$(row LANDLOCK_ACCESS_FS_IOCTL_DEV dropped)
$(row sandboxed ok)
$(row "fd opened before: TCGETS" ok)
$(row "fd opened after: TCGETS" ok)"
got=$(rows 2 6)
if [ "$got" = "$want" ]; then
	# And on ABI 5, the first that knows IOCTL_DEV: handled there already.
	sandbox --abi 5 $dev
	want="$(row "landlock ABI" 5)
$(row LANDLOCK_ACCESS_FS_IOCTL_DEV handled)
$(row sandboxed ok)
$(row "fd opened before: TCGETS" ok)
$(row "fd opened after: TCGETS" refused EACCES)"
	expect_lines step-4-best-effort "with --abi 5: ABI 5 is the first that knows IOCTL_DEV (ABI >= 5, not > 5), so handle it and the TCGETS after is refused" "$want" "$(rows 2 6)"
elif [ "$(rows 2 2)" != "$(row "landlock ABI" $old)" ]; then
	fail step-4-best-effort "with --abi $old, use ABI $old even though the kernel has $abi; $(first_diff "$want" "$got")"
else
	fail step-4-best-effort "best effort on ABI $old: it does not know IOCTL_DEV, so leave it out of handled_access_fs and sandbox with the rest; $(first_diff "$want" "$got")"
fi
