# SPDX-License-Identifier: MIT
# The drain starts at offset 0 of whatever reader sub-buffer it finds, as if
# no one had read before: what an earlier drain took is counted again.
# want: step-2-mmap: second drain of CPU [0-9]+: [0-9]+ events, want the [0-9]+ written since the first drain.*start from the meta-page's reader.read
/TODO 2:/,/END TODO 2/{s/int64_t id = m.meta->reader.id;/int64_t id = -1;/;s/uint32_t pos = m.meta->reader.read;/uint32_t pos = 0;/}
