# SPDX-License-Identifier: MIT
# Every GET_READER decodes the reader sub-buffer from 0, not from where the
# last one stopped: events on the same sub-buffer come out twice.
# want: step-2-streams: .*line [0-9]+: got 'lab06 0'
/TODO 2:/,/END TODO 2/s/^\t\tif (meta->reader.id != id) {/\t\tpos = 0;\n&/
