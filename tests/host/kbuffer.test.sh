# SPDX-License-Identifier: MIT
# Differential test: examples/lib/tracemap.c against libtraceevent's kbuffer
# (libtraceevent-dev) on synthetic sub-buffers and on ones captured in the
# guest (tests/host/data). Known disagreements are tests of their own, with
# the reason in kbuffer_diff.c.
. tests/host/lib.sh
if [ ! -f /usr/include/traceevent/kbuffer.h ]; then
	fail libtraceevent "libtraceevent-dev is not installed (make deps)"
	exit 0
fi
check_build build "$WORK_DIR/kbuffer_diff" --lib -Itests/host tests/host/kbuffer_diff.c -ltraceevent || exit 0
run_checked kbuffer_diff-exit "$WORK_DIR/kbuffer_diff" tests/host/data/cap4k.raw 4096 tests/host/data/cap8k.raw 8192
