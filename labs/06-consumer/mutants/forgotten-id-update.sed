# SPDX-License-Identifier: MIT
# A new reader sub-buffer resets pos but the ID is never remembered: the
# data pointer is computed from UINT32_MAX and the program crashes.
# want: step-2-streams: .*exited 139 \(SIGSEGV\)
/TODO 2:/,/END TODO 2/{/id = meta->reader.id;/d}
