# SPDX-License-Identifier: MIT
# On a new reader.id the drain keeps its offset in the last sub-buffer
# (blind: resets it only when it is past the new reader.read), so it skips
# the start of each new sub-buffer, although GET_READER handed it over.
# want: step-2-mmap: [0-9]+ events, want [0-9]+: its GET_READER calls handed over all [0-9]+ .*from offset 0 of a sub-buffer with a new reader.id
/TODO 2:/,/END TODO 2/s/^\t\t\tpos = 0;$/\t\t\tif (pos > m.meta->reader.read)\n\t\t\t\tpos = 0;/
