# SPDX-License-Identifier: MIT
# Event formats: the name is taken up to the ';' and only an empty [] is
# stripped after, so a fixed-size array field prints as prev_comm[16] (a
# blind learner's mistake).
# want: step-3-event-format: for [^ ]+: a fixed-size array field such as '[A-Za-z_0-9]+\[[0-9]+\]' is named without its \[N\].*got '[A-Za-z_0-9]+\[[0-9]+\] 
/TODO 3:/,/END TODO 3/{
s/\\(\[a-zA-Z_0-9\]\*\\)\\(\\\[\[0-9\]\*\\\]\\)\\{0,1\\}/\\([^ *;]*\\)\\(\\)/
s/"\$T\/\$2\/format"$/"$T\/$2\/format" | sed 's\/\\[\\] \/ \/'/
}
