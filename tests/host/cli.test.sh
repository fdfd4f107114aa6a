# SPDX-License-Identifier: MIT
# Every example program follows one command-line convention
# (examples/common/cli.h): --help prints its usage on stdout and exits 0, an
# unknown option is one line on stderr and exit 2, and a stdout that fails
# is an error (exit 1), never a silent success.
. tests/host/lib.sh
build_examples build || exit 0
programs=$(make -s --no-print-directory -C examples -f Makefile -f - print-programs <<'MK'
print-programs:
	@echo $(PROGRAMS)
MK
)
[ -n "$programs" ] || { fail programs "no PROGRAMS in examples/Makefile"; exit 0; }
for p in $programs; do
	bin=$EXAMPLES/$p
	rc=0
	"$bin" --help >"$WORK_DIR/out" 2>"$WORK_DIR/err" || rc=$?
	expect_eq "$p/help" "0 usage: $p 0" "$rc $(head -n 1 "$WORK_DIR/out" | cut -d' ' -f1,2) $(wc -l <"$WORK_DIR/err")"
	rc=0
	"$bin" --no-such-option >"$WORK_DIR/out" 2>"$WORK_DIR/err" || rc=$?
	expect_eq "$p/bad-option" "2 1 $p: unknown option" \
		"$rc $(wc -l <"$WORK_DIR/err") $(cut -d' ' -f1-3 "$WORK_DIR/err")"
	rc=0
	"$bin" --help >/dev/full 2>"$WORK_DIR/err" || rc=$?
	expect_eq "$p/stdout-full" "1 $p: writing to stdout: No space left on device" "$rc $(cat "$WORK_DIR/err")"
done
