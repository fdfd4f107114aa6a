# SPDX-License-Identifier: MIT
# TODO 3 never closes (nor flushes) the file: PERCENT reaches buffer_percent
# only when ./swap exits, after GET_READER waited with the old value (blind).
# want: step-3-buffer-percent: returned after 1 events.*buffer_percent was 0 while ./swap waited in GET_READER.*close \(or flush\)
/TODO 3:/,/END TODO 3/s/ || fclose(f))/)/
