# SPDX-License-Identifier: MIT
# Opens cpu0's trace_pipe_raw whatever the CPU argument: './stream 1 N'
# streams CPU 0's events (blind).
# want: step-5-long-events: it printed the markers written on CPU 0
s|cpu%s/trace_pipe_raw", argv\[1\]);|cpu0/trace_pipe_raw");|
