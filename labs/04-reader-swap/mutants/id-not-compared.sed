# SPDX-License-Identifier: MIT
# The reader ID remembered but never compared: the second call's sub-buffer
# is decoded from the first call's reader.read even when it is a new one.
# want: step-4-partial: the second call swapped in a new sub-buffer \(reader.id changed\): decode it from its start
/TODO 5:/,/END TODO 5/s/pos = m.meta->reader.id == id ? first_read : 0;/pos = first_read;\n\t(void)id;/
