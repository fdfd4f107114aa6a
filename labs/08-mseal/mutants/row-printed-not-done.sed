# SPDX-License-Identifier: MIT
# ro never made read-only, and the row its madvise should give printed as
# the page says instead of called: the rows are right, the memory is not.
# want: step-5-memory-after: /proc/PID/smaps after its calls: sealed mappings '[0-9a-z -]*', want '4 r--p 4 rw-p 8 rw-p '
/TODO 4:/,/END TODO 4/{s/if (mprotect(ro, page, PROT_READ) || sys_mseal(ro, page, 0) ||/if (sys_mseal(ro, page, 0) ||/;s/CALL_ROW("madvise MADV_DONTNEED (read-only)",/result_row("madvise MADV_DONTNEED (read-only)", "refused",/;s/^\t\t madvise(ro, page, MADV_DONTNEED) == 0);/\t\t   EPERM);/}
