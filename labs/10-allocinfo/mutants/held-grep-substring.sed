# SPDX-License-Identifier: MIT
# Every line of /proc/allocinfo holding the module's name added up: the
# lines of a module whose name starts with it (leak_sites_many) too (blind).
# want: step-3-held: that adds the [0-9]* bytes of leak_sites_many's sites
/TODO 3:/,/END TODO 3/s/allocinfo -m "\$2" -n 0 | awk 'NR > 1 {/grep -F "$2" \/proc\/allocinfo | awk '{/
