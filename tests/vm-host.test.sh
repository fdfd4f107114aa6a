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
