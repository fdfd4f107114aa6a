# SPDX-License-Identifier: MIT
# ro never made read-only, and the row its madvise should give printed as
# the page says instead of called: the rows are right, the calls are not.
# want: step-4-madvise: madvise MADV_DONTNEED \(read-only\): no other mapping was made read-only \(mprotect PROT_READ\) and then sealed
/TODO 4:/,/END TODO 4/{s/if (mprotect(ro, page, PROT_READ) || sys_mseal(ro, page, 0) ||/if (sys_mseal(ro, page, 0) ||/;s/CALL_ROW("madvise MADV_DONTNEED (read-only)",/result_row("madvise MADV_DONTNEED (read-only)", "refused",/;s/^\t\t madvise(ro, page, MADV_DONTNEED) == 0);/\t\t   EPERM);/}
