/* SPDX-License-Identifier: MIT */
/*
 * The format of the mapping and of a ring-buffer sub-buffer: the one place
 * the project defines it (the library, rb_peek and the labs use these).
 * Checked against kernel/trace/ring_buffer.c of 6.12; the guide's format
 * chapter explains them. tests/host/subbuf_build.h keeps its own copy on
 * purpose, so that the decoder is tested against an independent writer.
 *
 * A sub-buffer is a header, then data:
 *   u64 time_stamp    at offset 0
 *   local_t commit    at RB_COMMIT_OFFSET: a long of the *kernel*
 *   data              right after the commit word
 * A process whose long is not the kernel's (a 32-bit program on a 64-bit
 * kernel) must take the commit size and the data offset from
 * events/header_page; tracemap_layout_load() in tracemap.h does.
 */
#ifndef RING_BUFFER_FORMAT_H
#define RING_BUFFER_FORMAT_H

#include <stddef.h>
#include <stdint.h>

//! [subbuf-offset]
/*
 * The mapping of trace_pipe_raw: the meta-page (meta_page_size bytes from
 * the meta-page itself), then the nr_subbufs sub-buffers in ID order,
 * subbuf_size bytes each. Where sub-buffer id starts:
 */
static inline size_t rb_subbuf_offset(uint32_t meta_page_size,
				      uint32_t subbuf_size, uint32_t id)
{
	return (size_t)meta_page_size + (size_t)id * subbuf_size;
}
//! [subbuf-offset]

/* The length of the whole mapping: where a sub-buffer past the last would start. */
static inline size_t rb_map_len(uint32_t meta_page_size, uint32_t subbuf_size,
				uint32_t nr_subbufs)
{
	return rb_subbuf_offset(meta_page_size, subbuf_size, nr_subbufs);
}

/* Offsets in the sub-buffer header. */
#define RB_TIME_STAMP_OFFSET 0
#define RB_COMMIT_OFFSET 8
/* The header of a 64-bit kernel (8-byte commit word): data at byte 16. */
#define RB_SUBBUF_HEADER_64 16

/*
 * The commit word: the low 30 bits are the bytes of data written; the
 * flags are added as int constants, so on a 64-bit kernel the upper half
 * of the word reads as ones: use the low 32 bits only.
 */
#define RB_MISSED_EVENTS (1U << 31) /* events were lost before this one */
#define RB_MISSED_STORED (1U << 30) /* their count follows the data */
#define RB_MISSED_MASK (RB_MISSED_EVENTS | RB_MISSED_STORED)
#define RB_COMMIT_MASK (RB_MISSED_STORED - 1)

/*
 * Event header: u32 type_len:5, time_delta:27, then u32 array[]
 * (struct ring_buffer_event, include/linux/ring_buffer.h). Bit-fields, so
 * where they sit in the word is the compiler's: the low 5 bits on a
 * little-endian machine, the top 5 on a big-endian one (s390x), as
 * libtraceevent's kbuffer decodes them. Take them with rb_type_len() and
 * rb_time_delta() from the header word read in the machine's order.
 */
#define RB_TYPE_LEN_MASK 0x1fU
#define RB_TYPE_LEN_BITS 5
#define RB_TS_SHIFT 27 /* time_delta bits */
#define RB_TIME_DELTA_MASK ((1U << RB_TS_SHIFT) - 1)

static inline uint32_t rb_type_len(uint32_t hdr)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return hdr >> RB_TS_SHIFT;
#else
	return hdr & RB_TYPE_LEN_MASK;
#endif
}

static inline uint32_t rb_time_delta(uint32_t hdr)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return hdr & RB_TIME_DELTA_MASK;
#else
	return hdr >> RB_TYPE_LEN_BITS;
#endif
}
#define RB_TYPE_DATA_MAX 28 /* 1..28: payload of type_len * 4 bytes */
#define RB_TYPE_PADDING 29 /* delta 0: end of data; else a discarded event */
#define RB_TYPE_TIME_EXTEND 30 /* delta += array[0] << 27 | time_delta */
#define RB_TYPE_TIME_STAMP 31 /* absolute, 59 bits */
#define RB_TS_ABS_BITS 59

#endif /* RING_BUFFER_FORMAT_H */
