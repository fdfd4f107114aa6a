# SPDX-License-Identifier: MIT
# A type_len 0 event's payload read right after the header, where its
# length word is (the payload half of blind solution w10).
# want: step-4-payload: common_type '[0-9]*' is array\[0\], the length word
s/payload = (const char \*)&event\[2\];/payload = (const char *)\&event[1];/
