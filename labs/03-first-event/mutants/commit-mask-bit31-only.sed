# SPDX-License-Identifier: MIT
# Only bit 31 (RB_MISSED_EVENTS) masked off the commit word, not bit 30
# (RB_MISSED_STORED) (blind solution w06).
# want: step-2-header: commit '[0-9]*' has bit 30 \(RB_MISSED_STORED
s/commit &= ~(LAB_MISSED_EVENTS | LAB_MISSED_STORED);/commit \&= ~LAB_MISSED_EVENTS;/
