# SPDX-License-Identifier: MIT
# The meta-page mapped MAP_PRIVATE: the kernel refuses it (EPERM).
# want: step-1-map: mmap said EPERM: .*MAP_SHARED only
/TODO 1:/,/END TODO 1/s/MAP_SHARED/MAP_PRIVATE/
