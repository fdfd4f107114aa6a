#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Write tests/expected-results, the plan make check holds its results to,
# from the results of the last make check (CHECK_DIR, by default
# _build/check). Run it after adding, renaming or removing a test, and
# review the diff: a line removed is a result no longer checked.
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
