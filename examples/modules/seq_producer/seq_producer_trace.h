/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM seq_producer

#if !defined(_SEQ_PRODUCER_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SEQ_PRODUCER_TRACE_H

#include <linux/tracepoint.h>

/*
 * One event of a run: its sequence number (0, 1, 2, ... within the run)
 * and a payload of @len bytes where byte i is (seq + i) & 0xff. The len
 * field repeats the length of the dynamic array on purpose: a consumer's
 * decoding of the __data_loc word is checked against it.
 */
/* The layout of the kernel's trace event headers, not clang-format's */
/* clang-format off */
TRACE_EVENT(seq_event,
	    TP_PROTO(u64 seq, const u8 *payload, u32 len),
	    TP_ARGS(seq, payload, len),
	    TP_STRUCT__entry(__field(u64, seq)
			     __field(u32, len)
			     __dynamic_array(u8, payload, len)),
	    TP_fast_assign(__entry->seq = seq;
			   __entry->len = len;
			   memcpy(__get_dynamic_array(payload), payload, len);),
	    TP_printk("seq=%llu len=%u", __entry->seq, __entry->len)
);
/* clang-format on */

#endif /* _SEQ_PRODUCER_TRACE_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE seq_producer_trace
#include <trace/define_trace.h>
