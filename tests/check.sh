#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check: build the guests' images and the examples, run the suites
# (CHECK_SUITES, CHECK_JOBS at once, through make -k), then tests/summary.sh
# on their results with the plan tests/expected-results (a declared result
# missing or one undeclared fails) and the time table. Exits 1 on any
# failure. The Makefile's check target runs it, with in the environment:
#   MAKE, CHECK_DIR, CHECK_SUITES, CHECK_JOBS, GUEST_ROOT, LAB_ROOT, OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
for v in MAKE CHECK_DIR CHECK_SUITES CHECK_JOBS GUEST_ROOT LAB_ROOT OUT_DIR; do
	[ -n "${!v:-}" ] || { echo "tests/check.sh: $v is not set (run it through make check)" >&2; exit 2; }
done
times=$CHECK_DIR/times
timed() { tests/timed.sh "$times" "$@"; }
if [ "${1:-}" = --suites ]; then
	# The run itself, timed as a whole by the call below.
	timed build/guest "$MAKE" -s initramfs
	timed build/lab-guest "$MAKE" -s initramfs-lab
	KERNEL_VARIANT=debug timed build/debug-guest "$MAKE" -s OUT_DIR="$OUT_DIR/debug" initramfs
	timed build/examples "$MAKE" -s examples
	# shellcheck disable=SC2086 # CHECK_SUITES: a list of targets
	exec "$MAKE" -s -k -j"$CHECK_JOBS" --output-sync=target CHECK_NEEDS= LAB_CHECK_NEEDS= \
		GUEST_INITRAMFS="$(vm/initramfs.sh "$GUEST_ROOT")" LAB_INITRAMFS="$(vm/initramfs.sh "$LAB_ROOT")" $CHECK_SUITES
fi
rm -rf "$CHECK_DIR" && mkdir -p "$CHECK_DIR"
rc=0
timed "check, all of it" "$0" --suites || rc=$?
# The CPU floor: the wall time the run's CPU seconds need at the least on
# this machine's cores.
whole=$(tail -n 1 "$times")
awk -F'\t' -v cores="$(nproc)" \
	'{ printf "CPU floor (its CPU / %d cores)\t%.1f\t-\n", cores, $3 / cores }' <<<"$whole" >>"$times"
tests/summary.sh --plan tests/expected-results --times "$times" "$CHECK_DIR"/*.results || rc=1
[ "$rc" = 0 ] || { echo "make check: failed (a failure above, or a suite's make recipe exited $rc)" >&2; exit 1; }
