# SPDX-License-Identifier: MIT
# TODO 5 tells the same sub-buffer from a new one by reader.read having
# grown, not by reader.id: a new sub-buffer fuller than the first call's
# (after the writer lapped the buffer) is decoded from the first call's
# reader.read, and its first events are skipped (blind).
# want: step-4-partial: after the writer lapped a [0-9]* KiB buffer.*a new reader.id is a new sub-buffer, decode it from its start whatever reader.read says
/TODO 5:/,/END TODO 5/s/pos = m.meta->reader.id == id ? first_read : 0;/pos = m.meta->reader.read > first_read ? first_read : 0;\n\t(void)id;/
