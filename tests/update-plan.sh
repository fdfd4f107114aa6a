#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Write tests/expected-results, the plan make check holds its results to,
# from the results of the last make check (CHECK_DIR, by default
# _build/check), and tests/debian-kernels/NAME.check-results, each Debian
# kernel's own (from OUT_DIR/debian-check/NAME.results, its suites' lines,
# which make check counts as one result per kernel). Run it after adding,
# renaming or removing a test, and review the diff: a line removed is a
# result no longer checked.
#   tests/update-plan.sh [CHECK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-${OUT_DIR:-_build}/check}
compgen -G "$dir/*.results" >/dev/null ||
	{ echo "tests/update-plan.sh: no results in $dir: run make check first" >&2; exit 2; }
{
	cat <<'HEAD'
# SPDX-License-Identifier: MIT
# The plan of make check: every result it must report, one "suite/name" a
# line (twice if reported twice). tests/summary.sh --plan fails the run on a
# result declared here that never came (a test that did not run, or a
# program that died first) and on a result not declared here. Written by
# tests/update-plan.sh from a make check's results; review its diff.
HEAD
	tests/summary.sh --names "$dir"/*.results
} >tests/expected-results
echo "tests/expected-results: $(grep -vc '^#' tests/expected-results) results declared"
for kernel in $(vm/debian-kernel.sh --names); do
	results=${OUT_DIR:-_build}/debian-check/$kernel.results
	plan=tests/debian-kernels/$kernel.check-results
	if [ ! -f "$results" ]; then
		echo "$plan: not written (no $results)"
		continue
	elif grep -q "^FAIL: debian-$kernel/guest-run" "$results"; then
		echo "tests/update-plan.sh: $results is of a failed guest run: not written" >&2
		exit 2
	fi
	{
		cat <<HEAD
# SPDX-License-Identifier: MIT
# The results make check's run on Debian's $kernel must report, one a line
# (tests/check-debian-kernels.sh --check): a declared result that never
# came, or one not declared, fails debian-guest/$kernel. Written by
# tests/update-plan.sh from a make check's results; review its diff.
HEAD
		tests/summary.sh --names "$results"
	} >"$plan"
	echo "$plan: $(grep -vc '^#' "$plan") results declared"
done
