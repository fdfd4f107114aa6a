# SPDX-License-Identifier: MIT
# Event formats: field names matched with [a-z_]*, so a name with a digit
# such as l3index is lost (a blind learner's mistake).
# want: step-3-event-format: for [^ ]+: field names can have digits, such as '[A-Za-z_0-9]+'
/TODO 3:/,/END TODO 3/s/\[a-zA-Z_0-9\]\*/[a-z_]*/
