# SPDX-License-Identifier: MIT
# TODO 3 writes the default, 50, instead of the PERCENT it was given.
# want: step-3-buffer-percent: buffer_percent is 50, not [0-9]*; did ./swap write it
/TODO 3:/,/END TODO 3/s/fprintf(f, "%s\\n", percent)/fprintf(f, "50\\n")/
