# SPDX-License-Identifier: MIT
# The marker text taken right after the 8-byte common header, the 8-byte
# ip field forgotten: each line starts with the ip's bytes (blind).
# want: step-2-streams: (bytes before each text: those are the ip field|every line printed is the same .* the ip field)
/TODO 3:/,/END TODO 3/s/payload + 16/payload + 8/g
