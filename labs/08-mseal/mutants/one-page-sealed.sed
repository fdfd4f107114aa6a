# SPDX-License-Identifier: MIT
# Only the first page sealed: the second can still be unmapped.
# want: step-3-blocked: munmap of the second page went through: was the seal only one page long
/TODO 1:/,/END TODO 1/s/sys_mseal(p, 2 \* page, 0)/sys_mseal(p, page, 0)/
