# SPDX-License-Identifier: MIT
# The reader sub-buffer's offset counted from 0, not after the meta-page.
# want: step-1-address: starts at meta_page_size \+ reader.id \* subbuf_size
/TODO 1:/,/END TODO 1/s/offset = meta->meta_page_size +/offset = /
