# SPDX-License-Identifier: MIT
# Gaps counted only between events seen, not from 0 to the first one.
# want: step-2-sequence: gaps '0', want [0-9]+: count every number from 0 on
/TODO 2:/,/END TODO 2/s/if ((int64_t)seq > last_seq + 1)/if (last_seq >= 0 \&\& (int64_t)seq > last_seq + 1)/
