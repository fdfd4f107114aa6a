# SPDX-License-Identifier: MIT
# The snapshots given to allocinfo diff the other way round: the leak
# looks like a shrink.
# want: step-2-grew: did not grow: .allocinfo diff OLD NEW. takes the older snapshot first
/TODO 2:/,/END TODO 2/s/diff "\$2" "\$3"/diff "$3" "$2"/
