# SPDX-License-Identifier: MIT
# The reader's ID is never remembered: every call looks like a new
# sub-buffer, and the sub-buffer address is computed from ID -1.
# want: step-2-mmap: it crashed, exited 139 \(SIGSEGV\): .*reader.id of the last GET_READER
/TODO 2:/,/END TODO 2/{/id = m.meta->reader.id;/d}
