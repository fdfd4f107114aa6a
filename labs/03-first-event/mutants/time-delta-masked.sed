# SPDX-License-Identifier: MIT
# time_delta as the header's bits 5..31 masked in place, not shifted down:
# 0 for the first event, 32 times too large for the next (blind w08).
# want: step-3-event-header: next_time_delta '[0-9]*' is [0-9]* << 5: time_delta is the header word shifted down by 5
/TODO 3:/,/END TODO 3/{
s/time_delta = event\[0\] >> 5;/time_delta = event[0] \& ~0x1fu;/
s/next_time_delta = \*(const uint32_t \*)next >> 5;/next_time_delta = *(const uint32_t *)next \& ~0x1fu;/
}
