#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make lab-check: build the learner's copy of a lab while the guest boots,
# then run the lab's check in the guest on what was built; print the
# result lines, record them for make labs-status, and exit 1 if the copy
# does not build (the guest then powers off without running the check) or
# a step failed. The guest waits for the build's verdict in WORK/.built (on
# the share) before it starts the check: the boot, QEMU's start to the
# guest's command, takes 1.5 s or more, the build 0.4 s on an idle machine,
# so the build no longer adds to the round trip.
#   labs/lab-check.sh LAB WORK INITRAMFS
# WORK: the learner's folder, inside the repository (the guest sees it
# through the share). In the environment: UAPI (as labs/build.sh), LAB_RUN
# (the folder of the console log and results), VM_TIMEOUT, VM_MEMORY.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# = 3 ] || { echo "usage: labs/lab-check.sh LAB WORK INITRAMFS" >&2; exit 2; }
lab=$1 work=${2%/} initramfs=$3
for v in UAPI LAB_RUN VM_TIMEOUT; do
	[ -n "${!v:-}" ] || { echo "labs/lab-check.sh: $v is not set (run it through make lab-check)" >&2; exit 2; }
done
[ -f "labs/$lab/check.sh" ] || { echo "labs/lab-check.sh: unknown lab '$lab'" >&2; exit 2; }
[ -d "$work" ] || { echo "labs/lab-check.sh: no folder '$work'" >&2; exit 2; }
case $(realpath "$work") in
"$(pwd -P)"/*) ;;
*) echo "labs/lab-check.sh: '$work' is not inside the repository, which the guest sees" >&2; exit 2 ;;
esac
work=$(realpath --relative-to=. "$work")
verdict=$work/.built results=$LAB_RUN/$lab.results log=$LAB_RUN/$lab.log
mkdir -p "$LAB_RUN"
rm -f "$verdict" "$verdict.tmp" "$results"
builder=''
# An interrupted run: stop the build (its subshell, which would write the
# verdict), then remove the verdict.
trap '[ -z "$builder" ] || { kill "$builder" 2>/dev/null; wait "$builder" 2>/dev/null; }; rm -f "$verdict" "$verdict.tmp"' EXIT

# build: labs/build.sh, its messages on this terminal; then "ok" or
# "failed" into the verdict file, whole (renamed into place).
build() {
	local r=ok
	labs/build.sh "$work" "$work" || r=failed
	echo "$r" >"$verdict.tmp" && mv "$verdict.tmp" "$verdict"
	[ "$r" = ok ]
}
echo "lab-check: $lab: building $work while the guest boots (console: $log)"
build &
builder=$!
guest="while [ ! -s '/mnt/share/$verdict' ]; do sleep 0.05; done
[ \"\$(cat '/mnt/share/$verdict')\" = ok ] || exit 0
sh /mnt/share/labs/$lab/check.sh '/mnt/share/$work'"
vm_rc=0
vm/run.sh --initramfs "$initramfs" --timeout "$VM_TIMEOUT" --share "$PWD" --channel "$results" -- "$guest" \
	>"$log" 2>&1 || vm_rc=$?
build_rc=0
wait "$builder" || build_rc=$?
builder=''
if [ "$build_rc" != 0 ]; then
	echo "lab-check: $work does not build (above); the check did not run" >&2
	exit 1
fi
[ "$vm_rc" = 0 ] || tests/result.sh "labs/$lab" fail guest-run "the guest run failed (exit $vm_rc); see $log" >>"$results"
grep -qE '^(PASS|FAIL): ' "$results" 2>/dev/null ||
	tests/result.sh "labs/$lab" fail no-result "the check reported nothing; see $log" >>"$results"
cat "$results"
# make labs-status remembers the learner's own copy (labs/work/LAB).
[ "$work" != "labs/work/$lab" ] || labs/status.sh record "$lab" "$results"
! grep -q '^FAIL: ' "$results"
