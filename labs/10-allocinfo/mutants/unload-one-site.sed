# SPDX-License-Identifier: MIT
# Only the last unload line taken, as if a module had one allocation site.
# want: step-4-unload: that is one of leak_sites' two sites
/TODO 4:/,/END TODO 4/s/bytes += \$1/bytes = $1/
