# SPDX-License-Identifier: MIT
# Only type_len 31 is taken as a time stamp: a time extend (30) is decoded
# as a data record of 120 bytes. (Under load step 2's writes can be
# 2^27 ns apart already: then step 2 fails, naming the extend too.)
# want: step-[23]-[a-z]*: .*time extend \(type_len 30, 8 bytes
s/} else if (type_len >= 30) {/} else if (type_len == 31) {/
