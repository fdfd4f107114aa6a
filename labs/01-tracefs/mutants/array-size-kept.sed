# SPDX-License-Identifier: MIT
# Event formats: only an empty [] is allowed after a name, so a fixed-size
# array field such as prev_comm[16] is lost (a blind learner's mistake).
# want: step-3-event-format: for [^ ]+: a fixed-size array field such as '[A-Za-z_0-9]+\[[0-9]+\]' is named without its \[N\]
/TODO 3:/,/END TODO 3/s/\\(\\\[\[0-9\]\*\\\]\\)/\\(\\[\\]\\)/
