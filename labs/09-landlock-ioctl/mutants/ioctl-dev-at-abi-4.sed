# SPDX-License-Identifier: MIT
# IOCTL_DEV handled from ABI 4 (blind, an off-by-one on "ABI 5 adds
# IOCTL_DEV"): a real ABI 4 kernel refuses the ruleset.
# want: step-4-best-effort: best effort on ABI 4: it does not know IOCTL_DEV
/TODO 2:/,/END TODO 2/s/if (abi >= 5)/if (abi >= 4)/
