# SPDX-License-Identifier: MIT
# The drain stops when the meta-page's counters say nothing is unread
# (entries - overrun - read = 0), not when a call brings nothing new
# (blind): an event the writer adds after the call returned is left.
# want: step-2-mmap: third drain, of CPU [0-9]+ while the writer adds .*: it counted the [0-9]+ events GET_READER handed over, but stopped with [0-9]+ left in the buffer: .*or it stops on something else, such as the meta-page's entries, overrun and read
/TODO 2:/,/END TODO 2/s/^\t\tpos = m.meta->reader.read;$/&\n\t\tif (m.meta->entries - m.meta->overrun - m.meta->read == 0)\n\t\t\tbreak;/
