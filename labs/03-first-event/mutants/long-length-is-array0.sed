# SPDX-License-Identifier: MIT
# A type_len 0 event's length taken as array[0] itself, and its payload
# read right after the header, at array[0] (blind solution w10).
# want: step-3-event-header: type_len 0 \(a payload over 112 bytes\): array\[0\], the u32 after the header, is [0-9]*, the payload length \+ 4
s/length = 4 + event\[1\];/length = event[1];/
s/payload = (const char \*)&event\[2\];/payload = (const char *)\&event[1];/
