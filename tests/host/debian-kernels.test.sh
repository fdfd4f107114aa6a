# SPDX-License-Identifier: MIT
# make check-debian-kernels' verdict (tests/check-debian-kernels.sh
# --verdict): a failure its kernel's expect file names passes, with the
# count said; any other failure or skip, and an expect line that matched
# nothing (stale), fails the kernel. And each kernel it knows has its
# suites and expect files.
. tests/host/lib.sh
verdict() { tests/check-debian-kernels.sh --verdict "$WORK_DIR/expect" "$WORK_DIR/results"; }
cat >"$WORK_DIR/expect" <<'END'
# a comment
FAIL a/map.*: mapping only
SKIP a/skipped: no such thing there
FLAKY a/timing: late under load, sometimes
END
printf '%s\n' 'PASS: a/one' 'FAIL: a/map.x: ENODEV' 'FAIL: a/map.y: ENODEV' 'SKIP: a/skipped: why' >"$WORK_DIR/results"
out=$(verdict) && rc=0 || rc=$?
expect_eq expected-only-exit 0 "$rc"
expect_eq expected-only-counts "1 passed, 2 failed (2 expected), 1 skipped (1 expected)" "$(tail -n 1 <<<"$out")"

echo 'FAIL: a/other: broke' >>"$WORK_DIR/results"
out=$(verdict) && rc=0 || rc=$?
expect_eq unexpected-fail-exit 1 "$rc"
expect_match unexpected-fail-named '^Unexpected: FAIL: a/other: broke$' "$out"

printf '%s\n' 'PASS: a/one' 'FAIL: a/map.x: ENODEV' 'SKIP: a/other: why' >"$WORK_DIR/results"
out=$(verdict) && rc=0 || rc=$?
expect_eq unexpected-skip-exit 1 "$rc"
expect_match unexpected-skip-named '^Unexpected: SKIP: a/other: why$' "$out"
expect_match stale-line-named '^Expected, did not come .*SKIP a/skipped: no such thing there$' "$out"

# A FLAKY line: its failure is expected, its absence is not stale.
printf '%s\n' 'PASS: a/one' 'FAIL: a/map.x: ENODEV' 'SKIP: a/skipped: why' 'FAIL: a/timing: late' >"$WORK_DIR/results"
out=$(verdict) && rc=0 || rc=$?
expect_eq flaky-failed-exit 0 "$rc"
expect_eq flaky-failed-counts "1 passed, 2 failed (2 expected), 1 skipped (1 expected)" "$(tail -n 1 <<<"$out")"

printf '%s\n' 'SKIP: a/skipped: why' >"$WORK_DIR/results"
out=$(verdict) && rc=0 || rc=$?
expect_eq nothing-ran-exit 1 "$rc"
expect_match nothing-ran-said '^No test ran\.$' "$out"

for name in $(vm/debian-kernel.sh --names); do
	check "files/$name" test -f "tests/debian-kernels/$name.suites" -a -f "tests/debian-kernels/$name.expect"
done

# With SUITES (make check's few suites), only their expect lines count:
# the a/ lines above are not stale when suite a did not run.
printf '%s\n' 'PASS: b/one' >"$WORK_DIR/results"
out=$(tests/check-debian-kernels.sh --verdict "$WORK_DIR/expect" "$WORK_DIR/results" 'b c') && rc=0 || rc=$?
expect_eq suites-only-exit 0 "$rc"
out=$(tests/check-debian-kernels.sh --verdict "$WORK_DIR/expect" "$WORK_DIR/results" 'a b') && rc=0 || rc=$?
expect_eq suites-stale-exit 1 "$rc"
expect_match suites-stale-named '^Expected, did not come .*FAIL a/map\.\*: mapping only$' "$out"
for name in $(vm/debian-kernel.sh --names); do
	check "check-files/$name" test -f "tests/debian-kernels/$name.check-suites" -a -f "tests/debian-kernels/$name.check-results"
done

