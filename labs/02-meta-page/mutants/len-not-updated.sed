# SPDX-License-Identifier: MIT
# Remapped meta_page_size bytes, but len left at one page (blind w05).
# want: step-1-map: munmap of 4096 bytes on its mapping of [0-9]* bytes .*was len updated
/TODO 1:/,/END TODO 1/{/len = full;/{N;s/^.*\n\(\t*\)meta = mmap(NULL, len,/\1meta = mmap(NULL, full,/}}
