# SPDX-License-Identifier: MIT
# count() is given the sub-buffer header's size, 16, as where to start
# (blind): its from is a data offset, so the first event of each
# sub-buffer is taken but not counted.
# want: step-1-read: [0-9]+ events, want [0-9]+: its read\(\)s took all [0-9]+ .*events taken but not counted: where does count\(\) start
/TODO 1:/,/END TODO 1/s/count(page, size, 0, lab_commit(page, size));/count(page, size, LAB_SUBBUF_HEADER, lab_commit(page, size));/
