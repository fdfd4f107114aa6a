# SPDX-License-Identifier: MIT
# A type_len 0 event's array[0] taken as the payload length alone, so the
# event counted as 8 + array[0] bytes (blind solution w14).
# want: step-3-event-header: type_len 0: array\[0\] already counts its own 4 bytes
s/length = 4 + event\[1\];/length = 8 + event[1];/
