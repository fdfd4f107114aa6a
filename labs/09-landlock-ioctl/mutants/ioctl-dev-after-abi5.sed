# SPDX-License-Identifier: MIT
# IOCTL_DEV added only for ABI > 5, an off-by-one on "ABI 5 adds IOCTL_DEV":
# dropped on a real ABI 5 kernel (6.10, 6.11) (blind).
# want: step-4-best-effort: with --abi 5: ABI 5 is the first that knows IOCTL_DEV
/TODO 2:/,/END TODO 2/s/if (abi >= 5)/if (abi > 5)/
