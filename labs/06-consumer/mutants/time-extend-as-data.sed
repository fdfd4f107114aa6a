# SPDX-License-Identifier: MIT
# Only type_len 31 is taken as a time stamp: a time extend (30) is decoded
# as a data record of 120 bytes.
# want: step-3-count: .*after a time extend \(type_len 30, 8 bytes
s/} else if (type_len >= 30) {/} else if (type_len == 31) {/
