#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run every host test script tests/host/*.test.sh (or those named); each
# prints PASS:/FAIL:/SKIP: lines. Exported for them: B (build folder),
# HEADERS_DIR (the 6.12 uapi headers), TREE_DIR (the patched kernel tree).
set -euo pipefail
cd "$(dirname "$0")/../.."
export B=${B:-_build}
export HEADERS_DIR TREE_DIR
HEADERS_DIR=$(vm/kernel.sh --print-var HEADERS_DIR)
TREE_DIR=$(vm/kernel.sh --print-var TREE_DIR)
mkdir -p "$B/host"
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/host/*.test.sh)
for t in "${tests[@]}"; do
	[ -f "$t" ] || continue
	echo "=== $t" >&2
	suite=$(basename "$t" .test.sh)
	if ! SUITE=$suite bash "$t"; then
		echo "FAIL: $suite/script: exited non-zero"
	fi
done
