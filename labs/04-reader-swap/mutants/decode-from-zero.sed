# SPDX-License-Identifier: MIT
# The second decode starts at 0, not where the first call left reader.read.
# want: step-4-partial: decode from where the first call left.*got 'new lab04 first'
s/pos = m.meta->reader.id == id ? first_read : 0;/pos = m.meta->reader.id == id ? 0 : first_read;/
