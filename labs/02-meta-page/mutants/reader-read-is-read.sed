# SPDX-License-Identifier: MIT
# reader.read printed from meta->read (blind w06).
# want: step-2-fields: reader.read is meta->reader.read
/TODO 2:/,/END TODO 2/s/meta->reader.read);/(unsigned int)meta->read);/
