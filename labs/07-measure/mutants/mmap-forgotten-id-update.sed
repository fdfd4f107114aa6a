# SPDX-License-Identifier: MIT
# The reader's ID is never remembered: every call looks like a new
# sub-buffer, and the sub-buffer address is computed from ID -1 (lab.h's
# lab_subbuf() refuses it, where the sum crashed before).
# want: step-2-mmap: .*ID 4294967295 is past the last .*reader.id of the last GET_READER
/TODO 2:/,/END TODO 2/{s/int64_t id = m.meta->reader.id;/int64_t id = -1;/;/^\t\t\tid = m.meta->reader.id;$/d}
