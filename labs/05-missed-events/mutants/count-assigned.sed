# SPDX-License-Identifier: MIT
# missed = count instead of += (blind): a drain that meets two flagged
# sub-buffers keeps only the last count.
# want: step-1-missed-count: .*two flagged sub-buffers.*only the second's count: add each count to missed \(\+=\)
/TODO 1:/,/END TODO 1/s/missed += count;/missed = count;/
