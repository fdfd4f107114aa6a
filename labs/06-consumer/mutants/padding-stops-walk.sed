# SPDX-License-Identifier: MIT
# Every padding record taken as the end of the data, a discarded event
# (type_len 29 with a non-zero time delta) too: the events after it in the
# sub-buffer are lost (blind).
# want: step-7-discarded-event: .*the events after the discarded one were lost
s/if (type_len == 29 \&\& !(ev\[0\] >> 5))/if (type_len == 29)/
