# SPDX-License-Identifier: MIT
# The stats of CPU 0 read whatever CPU was asked (the page's CPU 0).
# want: step-3-producer-consumer: .*is CPU 0's: read per_cpu/cpuN/stats of the CPU asked
/TODO 3:/,/END TODO 3/s|"/per_cpu/cpu%d/stats", cpu)|"/per_cpu/cpu0/stats")|
/END TODO 3/i\
\t(void)cpu;
