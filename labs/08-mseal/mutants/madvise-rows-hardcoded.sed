# SPDX-License-Identifier: MIT
# The two madvise rows printed as the page shows them, madvise() never
# called (blind): the rows and the memory are right, the calls were not made.
# want: step-4-madvise: it printed 'madvise MADV_DONTNEED \(read-only\).*' but made no madvise\(\) call
/TODO 4:/,/END TODO 4/{s/CALL_ROW("madvise MADV_DONTNEED (read-only)",/result_row("madvise MADV_DONTNEED (read-only)", "refused",/;s/^\t\t madvise(ro, page, MADV_DONTNEED) == 0);/\t\t   EPERM);/;s/CALL_ROW("madvise MADV_DONTNEED (writable)",/result_row("madvise MADV_DONTNEED (writable)", "ok",/;s/^\t\t madvise(rw, page, MADV_DONTNEED) == 0);/\t\t   0);/}
