#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make lab-check's script (labs/lab-check.sh), which builds the learner's
# copy while the guest boots, on lab 08 in a folder of its own under
# labs/work: the solution passes, a mutant of it fails with its step, and
# a copy that does not build fails with the compiler's message, without a
# check run. Its guest: busybox and the guest library only
# (lab 08's check needs no program of ours).
. tests/host/lib.sh
. vm/guest.conf
lab=08-mseal
root=$WORK_DIR/root
mkdir -p "$root$GUEST_PREFIX/tests"
cp tests/vm/guest-lib.sh tests/results.sh "$root$GUEST_PREFIX/tests/"
guest_initramfs "$root" || exit 0
mkdir -p labs/work
work=$(mktemp -d labs/work/lab-check-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

# lab_check: labs/lab-check.sh on $work; sets rc, out (its stdout and
# stderr) and results (the result lines it wrote).
lab_check() {
	rc=0
	out=$(UAPI=$HEADERS_DIR LAB_RUN=$WORK_DIR/run VM_TIMEOUT=300 VM_MEMORY=256 \
		labs/lab-check.sh "$lab" "$work" "$INITRAMFS" 2>&1) || rc=$?
	results=$(cat "$WORK_DIR/run/$lab.results" 2>/dev/null || true)
}

cp "labs/$lab/seal.c" "$work/"
lab_check
steps=$(grep -c '^PASS: labs/08-mseal/step-' <<<"$results" || true)
if [ "$rc" = 0 ] && [ "$steps" = 5 ] && ! grep -q '^FAIL' <<<"$results"; then
	pass solution-passes
else
	fail solution-passes "want exit 0 and 5 PASS lines; got exit $rc, $steps: $(tr '\n' '|' <<<"$out")"
fi
expect_eq verdict-removed "" "$(ls -A "$work" | grep '^\.built' || true)"

mutant=labs/$lab/mutants/flags-not-zero.sed
want=$(sed -n 's/^# want: \([^:]*\):.*/\1/p' "$mutant")
sed -f "$mutant" "labs/$lab/seal.c" >"$work/seal.c"
lab_check
if [ "$rc" = 1 ] && grep -q "^FAIL: labs/08-mseal/$want: " <<<"$results"; then
	pass mutant-fails
else
	fail mutant-fails "want exit 1 and 'FAIL: labs/08-mseal/$want'; got exit $rc: $(tr '\n' '|' <<<"$out")"
fi

echo 'int broken(' >>"$work/seal.c"
lab_check
if [ "$rc" = 1 ] && grep -q "does not build (above); the check did not run" <<<"$out" &&
	grep -q 'error:' <<<"$out" && [ -z "$results" ]; then
	pass broken-build-fails
else
	fail broken-build-fails "want exit 1, the compiler's error, 'does not build' and no result; got exit $rc: $(tr '\n' '|' <<<"$out") results: $results"
fi
