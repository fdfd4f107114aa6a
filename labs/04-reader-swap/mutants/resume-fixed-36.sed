# SPDX-License-Identifier: MIT
# TODO 5 resumes at byte 36, where an empty sub-buffer's first event ends
# (the page's transcript), not at the remembered reader.read (blind).
# want: step-4-partial: with [0-9]* events of sizes chosen per run in the sub-buffer before ./swap started
/TODO 5:/,/END TODO 5/s/pos = m.meta->reader.id == id ? first_read : 0;/pos = m.meta->reader.id == id ? 36 : 0;\n\t(void)first_read;/
