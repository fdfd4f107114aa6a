# SPDX-License-Identifier: MIT
# Where the kernel accepts one sub-buffer mapped alone: with 8 KiB
# sub-buffers, page offsets 1 to 5 of trace_pipe_raw (check_aid offsets;
# tests/vm/foundation.test.sh checks them against meta_page_size +
# i * subbuf_size; the matrix's x86_64-610-layout kernel writes its own).
. "$GUEST_PREFIX/tests/guest-lib.sh"
trace_reset
echo 8 >$TRACEFS/buffer_subbuf_size_kb
event_burst 800
echo "$ echo 8 > buffer_subbuf_size_kb; check_aid offsets 0"
check_aid offsets 0
trace_reset
