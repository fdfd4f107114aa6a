# SPDX-License-Identifier: MIT
# The mprotect row printed from the page, mprotect() never called.
# want: step-3-blocked: it printed 'mprotect PROT_READ \| refused \| EPERM' but made no mprotect\(\) call
/TODO 3:/,/END TODO 3/{s/CALL_ROW("mprotect PROT_READ", mprotect(p, 2 \* page, PROT_READ) == 0);/result_row("mprotect PROT_READ", "refused", EPERM);/}
