# SPDX-License-Identifier: MIT
# Each sub-buffer's address is computed as after a meta-page of one page,
# 6.10's layout (blind): in 6.12's the meta-page is a sub-buffer's size,
# and the drain reads the middle of another sub-buffer.
# want: step-2-mmap: it printed: .*is count\(\) given the sub-buffer of the last reader.id\? Take its address from lab_subbuf
/TODO 2:/,/END TODO 2/s/count(lab_subbuf(&m, id), m.meta->subbuf_size, pos,/count((const char *)m.meta + sysconf(_SC_PAGESIZE) +\n\t\t\t      (size_t)id * m.meta->subbuf_size,\n\t\t      m.meta->subbuf_size, pos,/
