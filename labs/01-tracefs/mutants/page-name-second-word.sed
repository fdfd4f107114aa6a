# SPDX-License-Identifier: MIT
# header_page: the name taken as the second word of "field: TYPE NAME;",
# right for this kernel's one-word types (u64, local_t, int, char), wrong
# for a type of more than one word: "unsigned long x" gives "long" (a blind
# learner's mistake).
# want: step-1-header-page: with TRACEFS=.*it printed the name '[a-z]+', a word of the type: a type can be of more than one word
/TODO 1:/,/END TODO 1/s/field: \.\*\[ \*\]\\(\[A-Za-z_0-9\]\*\\);/field: [^ ]* \\([A-Za-z_0-9]*\\)[^;]*;/
