# SPDX-License-Identifier: MIT
# The snapshot is the allocinfo tool's top 10, not the file itself.
# want: step-1-snapshot: a snapshot is all of /proc/allocinfo
/TODO 1:/,/END TODO 1/s/cat \/proc\/allocinfo >"\$2"/allocinfo >"$2"/
