# SPDX-License-Identifier: MIT
# The rule for / grants nothing: the device cannot even be opened again.
# want: step-2-ioctl-denied: ./sandbox exited 1: the rule for / must grant everything
/TODO 3:/,/END TODO 3/s/\.allowed_access = handled & ~LANDLOCK_ACCESS_FS_IOCTL_DEV,/.allowed_access = 0,/
