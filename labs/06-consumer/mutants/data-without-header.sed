# SPDX-License-Identifier: MIT
# The data area taken at the start of the sub-buffer, not after its
# 16-byte header. (Its first "event" is the time stamp's low word: when
# that happens to decode as a record that ends at byte 16, step 2 passes
# and step 3 fails; a fresh-clone make check met it.)
# want: step-[23]-[a-z]*: .*after (10 events|the [0-9]+th event)
s/(size_t)id \* meta->subbuf_size + 16;/(size_t)id * meta->subbuf_size;/
