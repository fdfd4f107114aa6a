# SPDX-License-Identifier: MIT
# read() with a buffer of a fixed 64 KiB, the sub-buffer size of the
# page's transcript (blind): right in sub-buffers of up to 64 KiB; in
# larger ones each read() gets part of one.
# want: step-1-read: fourth drain, of CPU [0-9]+ in 128 KiB sub-buffers .*asked for as few as 65536 bytes, a sub-buffer is 131072 here
/TODO 1:/,/END TODO 1/s/size_t size = (size_t)kb \* 1024;/size_t size = 65536;/
