# SPDX-License-Identifier: MIT
# read() with a buffer of 16 KiB, the sub-buffer size of the page's
# transcript, whatever buffer_subbuf_size_kb says (blind): in larger
# sub-buffers each read() gets part of one.
# want: step-1-read: its read\(\)s of trace_pipe_raw asked for as few as 16384 bytes, a sub-buffer is (32768|65536) here
/TODO 1:/,/END TODO 1/s/size_t size = (size_t)kb \* 1024;/size_t size = 16384;/
