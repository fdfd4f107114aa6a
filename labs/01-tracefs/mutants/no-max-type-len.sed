# SPDX-License-Identifier: MIT
# header_event: the "data max type_len" line is left out.
# want: step-2-header-event: .*got nothing, want 'max_type_len 28'
/TODO 2:/,/END TODO 2/{/data max type_len/d}
