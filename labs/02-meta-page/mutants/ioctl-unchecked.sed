# SPDX-License-Identifier: MIT
# The result of GET_READER is ignored: when it fails, the after-get-reader
# line shows stale counters as fresh (blind w08).
# want: step-3-when-it-changes: .*made to fail .*printed the after-get-reader line anyway: the ioctl's result was not checked
/TODO 3:/,/END TODO 3/{
s/if (ioctl(fd, TRACE_MMAP_IOCTL_GET_READER) < 0)/ioctl(fd, TRACE_MMAP_IOCTL_GET_READER);/
/lab_die("TRACE_MMAP_IOCTL_GET_READER")/d
}
