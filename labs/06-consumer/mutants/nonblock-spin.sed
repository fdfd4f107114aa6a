# SPDX-License-Identifier: MIT
# Opens trace_pipe_raw O_NONBLOCK: GET_READER returns at once, the loop spins.
# want: step-1-waits: O_NONBLOCK.*spins
s/int fd = open(path, O_RDONLY);/int fd = open(path, O_RDONLY | O_NONBLOCK);/
