# SPDX-License-Identifier: MIT
# The count taken from the meta-page's reader.lost_events, not from the
# sub-buffer (blind): right on the guest's patched kernel, 0 on stock 6.12.
# want: step-1-missed-count: with the meta-page as stock 6.12 leaves it .* it takes the count from reader.lost_events
/^static int seq_event_id;/a\
static const struct trace_buffer_meta *lab05_meta;
/TODO 1:/,/END TODO 1/{
/memcpy(&count,/,/sizeof(count));/c\
		(void)size;\
		count = lab05_meta->reader.lost_events;
}
/^\tlab_map(&m, cpu, O_NONBLOCK);/a\
	lab05_meta = m.meta;
