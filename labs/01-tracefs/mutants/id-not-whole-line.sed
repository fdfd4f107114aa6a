# SPDX-License-Identifier: MIT
# Find by ID without -x: "ID: 5" also matches IDs 50..59 and 500...
# want: step-4-find-by-id: ID [0-9]+ is [^ ]+.*line [0-9]+: got
/TODO 4:/,/END TODO 4/s/grep -l -x "ID: /grep -l "ID: /
