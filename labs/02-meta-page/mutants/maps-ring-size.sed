# SPDX-License-Identifier: MIT
# Remapped nr_subbufs * subbuf_size bytes, the ring, not the meta-page (blind w11).
# want: step-1-map: .*nr_subbufs \* subbuf_size, the size of the ring
/TODO 1:/,/END TODO 1/{s/meta != MAP_FAILED && meta->meta_page_size > len/meta != MAP_FAILED/;s/size_t full = meta->meta_page_size;/size_t full = (size_t)meta->nr_subbufs * meta->subbuf_size;/}
