# SPDX-License-Identifier: MIT
# Counting from reader.read after the call: that is where the kernel's read
# ends, so nothing is counted.
# want: step-2-mmap: 0 events, want [0-9]+: drain until nothing is left
/TODO 2:/,/END TODO 2/{/count(lab_subbuf(&m, id), m.meta->subbuf_size, pos,/s/pos,/m.meta->reader.read,/}
