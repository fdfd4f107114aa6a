# SPDX-License-Identifier: MIT
# The first event read at the start of the sub-buffer, where its header is.
# want: step-3-event-header: type_len is the low 5 bits of the first u32 of the data, at byte 16
s/event = (const uint32_t \*)(subbuf + LAB_SUBBUF_HEADER);/event = (const uint32_t *)subbuf;/
