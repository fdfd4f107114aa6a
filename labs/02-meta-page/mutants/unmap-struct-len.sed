# SPDX-License-Identifier: MIT
# The mapping unmapped with meta_struct_len, not its length (blind w03).
# want: step-1-map: munmap of 80 bytes .* meta_struct_len
s/^	munmap(meta, len);$/	munmap(meta, meta->meta_struct_len);/
