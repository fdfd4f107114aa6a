# SPDX-License-Identifier: MIT
# Sub-buffers stepped through by the page size, not subbuf_size. Right
# with 4 KiB sub-buffers only (blind solution w03).
# want: step-1-address: sub-buffers are subbuf_size bytes apart, not 4096
s/(size_t)meta->reader.id \* meta->subbuf_size;/(size_t)meta->reader.id * 4096;/
