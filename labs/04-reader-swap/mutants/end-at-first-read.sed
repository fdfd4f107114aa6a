# SPDX-License-Identifier: MIT
# The new bytes end where the first call left reader.read: nothing is new.
# want: step-4-partial: decode from where the first call left.*got nothing, want
s/end = m.meta->reader.read;/end = first_read;/
