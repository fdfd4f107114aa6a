# SPDX-License-Identifier: MIT
# Step 1 maps from an O_NONBLOCK fd but never calls GET_READER, and prints
# rc 0 as if it had: right on an empty buffer only (blind).
# want: step-1-nonblock: with [0-9]* events in the buffer, GET_READER swaps in the sub-buffer
/TODO 1:/,/END TODO 1/s/rc = ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER);/rc = 0;/
