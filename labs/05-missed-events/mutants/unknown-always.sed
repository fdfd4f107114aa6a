# SPDX-License-Identifier: MIT
# "count unknown" for every sub-buffer without bit 30, bit 31 or not
# (blind): false alarms on every clean sub-buffer.
# want: step-1-missed-count: .*printed [0-9]+ line\(s\) saying a count is unknown.*say 'unknown' only for bit 31 without bit 30
/TODO 1:/,/END TODO 1/s/} else if (word & LAB_MISSED_EVENTS) {/} else {/
