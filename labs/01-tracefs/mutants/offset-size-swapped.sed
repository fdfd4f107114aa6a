# SPDX-License-Identifier: MIT
# header_page: offset and size printed the other way round.
# want: step-1-header-page: .*line 1: got 'timestamp 8 0', want 'timestamp 0 8'
/TODO 1:/,/END TODO 1/s/\\1 \\2 \\3/\\1 \\3 \\2/
