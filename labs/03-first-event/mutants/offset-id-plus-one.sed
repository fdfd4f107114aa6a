# SPDX-License-Identifier: MIT
# offset = (reader.id + 1) * subbuf_size (blind), from "6.12 pads the
# meta-page to a sub-buffer": right on 6.12's layout only, one sub-buffer
# minus one page too far in 6.10's.
# want: step-1-address: .*\(reader.id \+ 1\) \* subbuf_size holds only while the meta-page is one sub-buffer long
/TODO 1:/,/END TODO 1/{
/offset = meta->meta_page_size +/{
N
s/.*/\toffset = (size_t)(meta->reader.id + 1) * meta->subbuf_size;/
}
}
