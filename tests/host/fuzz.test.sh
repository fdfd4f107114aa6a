# SPDX-License-Identifier: MIT
# A short bounded pass of every libFuzzer harness of tests/fuzz/ (the
# sub-buffer decoder; the format-file and header_page parsers with the
# payload formatter; a directory of format files): each committed corpus
# input replayed, then FUZZ_CHECK_SECONDS (default 30) of libFuzzer with
# ASan and UBSan in all, split 3:2:1 (15 s, 10 s, 5 s; tests/fuzz/run.sh).
# "make fuzz" runs them longer.
. tests/host/lib.sh
seconds=${FUZZ_CHECK_SECONDS:-30}
names=()
for src in tests/fuzz/*_fuzz.c; do
	n=$(basename "$src" _fuzz.c)
	names+=("$n")
	expect_ge "corpus-committed/$n" 1 "$(ls -A "tests/fuzz/corpus/$n" 2>/dev/null | wc -l)" "files in tests/fuzz/corpus/$n"
done
out=$(tests/fuzz/run.sh "$WORK_DIR" "$seconds" "${names[@]}" 2>&1) || true
echo "$out" >&2
for n in "${names[@]}"; do
	line=$(grep "^fuzz $n: " <<<"$out" || true)
	case $line in
	*", no crash") pass "$n" ;;
	"") fail "$n" "no result from tests/fuzz/run.sh: $(tail -n 1 <<<"$out")" ;;
	*) fail "$n" "$line" ;;
	esac
done
