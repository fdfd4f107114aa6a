# SPDX-License-Identifier: MIT
# The commit word's low 32 bits taken with the missed-event flags left in
# (blind solution w05).
# want: step-2-header: commit '[0-9]*' still has the flag bits
/commit &= ~(LAB_MISSED_EVENTS | LAB_MISSED_STORED);/d
