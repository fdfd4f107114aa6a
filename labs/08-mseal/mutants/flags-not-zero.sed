# SPDX-License-Identifier: MIT
# mseal called with flags 1: no flag is defined, so EINVAL.
# want: step-1-seal: mseal refused with EINVAL: .*flags 0
/TODO 1:/,/END TODO 1/s/sys_mseal(p, 2 \* page, 0)/sys_mseal(p, 2 * page, 1)/
