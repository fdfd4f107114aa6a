# SPDX-License-Identifier: MIT
# mremap "onto another mapping" with MREMAP_MAYMOVE alone (blind): new_address
# is ignored, yet the seal refuses it with EPERM all the same, so the row is
# right.
# want: step-3-blocked: mremap move onto another mapping: mremap\(\) was called with flags 0x1, without MREMAP_FIXED
/TODO 3:/,/END TODO 3/s/MREMAP_MAYMOVE | MREMAP_FIXED,/MREMAP_MAYMOVE,/
