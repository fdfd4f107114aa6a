# SPDX-License-Identifier: MIT
# The event's length without its 4-byte header.
# want: step-3-event-header: length is the whole record, its 4-byte header
s/length = 4 + type_len \* 4;/length = type_len * 4;/
