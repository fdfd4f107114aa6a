# SPDX-License-Identifier: MIT
# A type_len 0 record's payload taken at array[0], where its length is.
# want: step-5-long-events: .*type_len 0 records keep their length in array\[0\]
s/payload = (const char \*)&ev\[2\];/payload = (const char *)\&ev[1];/
