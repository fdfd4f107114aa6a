# SPDX-License-Identifier: MIT
# The count read after the data whenever bit 31 is set, without bit 30.
# want: step-1-no-room: .*bit 31 \(MISSED_EVENTS\) without bit 30
/TODO 1:/,/END TODO 1/s/if (word & LAB_MISSED_STORED)/if (word \& LAB_MISSED_EVENTS)/
