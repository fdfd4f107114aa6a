# SPDX-License-Identifier: MIT
# The munmap row unmaps the first page instead of the second (blind): the
# seal refuses it all the same, so the row is right, but it is the wrong page.
# want: step-3-blocked: munmap of the second page: munmap\(\) was called on 4096 bytes at p \+ 0, not on the second page
/TODO 3:/,/END TODO 3/s/munmap(p + page, page) == 0/munmap(p, page) == 0/
