# SPDX-License-Identifier: MIT
# The ABI written into the program, the one of the kernel it was tried on
# (blind): right on 6.12 only.
# want: step-1-abi: it printed ABI [0-9]+, but never asked the kernel
/TODO 1:/,/END TODO 1/{s/abi = sys_landlock_create_ruleset(NULL, 0,/abi = 6;/;/^\t\t\t\t\t  LANDLOCK_CREATE_RULESET_VERSION);/d}
