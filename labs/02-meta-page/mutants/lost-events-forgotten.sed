# SPDX-License-Identifier: MIT
# The reader's lost_events field is left out.
# want: step-2-fields: in struct order; line 5: got 'reader.id 0', want 'reader.lost_events 0'
/TODO 2:/,/END TODO 2/{/reader.lost_events/,/meta->reader.lost_events/d}
