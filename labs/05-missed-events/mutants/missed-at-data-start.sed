# SPDX-License-Identifier: MIT
# The missed count read at the start of the data, not after it.
# want: step-1-missed-count: .*right after its data, at 16 \+ commit
/TODO 1:/,/END TODO 1/s/subbuf + LAB_SUBBUF_HEADER + lab_commit(subbuf, size),/subbuf + LAB_SUBBUF_HEADER,/
/END TODO 1/i\
\t(void)size;
