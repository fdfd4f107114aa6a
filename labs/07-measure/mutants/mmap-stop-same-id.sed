# SPDX-License-Identifier: MIT
# The drain ends at the first call that brings the same reader.id again,
# after counting what it added, as if the writer could not add more to the
# reader sub-buffer while the drain runs (blind): passes a drain of a
# buffer no one writes to, unless the second drain's events spill over
# onto the next sub-buffer.
# want: step-2-mmap: (second drain of CPU [0-9]+: [0-9]+ events, want the [0-9]+ written .*go on until a call brings nothing new|third drain, of CPU [0-9]+ while the writer adds .*: it counted the [0-9]+ events GET_READER handed over, but stopped with [0-9]+ left in the buffer: .*either it stops at the first call that brings the same reader.id)
/TODO 2:/,/END TODO 2/s/^\t\t} else if (pos == m.meta->reader.read) {$/\t\t} else {\n\t\t\tcount(lab_subbuf(\&m, id), m.meta->subbuf_size, pos,\n\t\t\t      m.meta->reader.read);/
