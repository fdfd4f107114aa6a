# SPDX-License-Identifier: MIT
# Every data event counted toward COUNT, only type 5 printed: with other
# events in the buffer it exits early (blind).
# want: step-6-buffer-sizes: .*it exited 0 after [0-9]* of the [0-9]* lines, each right: the seq_producer events
/^\t\t\tif (payload && \*(const uint16_t \*)payload == 5) {$/i\
\t\t\tif (payload && *(const uint16_t *)payload != 5)\
\t\t\t\tseen++;
