# SPDX-License-Identifier: MIT
# The meta-page mapped PROT_READ | PROT_WRITE from the read-only fd (EACCES).
# want: step-1-map: mmap said EACCES: .*PROT_READ only
/TODO 1:/,/END TODO 1/s/PROT_READ, MAP_SHARED/PROT_READ | PROT_WRITE, MAP_SHARED/
