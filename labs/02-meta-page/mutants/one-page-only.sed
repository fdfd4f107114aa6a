# SPDX-License-Identifier: MIT
# Only one page mapped, never meta_page_size bytes (blind w01).
# want: step-1-map: it mapped one page only
/TODO 1:/,/END TODO 1/{/meta != MAP_FAILED && meta->meta_page_size > len/,/^	}/d}
