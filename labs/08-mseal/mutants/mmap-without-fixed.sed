# SPDX-License-Identifier: MIT
# mmap over p without MAP_FIXED (blind): p is only a hint, the kernel maps
# a new page elsewhere and the call succeeds.
# want: step-3-blocked: mmap over p went through: map with MAP_FIXED at p itself: without MAP_FIXED
/TODO 3:/,/END TODO 3/s/MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,/MAP_PRIVATE | MAP_ANONYMOUS, -1,/
