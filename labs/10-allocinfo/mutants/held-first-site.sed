# SPDX-License-Identifier: MIT
# allocinfo -n 1: only the module's biggest site added up.
# want: step-3-held: that is one site of leak_sites: it has two
/TODO 3:/,/END TODO 3/s/-m "\$2" -n 0/-m "$2" -n 1/
