# SPDX-License-Identifier: MIT
# The read() drain prints the transcript's numbers instead of counting
# what read() returns (blind: the output looks right).
# want: step-1-read: it printed 6029 events of 530552 bytes, but its read\(\)s of trace_pipe_raw returned 0 bytes in all
/TODO 1:/,/END TODO 1/{s/while (read(fd, page, size) > 0)/events = 6029, bytes = 530552;\n\tif (0)/;/if (errno != EAGAIN)/,/lab_die("read");/d}
