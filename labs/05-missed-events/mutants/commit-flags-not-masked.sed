# SPDX-License-Identifier: MIT
# The commit word used as the data length with its flags still set: the
# count is read far past the sub-buffer.
# want: step-1-missed-count: .*flags masked
/TODO 1:/,/END TODO 1/s/lab_commit(subbuf, size),/word,/
/END TODO 1/i\
\t(void)size;
