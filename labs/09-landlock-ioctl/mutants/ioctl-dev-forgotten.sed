# SPDX-License-Identifier: MIT
# handled_access_fs built without IOCTL_DEV: ioctl() stays unrestricted.
# want: step-1-abi: ABI [0-9]+ knows LANDLOCK_ACCESS_FS_IOCTL_DEV
/TODO 2:/,/END TODO 2/{/abi >= 5/,/IOCTL_DEV;/d}
