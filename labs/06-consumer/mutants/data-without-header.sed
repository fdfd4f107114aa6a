# SPDX-License-Identifier: MIT
# The data area taken at the start of the sub-buffer, not after its
# 16-byte header.
# want: step-2-streams: after 10 events
s/(size_t)id \* meta->subbuf_size + 16;/(size_t)id * meta->subbuf_size;/
