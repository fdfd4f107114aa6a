# SPDX-License-Identifier: MIT
# --abi N taken as the ABI without asking the kernel, which may know less
# (blind): a kernel older than N refuses the ruleset and nothing is sandboxed.
# want: step-4-best-effort: with --abi [1-4] it never asked the kernel for its ABI
/TODO 1:/,/END TODO 1/{s/abi = sys_landlock_create_ruleset(NULL, 0,/abi = max_abi < 1000 ? max_abi : sys_landlock_create_ruleset(NULL, 0,/}
