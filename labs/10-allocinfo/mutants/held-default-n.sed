# SPDX-License-Identifier: MIT
# allocinfo -m MODULE without -n 0: the tool's 10 lines by default, so a
# module with more sites holding memory is undercounted (blind).
# want: step-3-held: that is leak_sites_many's 10 biggest sites
/TODO 3:/,/END TODO 3/s/-m "\$2" -n 0/-m "$2"/
