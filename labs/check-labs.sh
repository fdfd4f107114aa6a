#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-labs: build each lab's solution, skeleton and mutants
# (labs/build-all.sh), check them in LAB_GUESTS guests at once, which share
# the labs as they go (labs/check-all.sh, LAB_CLAIMS), and print all the
# result lines, also into CHECK_DIR/labs.results; a lab that no guest
# checked fails labs/all-checked, a guest run that fails labs/guest-run-N.
#   labs/check-labs.sh INITRAMFS LAB...
# The Makefile's check-labs target runs it, with in the environment:
#   CHECK_DIR, CHECK_TIMES, LAB_RUN, LAB_GUESTS, UAPI, VM_TIMEOUT
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: labs/check-labs.sh INITRAMFS LAB..." >&2; exit 2; }
for v in CHECK_DIR CHECK_TIMES LAB_RUN LAB_GUESTS UAPI VM_TIMEOUT; do
	[ -n "${!v:-}" ] || { echo "labs/check-labs.sh: $v is not set (run it through make check-labs)" >&2; exit 2; }
done
. tests/results.sh
SUITE=labs
initramfs=$1 run=$LAB_RUN
shift
timed() { tests/timed.sh "$CHECK_TIMES" "$@"; }
mkdir -p "$CHECK_DIR" "$run"
rm -rf "$run"/guest-*.results "$run/claims" && mkdir "$run/claims"
timed build/labs labs/build-all.sh "$run/check" "$@" >"$run/build.results"
for n in $(seq "$LAB_GUESTS"); do
	{
		timed "labs-guest-$n" vm/run.sh --initramfs "$initramfs" --timeout "$VM_TIMEOUT" \
			--share "$PWD" --channel "$run/guest-$n.results" -- \
			"LAB_CLAIMS=/mnt/share/$run/claims sh /mnt/share/labs/check-all.sh /mnt/share/labs /mnt/share/$run/check $*" \
			>"$run/console-$n.log" 2>&1 ||
			fail "guest-run-$n" "the guest run failed (exit $?); see $run/console-$n.log" >>"$run/guest-$n.results"
	} &
done
wait
unchecked=$(for l in "$@"; do [ -d "$run/claims/$l" ] || echo "$l"; done)
expect_eq all-checked "" "$(echo $unchecked)" >"$run/claims.results"
cat "$run/build.results" "$run/claims.results" "$run"/guest-*.results | tee "$CHECK_DIR/labs.results"
# The guests' "TIME: NAME SECONDS" lines into the time table.
sed -n 's|^TIME: \([^ ]*\) \([0-9.]*\)$|guest-\1\t\2\t-|p' "$run"/guest-*.results >>"$CHECK_TIMES"
