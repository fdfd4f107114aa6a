# SPDX-License-Identifier: MIT
# type_len taken from the top 5 bits of the header word, not the low 5.
# want: step-3-event-header: type_len is the low 5 bits of the first u32 of the data, at byte 16
s/type_len = event\[0\] & 0x1f;/type_len = event[0] >> 27;/
