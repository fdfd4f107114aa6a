# SPDX-License-Identifier: MIT
# Every call's sub-buffer is counted from offset 0, also when the same
# reader.id comes back with a larger reader.read (blind).
# want: step-2-mmap: second drain of CPU [0-9]+: .*it counted that sub-buffer again from offset 0, and in a third drain.*count from where the last call stopped
/TODO 2:/,/END TODO 2/s/count(lab_subbuf(&m, id), m.meta->subbuf_size, pos,/count(lab_subbuf(\&m, id), m.meta->subbuf_size, 0,/
