# SPDX-License-Identifier: MIT
# REFER handled from ABI 1 (>= 1 instead of >= 2, blind): an ABI 1 kernel
# refuses the ruleset. Caught only when the check runs --abi 1.
# want: step-4-best-effort: landlock_create_ruleset\(\) was given handled_access_fs 0x3fff, want 0x1fff for ABI 1 \(yours has REFER too\)
/TODO 2:/,/END TODO 2/s/if (abi >= 2)/if (abi >= 1)/
