# SPDX-License-Identifier: MIT
# reader.id printed from meta->reader.read (blind w07).
# want: step-2-fields: reader.id printed the value of reader.read
/TODO 2:/,/END TODO 2/s/meta->reader.id);/meta->reader.read);/
