# SPDX-License-Identifier: MIT
# The read() drain opens per_cpu/cpu0/trace_pipe_raw whatever CPU it is
# asked for (blind: the path copied from the page).
# want: step-1-read: .*asked for CPU [1-9][0-9]* .*it took [0-9]+ events from CPU 0's buffer .*not a fixed per_cpu/cpu0
/TODO 1:/,/END TODO 1/s|"/per_cpu/cpu%d/trace_pipe_raw", cpu);|"/per_cpu/cpu0/trace_pipe_raw");\n\t(void)cpu;|
