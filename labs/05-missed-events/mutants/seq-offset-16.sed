# SPDX-License-Identifier: MIT
# seq read at payload offset 16 (the 8-byte trace_entry counted twice).
# want: step-2-sequence: .*payload offset 16 .*seq is the u64 at payload offset 8
/TODO 2:/,/END TODO 2/s/ev->data + 8, sizeof(seq)/ev->data + 16, sizeof(seq)/
