# SPDX-License-Identifier: MIT
# common_pid read as a u16: PIDs above 65535 come out truncated (blind
# solution w12).
# want: step-4-payload: common_pid '[0-9]*' is the low 16 bits of [0-9]*: it is an int
s/int32_t common_pid;/uint16_t common_pid;/
