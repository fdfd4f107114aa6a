# SPDX-License-Identifier: MIT
# Find by ID without -x, keeping the first file that matches: ID 9 finds
# whichever of 9, 90..99, 900... is listed first (a blind learner's mistake).
# want: step-4-find-by-id: ID [0-9]+ is .*, not .* \(ID [0-9]+ starts with [0-9]+\): match the whole 'ID: [0-9]+' line
/TODO 4:/,/END TODO 4/s/grep -l -x "ID: \(.*\)" "\$T"\/\*\/\*\/format)/grep -l "ID: \1" "$T"\/*\/*\/format | head -n 1)/
