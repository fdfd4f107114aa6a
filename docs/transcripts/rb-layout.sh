# SPDX-License-Identifier: MIT
# The mapping's layout for 4, 8 and 16 KiB sub-buffers (buffer_size_kb as
# trace_reset leaves it): meta_page_size, nr_subbufs and sub-buffer offsets.
. "$GUEST_PREFIX/tests/guest-lib.sh"
for kb in 4 8 16; do
	trace_reset
	echo "$kb" >$TRACEFS/buffer_subbuf_size_kb
	echo "$ echo $kb > buffer_subbuf_size_kb; cat buffer_size_kb"
	cat $TRACEFS/buffer_size_kb
	echo "$ rb_peek layout"
	rb_peek layout
done
trace_reset
