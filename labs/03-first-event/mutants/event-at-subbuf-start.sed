# SPDX-License-Identifier: MIT
# The first event read at the start of the sub-buffer, where its header is.
# Its type_len is then the time stamp's low 5 bits, the right one once in
# 32 runs (fresh-clone make checks met it twice): then its time_delta is
# the time stamp's, or else the payload is wrong.
# want: step-[34]-[a-z-]*: (type_len is the low 5 bits of the first u32 of the data, at byte 16|common_type is the u16 at payload byte 0|time_delta '[0-9]*' is the sub-buffer's time_stamp shifted down by 5)
s/event = (const uint32_t \*)(subbuf + LAB_SUBBUF_HEADER);/event = (const uint32_t *)subbuf;/
