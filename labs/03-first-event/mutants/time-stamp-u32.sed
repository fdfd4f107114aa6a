# SPDX-License-Identifier: MIT
# The sub-buffer's time stamp read as a u32: it wraps every 4.3 s
# (blind solution w07).
# want: step-2-header: time_stamp '[0-9]*' is only the low 32 bits
s/memcpy(&time_stamp, subbuf, sizeof(time_stamp));/time_stamp = *(const uint32_t *)subbuf;/
