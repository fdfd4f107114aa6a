#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The VM runner (vm/run.sh) seen from the host: the command's exit status
# reaches the host, a guest that dies or hangs is a failure, never a pass,
# the timeout is the one asked for, and make vm-run passes a command intact.
# Boots a bare guest (busybox and vm/init only) a few times.
. tests/host/lib.sh
mkdir -p "$WORK_DIR/root"
guest_initramfs "$WORK_DIR/root" || exit 0
log=$WORK_DIR/log

# expect_status NAME WANT TIMEOUT COMMAND
expect_status() {
	local rc=0
	vm/run.sh --initramfs "$INITRAMFS" --timeout "$3" -- "$4" >"$log" 2>&1 || rc=$?
	expect_eq "$1" "exit $2" "exit $rc$( [ "$rc" = "$2" ] || echo ": $(tail -n 1 "$log")")"
}
expect_status exit-status-reaches-host 7 120 'exit 7'
expect_status success-is-zero 0 120 'true'
expect_status guest-dies-early-is-failure 255 120 'reboot -f'
expect_status hang-is-killed 255 8 'sleep 600'

# The timeout handed to timeout(1), seen through a stand-in that records its
# arguments instead of starting QEMU (no boot): 600 s by default, none by
# default with --interactive, and an explicit one always as given.
mkdir -p "$WORK_DIR/fake"
printf '#!/bin/sh\n[ "$1" != --foreground ] || shift\necho "$3" >"%s/timeout-arg"\n' "$WORK_DIR" \
	>"$WORK_DIR/fake/timeout"
chmod +x "$WORK_DIR/fake/timeout"
# expect_timeout NAME WANT RUN_ARGS...
expect_timeout() {
	local name=$1 want=$2
	shift 2
	rm -f "$WORK_DIR/timeout-arg"
	PATH=$WORK_DIR/fake:$PATH ACCEL=tcg vm/run.sh --initramfs "$INITRAMFS" "$@" -- true \
		</dev/null >/dev/null 2>&1 || true
	expect_eq "$name" "$want" "$(cat "$WORK_DIR/timeout-arg" 2>/dev/null || echo 'not run')"
}
expect_timeout timeout-default 600
expect_timeout timeout-explicit 30 --timeout 30
expect_timeout timeout-interactive-default 0 --interactive
expect_timeout timeout-interactive-explicit-600 600 --interactive --timeout 600

# make vm gives the shell no time limit unless VM_TIMEOUT is given.
shell_timeout() { make -n vm "$@" 2>/dev/null | sed -n 's/.*vm\/run\.sh .*--interactive.*/&/p' |
	grep -o -- '--timeout [0-9]*' || echo none; }
expect_eq make-vm-no-time-limit none "$(shell_timeout)"
expect_eq make-vm-time-limit-when-asked "--timeout 60" "$(shell_timeout VM_TIMEOUT=60)"

# make vm-run passes a command with quotes and separators through intact.
rc=0
make -s vm-run CMD='set -- "a b" c; [ "$1" = "a b" ] && exit 5' >"$log" 2>&1 || rc=$?
# (GNU make itself exits 2 when a recipe fails; the status is in its message.)
if [ "$rc" = 2 ] && grep -q '^vm-run: the guest command exited 5$' "$log"; then
	pass make-vm-run-quoting
else
	fail make-vm-run-quoting "wanted 'exited 5', got exit $rc: $(tail -n 2 "$log")"
fi

# make vm-run mounts the repository at /mnt/share, as make vm does.
rc=0
make -s vm-run CMD='test -f /mnt/share/Makefile -a -d /mnt/share/labs' >"$log" 2>&1 || rc=$?
expect_eq make-vm-run-shares-repository "exit 0" "exit $rc$( [ "$rc" = 0 ] || printf ': %s' "$(tail -n 1 "$log")")"
