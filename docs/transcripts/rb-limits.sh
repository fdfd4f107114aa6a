# SPDX-License-Identifier: MIT
# What the kernel refuses while CPU 0's ring buffer is mapped, with 4 KiB
# and then 8 KiB sub-buffers.
. "$GUEST_PREFIX/tests/guest-lib.sh"
for kb in 4 8; do
	trace_reset
	echo "$kb" >$TRACEFS/buffer_subbuf_size_kb
	echo "$ echo $kb > buffer_subbuf_size_kb; rb_peek limits"
	rb_peek limits
done
trace_reset
