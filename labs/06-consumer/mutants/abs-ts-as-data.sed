# SPDX-License-Identifier: MIT
# Only type 30 taken as an 8-byte time record: an absolute time stamp
# (type 31) is decoded as a data event of 128 bytes (blind).
# want: step-7-discarded-event: .*after an absolute time stamp \(type_len 31
s/} else if (type_len >= 30) {/} else if (type_len == 30) {/