# With a PLAN (make check's NAME.check-results): the declared results pass;
# one that never came (a suite that ended early, exit 0) or one not
# declared fails, named; a plan that is not there fails.
printf '%s\n' '# the plan' 'b/one  # a note' 'b/two ' >"$WORK_DIR/plan"
plan_verdict() { tests/check-debian-kernels.sh --verdict "$WORK_DIR/expect" "$WORK_DIR/results" b "$1"; }
printf '%s\n' 'PASS: b/one' 'PASS: b/two' >"$WORK_DIR/results"
out=$(plan_verdict "$WORK_DIR/plan") && rc=0 || rc=$?
expect_eq plan-met-exit "0: 2 passed, 0 failed (0 expected), 0 skipped (0 expected)" "$rc: $out"
printf '%s\n' 'PASS: b/one' >"$WORK_DIR/results"
out=$(plan_verdict "$WORK_DIR/plan") && rc=0 || rc=$?
expect_eq plan-missing-exit 1 "$rc"
expect_match plan-missing-named '^Missing result \(declared in .*/plan, never reported, or fewer times than declared\): b/two$' "$out"
printf '%s\n' 'PASS: b/one' 'PASS: b/two' 'PASS: b/three' >"$WORK_DIR/results"
out=$(plan_verdict "$WORK_DIR/plan") && rc=0 || rc=$?
expect_eq plan-undeclared-exit 1 "$rc"
expect_match plan-undeclared-named '^Undeclared result \(not in .*/plan, or more times than declared\): b/three$' "$out"
printf '%s\n' 'b/one' 'b/one' 'b/two' >"$WORK_DIR/plan-twice"
printf '%s\n' 'PASS: b/one' 'PASS: b/two' >"$WORK_DIR/results"
out=$(plan_verdict "$WORK_DIR/plan-twice") && rc=0 || rc=$?
expect_match plan-twice-named '^Missing result \(.*, or fewer times than declared\): b/one$' "$out"
out=$(plan_verdict "$WORK_DIR/no-plan") && rc=0 || rc=$?
expect_eq plan-absent-exit 1 "$rc"
expect_match plan-absent-named '^No declared results: .*/no-plan is missing' "$out"

# The rows of docs/matrix/results.csv (tests/matrix-table.sh, both runs'
# writer): a kernel's row replaced, a new one added, the others kept.
(
	. vm/lib.sh
	. tests/matrix-table.sh
	MATRIX_CSV=$WORK_DIR/table.csv
	printf '%s\n' "$MATRIX_HEADER" 'b,old' 'z,kept' >"$MATRIX_CSV"
	printf 'CONFIG_PAGE_SHIFT=16\nCONFIG_CPU_BIG_ENDIAN=y\n' >"$WORK_DIR/config"
	matrix_row b "$WORK_DIR/config" "6.12 s390x" "x y" "1 passed" 0 1.5 30 abc >"$WORK_DIR/row-b"
	matrix_row a "$WORK_DIR/config" "" "x" "0 passed" 1 "" 3 abc >"$WORK_DIR/row-a"
	matrix_table "$WORK_DIR/row-b" "$WORK_DIR/row-a"
) 2>&1
today=$(date -u +%Y-%m-%d)
expect_eq table-rows "$(printf '%s\n' "kernel,release,machine,page size,byte order,suites,results,as expected,boot (s),run (s),date,commit" \
	"a,?,?,65536,big,x,\"0 passed\",no,?,3,$today,abc" \
	"b,6.12,s390x,65536,big,x y,\"1 passed\",yes,1.5,30,$today,abc" 'z,kept')" "$(cat "$WORK_DIR/table.csv")"

# The guest's kernel log, kept (vm/lib.sh's kernel_log_split, used for
# OUT/NAME.dmesg and the debug guest's): what follows the mark moves from
# the console's log to its own file; without the mark, the file says so.
# split CONSOLE_TEXT: its exit status, the console's log and the file after.
split() {
	printf '%b' "$1" >"$WORK_DIR/console"
	(
		. vm/lib.sh
		kernel_log_split "$WORK_DIR/console" "$WORK_DIR/dmesg" && echo 0 || echo "$?"
	) 2>&1 | tr '\n' ' '
	tr '\n' ' ' <"$WORK_DIR/console"
	echo "| $(cat "$WORK_DIR/dmesg" 2>&1)" | tr '\n' ' '
}
expect_eq kernel-log-split "0 PASS: a/one | [    1.0] Ring buffer [1] commit overrun reboot " \
	"$(split 'PASS: a/one\r\n=== dmesg\r\n[    1.0] Ring buffer [1] commit overrun\r\nreboot\r\n')"
expect_match kernel-log-missing-said "^1 PASS: a/one.* [|] no kernel log: the guest did not print it " "$(split 'PASS: a/one\r\n')"
