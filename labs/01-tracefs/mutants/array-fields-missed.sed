# SPDX-License-Identifier: MIT
# Event formats: a field name followed by [N] or [] does not match, so
# array fields such as buf are missing.
# want: step-3-event-format: for ftrace/print: .*want 'buf 16 0'
/TODO 3:/,/END TODO 3/s/\\(\\\[\[0-9\]\*\\\]\\)\\{0,1\\}//
/TODO 3:/,/END TODO 3/s/\\1 \\3 \\4/\\1 \\2 \\3/
