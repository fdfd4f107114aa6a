# SPDX-License-Identifier: MIT
# --abi ignored: the kernel's ABI is used as it is.
# want: step-4-best-effort: with --abi [1-4], use ABI [1-4]
/TODO 1:/,/END TODO 1/{/if (abi > max_abi)/,/abi = max_abi;/d}
