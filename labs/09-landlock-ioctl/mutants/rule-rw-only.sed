# SPDX-License-Identifier: MIT
# The rule for / grants read and write only (blind: "the device must be
# opened again"): the device rows are right, everything else is denied.
# want: step-2-ioctl-denied: the rule for / grants 0x6, want 0x[0-9a-f]+ \(yours lacks EXECUTE READ_DIR
/TODO 3:/,/END TODO 3/s/\.allowed_access = handled & ~LANDLOCK_ACCESS_FS_IOCTL_DEV,/.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE,/
