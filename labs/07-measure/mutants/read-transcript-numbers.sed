# SPDX-License-Identifier: MIT
# The read() drain prints the transcript's numbers instead of counting
# what read() returns (blind: the output looks right).
# want: step-1-read: it printed 11625 events of 744024 bytes, but its read\(\)s of trace_pipe_raw returned 0 bytes in all
/TODO 1:/,/END TODO 1/{s/while (read(fd, page, size) > 0)/events = 11625, bytes = 744024;\n\tif (0)/;/if (errno != EAGAIN)/,/lab_die("read");/d}
