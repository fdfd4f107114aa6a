# SPDX-License-Identifier: MIT
# The mapping drain maps CPU 0's buffer whatever CPU it is asked for.
# want: step-2-mmap: .*asked for CPU [1-9][0-9]* .*it took [0-9]+ events from CPU 0's buffer .*not a fixed CPU 0
/TODO 2:/,/END TODO 2/s/lab_map(&m, cpu, O_NONBLOCK);/lab_map(\&m, 0, O_NONBLOCK);\n\t(void)cpu;/
