#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run every host test script tests/host/*.test.sh (or those named); each
# prints PASS:/FAIL:/SKIP: lines (tests/host/lib.sh). Exported for them:
# SUITE (the script's name), OUT_DIR (the build folder), HEADERS_DIR (the
# 6.12 uapi headers), TREE_DIR (the patched kernel tree). With CHECK_TIMES
# set, each script's wall and CPU time go there (tests/timed.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/results.sh
export OUT_DIR=${OUT_DIR:-_build}
export B=$OUT_DIR # the old name, for tests not yet on tests/host/lib.sh
export HEADERS_DIR TREE_DIR
HEADERS_DIR=$(vm/kernel.sh --print-var HEADERS_DIR)
TREE_DIR=$(vm/kernel.sh --print-var TREE_DIR)
mkdir -p "$OUT_DIR/host"
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/host/*.test.sh)
for t in "${tests[@]}"; do
	SUITE=$(basename "$t" .test.sh)
	if [ ! -f "$t" ]; then
		fail script "no test $t"
		continue
	fi
	echo "=== $t" >&2
	SUITE=$SUITE ${CHECK_TIMES:+tests/timed.sh "$CHECK_TIMES" "host/$SUITE"} bash "$t" ||
		fail script "exited $?"
done
