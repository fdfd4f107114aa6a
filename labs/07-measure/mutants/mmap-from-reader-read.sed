# SPDX-License-Identifier: MIT
# Counting from reader.read after the call: that is where the kernel's read
# ends, so nothing is counted.
# want: step-2-mmap: 0 events, want [0-9]+: its GET_READER calls handed over all [0-9]+ .*count the bytes each call brings
/TODO 2:/,/END TODO 2/{/count(lab_subbuf(&m, id), m.meta->subbuf_size, pos,/s/pos,/m.meta->reader.read,/}
