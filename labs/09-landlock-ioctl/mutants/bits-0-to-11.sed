# SPDX-License-Identifier: MIT
# ABI 1's rights as MAKE_SYM - 1 (blind): bits 0 to 11, MAKE_SYM left out,
# so symbolic links can still be made anywhere.
# want: step-1-abi: landlock_create_ruleset\(\) was given handled_access_fs 0x[0-9a-f]+, want 0x[0-9a-f]+ for ABI [0-9]+ \(yours lacks MAKE_SYM\)
/TODO 2:/,/END TODO 2/s/rights = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;/rights = LANDLOCK_ACCESS_FS_MAKE_SYM - 1;/
