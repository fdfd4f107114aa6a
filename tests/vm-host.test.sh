#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host side of the guest runner: the command's exit status reaches the
# host, and a guest that dies or hangs is a failure, never a pass.
#   tests/vm-host.test.sh INITRAMFS
set -euo pipefail
initramfs=$1
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# expect_status NAME WANT TIMEOUT COMMAND
expect_status() {
	local rc=0
	"$(dirname "$0")/../vm/run.sh" --initramfs "$initramfs" --timeout "$3" -- "$4" >"$log" 2>&1 || rc=$?
	if [ "$rc" = "$2" ]; then
		echo "PASS: vm-host/$1"
	else
		echo "FAIL: vm-host/$1: wanted exit $2, got $rc: $(tail -n 1 "$log")"
	fi
}

expect_status exit-status-reaches-host 7 120 'exit 7'
expect_status success-is-zero 0 120 'true'
expect_status guest-dies-early-is-failure 255 120 'reboot -f'
expect_status hang-is-killed 255 8 'sleep 600'

# make vm-run passes a command with quotes and separators through intact.
rc=0
make -s vm-run CMD='set -- "a b" c; [ "$1" = "a b" ] && exit 5' >"$log" 2>&1 || rc=$?
# (GNU make itself exits 2 when a recipe fails; the status is in its message.)
if [ "$rc" = 2 ] && grep -q '^vm-run: the guest command exited 5$' "$log"; then
	echo "PASS: vm-host/make-vm-run-quoting"
else
	echo "FAIL: vm-host/make-vm-run-quoting: wanted 'exited 5', got exit $rc: $(tail -n 2 "$log" | tr '\n' ' ')"
fi
