# SPDX-License-Identifier: MIT
# The module the learner saw leak written into leak.sh: allocinfo -m alloc_leak.
# want: step-2-grew: this time leak_sites leaked most, not alloc_leak
/TODO 2:/,/END TODO 2/s/allocinfo -n 0 diff/allocinfo -m alloc_leak -n 0 diff/
