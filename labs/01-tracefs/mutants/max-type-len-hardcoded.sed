# SPDX-License-Identifier: MIT
# header_event: max_type_len 28 copied from the transcript, the rest read
# from the file (a blind learner's mistake).
# want: step-2-header-event: with TRACEFS=.*line 6: got 'max_type_len 28'
/TODO 2:/,/END TODO 2/{
/data max type_len/d
/header_event"$/a\	echo "max_type_len 28"
}
