# SPDX-License-Identifier: MIT
# IOCTL_DEV handled whatever the ABI: on ABI 4 the kernel would refuse the
# ruleset, and here ioctl() is denied although ABI 4 cannot restrict it.
# want: step-4-best-effort: best effort on ABI [1-4]: it does not know IOCTL_DEV
/TODO 2:/,/END TODO 2/s/if (abi >= 5)/if (abi >= 1)/
