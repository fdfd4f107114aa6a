# SPDX-License-Identifier: MIT
# read() with a buffer of one page, 4096 bytes, whatever the sub-buffer
# size (blind): each read() gets part of a sub-buffer.
# want: step-1-read: its read\(\)s of trace_pipe_raw asked for as few as 4096 bytes, a sub-buffer is [0-9]+ here
/TODO 1:/,/END TODO 1/s/size_t size = (size_t)kb \* 1024;/size_t size = 4096;/
