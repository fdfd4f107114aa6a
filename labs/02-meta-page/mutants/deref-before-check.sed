# SPDX-License-Identifier: MIT
# meta_page_size read before mmap's result is checked (blind w09).
# want: step-1-map: .*crashed, exited 139 \(SIGSEGV\): check mmap's result
/TODO 1:/,/END TODO 1/s/meta != MAP_FAILED && meta->meta_page_size > len/meta->meta_page_size > len/
