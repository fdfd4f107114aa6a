# SPDX-License-Identifier: MIT
# The stats line read is "overrun:", not "dropped events:".
# want: step-3-producer-consumer: .*only the 'dropped events:' line
/TODO 3:/,/END TODO 3/s/"dropped events: %"/"overrun: %"/
