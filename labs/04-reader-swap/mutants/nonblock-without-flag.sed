# SPDX-License-Identifier: MIT
# Step 1 maps from a blocking fd: GET_READER waits on the empty buffer.
# want: step-1-nonblock: asleep in ioctl\(\) on an empty buffer.*O_NONBLOCK
/TODO 1:/,/END TODO 1/s/lab_map(&m, cpu, O_NONBLOCK);/lab_map(\&m, cpu, 0);/
