# SPDX-License-Identifier: MIT
# Makes the fd O_NONBLOCK after the first wake (to drain) and leaves it so:
# every later wait busy-polls GET_READER at 100% of a CPU (blind).
# want: step-2-streams: after its first events its trace_pipe_raw is O_NONBLOCK
/^\t\tif (meta->reader.id != id) {$/i\
\t\tif (id == UINT32_MAX)\
\t\t\tfcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
