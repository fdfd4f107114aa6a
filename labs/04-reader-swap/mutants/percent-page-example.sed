# SPDX-License-Identifier: MIT
# TODO 3 writes the page's example, 60, whatever PERCENT it is given (blind).
# want: step-3-buffer-percent: buffer_percent is 60, not [0-9]*; did ./swap write it
/TODO 3:/,/END TODO 3/s/fprintf(f, "%s\\n", percent)/fprintf(f, "60\\n")/
