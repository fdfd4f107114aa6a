# SPDX-License-Identifier: MIT
# An ID no event has prints an empty line and exits 0: a caller takes ""
# for the event's name (a blind learner's mistake).
# want: step-4-find-by-id: no event has ID [0-9]+: .*not exit 0
/TODO 4:/,/END TODO 4/{
s/ ||$//
/no event with ID/d
}
