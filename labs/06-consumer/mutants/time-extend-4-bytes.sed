# SPDX-License-Identifier: MIT
# A time extend skipped as 4 bytes, not 8: its second word, the delta's
# upper bits, is decoded as the next record's header.
# want: step-3-count: .*time extend \(type_len 30, 8 bytes, no event\): skip all 8 bytes
/TODO 3:/,/END TODO 3/{/type_len >= 30/{n;s/pos += 8;/pos += 4;/}}
