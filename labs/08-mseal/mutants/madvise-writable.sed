# SPDX-License-Identifier: MIT
# ro is sealed while still writable: MADV_DONTNEED goes through.
# want: step-4-madvise: MADV_DONTNEED went through on ro: .*mprotect PROT_READ first
/TODO 4:/,/END TODO 4/s/if (mprotect(ro, page, PROT_READ) || sys_mseal(ro, page, 0) ||/if (sys_mseal(ro, page, 0) ||/
