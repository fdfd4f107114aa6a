# SPDX-License-Identifier: MIT
# The first one-page mapping is not unmapped before the second (blind w04).
# want: step-1-map: the first one-page mapping was never unmapped
/TODO 1:/,/END TODO 1/{/munmap(meta, len);/d}
