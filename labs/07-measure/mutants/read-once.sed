# SPDX-License-Identifier: MIT
# One read() of trace_pipe_raw, as if it returned the whole buffer.
# want: step-1-read: [0-9]+ events, want [0-9]+: drain until nothing is left.*loop until EAGAIN
/TODO 1:/,/END TODO 1/s/while (read(fd, page, size) > 0)/if (read(fd, page, size) > 0)/
/TODO 1:/,/END TODO 1/{/if (errno != EAGAIN)/,/lab_die("read");/d}
