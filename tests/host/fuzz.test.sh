# SPDX-License-Identifier: MIT
# A short bounded pass of the sub-buffer decoder's fuzzer (tests/fuzz/):
# every committed corpus input replayed, then FUZZ_CHECK_SECONDS (default
# 30) of libFuzzer with ASan and UBSan. "make fuzz" runs it longer.
set -euo pipefail
dir=$B/host/$SUITE
seconds=${FUZZ_CHECK_SECONDS:-30}
if [ "$(ls tests/fuzz/corpus | wc -l)" -gt 0 ]; then
	echo "PASS: $SUITE/corpus-committed"
else
	echo "FAIL: $SUITE/corpus-committed: tests/fuzz/corpus is empty"
fi
if out=$(tests/fuzz/run.sh "$dir" "$seconds" 2>&1); then
	echo "$out" >&2
	echo "PASS: $SUITE/subbuf-decoder-${seconds}s"
else
	echo "FAIL: $SUITE/subbuf-decoder-${seconds}s: $(echo "$out" | tail -n 1)"
fi
