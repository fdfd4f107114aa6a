#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The debug guest: boot the debug kernel (KERNEL_VARIANT=debug, built with
# vm/kernel-debug.config: lockdep, sleep-in-atomic checks, KASAN) once, run
# the ring-buffer selftests and the producer's tests in it, then its kernel
# log. Prints their result lines under debug/, one line for the kernel log
# (any lockdep, KASAN, WARN, BUG or oops report fails it) and the run time.
#   KERNEL_VARIANT=debug tests/vm-debug.sh INITRAMFS OUTDIR
set -euo pipefail
. "$(dirname "$0")/results.sh"
. "$(dirname "$0")/../vm/lib.sh"
SUITE=debug
[ "${KERNEL_VARIANT:-}" = debug ] || { echo "tests/vm-debug.sh: run it with KERNEL_VARIANT=debug" >&2; exit 2; }
initramfs=${1:?usage: tests/vm-debug.sh INITRAMFS OUTDIR} out=${2:?usage: tests/vm-debug.sh INITRAMFS OUTDIR}
mkdir -p "$out"
channel=$out/debug-guest.channel console=$out/debug-console.log dmesg=$out/debug-dmesg.log
rm -f "$channel" "$console" "$dmesg"
start=$SECONDS rc=0
# loglevel=5 puts warnings on the console as they happen; the full kernel
# log follows the tests (KERNEL_LOG_CMD, vm/lib.sh) and is kept in $dmesg.
vm/run.sh --initramfs "$initramfs" --timeout 1800 --append loglevel=5 \
	--channel "$channel" --log "$console" -- \
	'/opt/trace-mmap-guide/tests/run-guest-tests.sh rb-selftests seq-producer;' "$KERNEL_LOG_CMD" \
	>/dev/null 2>&1 || rc=$?
echo "debug guest: boot and tests took $((SECONDS - start)) s (console: $console)" >&2
# The guest's results, renamed under debug/ (no channel: the run failed,
# and its results are missing).
[ ! -f "$channel" ] || sed -E 's/^(PASS|FAIL|SKIP): /\1: debug\//' "$channel"
[ "$rc" = 0 ] || fail guest-run "the debug guest run failed (exit $rc); see $console"
[ -f "$console" ] && kernel_log_split "$console" "$dmesg" ||
	fail kernel-log-complete "the guest did not print its kernel log; see $console"
# lockdep, KASAN and sleep-in-atomic reports all start with "WARNING:" or
# "BUG:"; lockdep also says when it gave up.
reports=$(cat "$console" "$dmesg" 2>/dev/null |
	grep -E 'WARNING:|BUG:|Oops|INFO: (task|lockdep)|general protection fault|turning off the locking correctness validator' || true)
expect_eq no-kernel-reports "" "$(head -n 1 <<<"$reports" | tr -d '\r')"
