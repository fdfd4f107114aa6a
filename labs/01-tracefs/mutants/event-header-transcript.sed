# SPDX-License-Identifier: MIT
# header_event copied from the transcript instead of read from the file
# (a blind learner's mistake).
# want: step-2-header-event: with TRACEFS=.*a copy of header_event with other numbers.*line 1: got 'type_len 5'
/TODO 2:/,/END TODO 2/{
/^\tsed -n -e/i\	printf 'type_len 5\\ntime_delta 27\\npadding 29\\ntime_extend 30\\ntime_stamp 31\\nmax_type_len 28\\n'
/^\tsed -n -e/,/header_event"$/d
}
