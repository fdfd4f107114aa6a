# SPDX-License-Identifier: MIT
# common_pid read at byte 2 (after common_type), not at 4.
# want: step-4-payload: common_pid is the int at payload byte 4
s/memcpy(&common_pid, payload + 4,/memcpy(\&common_pid, payload + 2,/
