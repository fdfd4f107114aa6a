# SPDX-License-Identifier: MIT
# Every GET_READER decodes the reader sub-buffer from 0, not from where the
# last one stopped: events on the same sub-buffer come out twice.
# want: step-[23]-(streams|count): 'lab06 [0-9]+' printed twice: on the same reader sub-buffer, decode only from where the last call stopped
/TODO 2:/,/END TODO 2/s/^\t\tif (meta->reader.id != id) {/\t\tpos = 0;\n&/
