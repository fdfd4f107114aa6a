# SPDX-License-Identifier: MIT
# On a new reader.id the drain keeps its offset in the last sub-buffer
# unless it is at or past the new reader.read (blind: "pos = pos < end ?
# pos : 0"). Sub-buffers of events of one size all end at the same commit,
# so the offset is always reset; after one that ends 4 bytes short (no
# room for padding), the next one, full to the end, is skipped.
# want: step-2-mmap: [0-9]+ events, want [0-9]+: its GET_READER calls handed over all [0-9]+ .*from offset 0 of a sub-buffer with a new reader.id
/TODO 2:/,/END TODO 2/s/^\t\t\tpos = 0;$/\t\t\tif (pos >= m.meta->reader.read)\n\t\t\t\tpos = 0;/
