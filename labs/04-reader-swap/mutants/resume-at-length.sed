# SPDX-License-Identifier: MIT
# TODO 5 resumes at reader.read minus the first call's, the length of the
# new bytes, not where they start: right only when the events before the
# first call and between the calls are of one size (blind).
# want: step-4-partial: with [0-9]* events of sizes chosen per run in the sub-buffer before ./swap started
/TODO 5:/,/END TODO 5/s/pos = m.meta->reader.id == id ? first_read : 0;/pos = m.meta->reader.id == id ? m.meta->reader.read - first_read : 0;/
