# SPDX-License-Identifier: MIT
# The rule for / grants every handled right, IOCTL_DEV included.
# want: step-2-ioctl-denied: ioctl\(\) on the device opened after the sandbox went through
/TODO 3:/,/END TODO 3/s/\.allowed_access = handled & ~LANDLOCK_ACCESS_FS_IOCTL_DEV,/.allowed_access = handled,/
