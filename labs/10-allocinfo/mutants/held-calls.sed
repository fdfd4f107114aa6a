# SPDX-License-Identifier: MIT
# The calls column added up instead of the bytes.
# want: step-3-held: that is the calls: the first column of allocinfo is bytes
/TODO 3:/,/END TODO 3/s/bytes += \$1/bytes += $2/
