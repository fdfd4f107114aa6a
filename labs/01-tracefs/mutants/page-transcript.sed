# SPDX-License-Identifier: MIT
# header_page copied from the transcript: right only for 4 KiB sub-buffers
# (a blind learner's mistake).
# want: step-1-header-page: with buffer_subbuf_size_kb [0-9]+, data's size is [0-9]+: .*not the transcript's numbers; line 4: got 'data 16 4080'
/TODO 1:/,/END TODO 1/s/^\tsed .*/\tprintf 'timestamp 0 8\\ncommit 8 8\\noverwrite 8 1\\ndata 16 4080\\n'/
