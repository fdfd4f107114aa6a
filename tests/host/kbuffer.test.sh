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
# kbuffer_diff.c uses the kernel's kselftest harness, as the guest's tests do.
check_build build "$WORK_DIR/kbuffer_diff" --lib -Itests/host \
	-I "$TREE_DIR/tools/testing/selftests" tests/host/kbuffer_diff.c -ltraceevent || exit 0
run_tap kbuffer_diff "$WORK_DIR/kbuffer_diff"
