# SPDX-License-Identifier: MIT
# Find by ID without -x: "ID: 5" also matches IDs 50..59 and 500...
# want: step-4-find-by-id: ID 5 is ftrace/print.*line [0-9]+: got
/TODO 4:/,/END TODO 4/s/grep -l -x "ID: \$2"/grep -l "ID: $2"/
