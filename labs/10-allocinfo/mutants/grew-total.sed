# SPDX-License-Identifier: MIT
# The bytes and calls columns printed instead of the growth columns.
# want: step-2-grew: that is what the site holds, not what it grew
/TODO 2:/,/END TODO 2/s/print module, \$1, \$2/print module, $3, $4/
