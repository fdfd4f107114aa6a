# SPDX-License-Identifier: MIT
# The marker text taken right after the 8-byte common header, the 8-byte
# ip field forgotten: each line starts with the ip's bytes (blind).
# want: step-2-streams: after 10 events it should have printed 'lab06 0'..'lab06 9'
/TODO 3:/,/END TODO 3/s/payload + 16/payload + 8/g
