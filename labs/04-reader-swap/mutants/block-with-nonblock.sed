# SPDX-License-Identifier: MIT
# Step 2 maps from an O_NONBLOCK fd: GET_READER returns before any event.
# want: step-2-block: returned after 0 events.*O_NONBLOCK
/TODO 2:/,/END TODO 2/s/lab_map(&m, cpu, 0);/lab_map(\&m, cpu, O_NONBLOCK);/
