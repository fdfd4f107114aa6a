# SPDX-License-Identifier: MIT
# The first unload line dmesg has, as if the module were unloaded once per boot.
# want: step-4-unload: (that is alloc_leak's first unload in this boot|at rmmod the kernel logs)
/TODO 4:/,/END TODO 4/{/echo "leak.sh: rmmod/d;s/index(\$0, mark) { bytes = 0; next }/done { next }/;s/sub(\/\.\* has \/, ""); bytes += \$1/sub(\/.* has \/, ""); bytes = $1; done = 1/}
