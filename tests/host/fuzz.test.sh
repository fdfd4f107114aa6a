# SPDX-License-Identifier: MIT
# A short bounded pass of the sub-buffer decoder's fuzzer (tests/fuzz/):
# every committed corpus input replayed, then FUZZ_CHECK_SECONDS (default
# 30) of libFuzzer with ASan and UBSan. "make fuzz" runs it longer.
. tests/host/lib.sh
seconds=${FUZZ_CHECK_SECONDS:-30}
if [ "$(ls tests/fuzz/corpus | wc -l)" -gt 0 ]; then
	pass corpus-committed
else
	fail corpus-committed "tests/fuzz/corpus is empty"
fi
if out=$(tests/fuzz/run.sh "$WORK_DIR" "$seconds" 2>&1); then
	echo "$out" >&2
	pass "subbuf-decoder-${seconds}s"
else
	fail "subbuf-decoder-${seconds}s" "$(echo "$out" | tail -n 1)"
fi
