# SPDX-License-Identifier: MIT
# TODO 3 left out: buffer_percent keeps what it was.
# want: step-3-buffer-percent: buffer_percent is 0, not [0-9]*; did ./swap write it
/TODO 3:/,/END TODO 3/{/TODO 3/!d}
