# SPDX-License-Identifier: MIT
# The mprotect row asks for the protection p already has (blind): the seal
# refuses it all the same, so the row is right, but it tries no change.
# want: step-3-blocked: mprotect PROT_READ: mprotect\(\) was called with prot 0x3, not PROT_READ \(1\), which p already has
/TODO 3:/,/END TODO 3/s/mprotect(p, 2 \* page, PROT_READ) == 0/mprotect(p, 2 * page, PROT_READ | PROT_WRITE) == 0/
