# SPDX-License-Identifier: MIT
# The module is never unloaded; the last unload line of dmesg is reported.
# want: step-4-unload: alloc_leak is still loaded: rmmod it
/TODO 4:/,/END TODO 4/{/rmmod "\$2"/d}
