# SPDX-License-Identifier: MIT
# pos not reset when reader.id changes: the new sub-buffer is decoded from
# where the last one stopped.
# want: step-4-many-sub-buffers: .*decoding starts at its offset 0
/TODO 2:/,/END TODO 2/{/^\t\t\tpos = 0;$/d}
