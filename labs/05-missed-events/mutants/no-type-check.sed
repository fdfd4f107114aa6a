# SPDX-License-Identifier: MIT
# Every event taken for a seq_event: its type is never checked.
# want: step-2-sequence: .*trace_marker events .*seq_event_id
/TODO 2:/,/END TODO 2/s/if (type != seq_event_id)/if (type != seq_event_id \&\& 0)/
