/* SPDX-License-Identifier: MIT */
/*
 * Build synthetic ring-buffer sub-buffers the way the kernel's writer lays
 * them out (kernel/trace/ring_buffer.c, 6.12), for the decoder tests.
 * Independent of examples/lib/tracemap.c on purpose: it encodes, that decodes.
 */
#ifndef SUBBUF_BUILD_H
#define SUBBUF_BUILD_H

#include <stdint.h>
#include <string.h>

#define SB_HDR (8 + sizeof(long))

struct sb_build {
	unsigned char *page;
	size_t size; /* whole sub-buffer, header included */
	uint32_t pos; /* bytes of data written */
};

static inline void sb_put32(struct sb_build *b, uint32_t v)
{
	memcpy(b->page + SB_HDR + b->pos, &v, 4);
	b->pos += 4;
}

static inline void sb_init(struct sb_build *b, unsigned char *page, size_t size,
			   uint64_t ts)
{
	memset(page, 0, size);
	b->page = page;
	b->size = size;
	b->pos = 0;
	memcpy(page, &ts, 8);
}

static inline uint32_t sb_hdr(uint32_t type_len, uint32_t delta)
{
	return type_len | delta << 5;
}

/* A data event; payload bytes are rounded up to 4 like the kernel does. */
static inline void sb_event(struct sb_build *b, uint32_t delta,
			    const void *data, uint32_t len, int force_large)
{
	uint32_t words = (len + 3) / 4;

	if (words > 28 || force_large) {
		sb_put32(b, sb_hdr(0, delta));
		sb_put32(b, words * 4 + 4); /* counts itself */
	} else {
		sb_put32(b, sb_hdr(words, delta));
	}
	memcpy(b->page + SB_HDR + b->pos, data, len);
	b->pos += words * 4;
}

/* An event discarded in place: padding with a non-zero delta. */
static inline void sb_discard(struct sb_build *b, uint32_t delta,
			      uint32_t total)
{
	sb_put32(b, sb_hdr(29, delta ? delta : 1));
	sb_put32(b, total - 4);
	b->pos += total - 8;
}

static inline void sb_extend(struct sb_build *b, uint64_t delta)
{
	sb_put32(b, sb_hdr(30, (uint32_t)(delta & ((1U << 27) - 1))));
	sb_put32(b, (uint32_t)(delta >> 27));
}

/* An absolute time stamp keeps only the low 59 bits. */
static inline void sb_abs(struct sb_build *b, uint64_t ts)
{
	ts &= (1ULL << 59) - 1;
	sb_put32(b, sb_hdr(31, (uint32_t)(ts & ((1U << 27) - 1))));
	sb_put32(b, (uint32_t)(ts >> 27));
}

/* The rest of the sub-buffer is empty: padding with delta 0. */
static inline void sb_end_padding(struct sb_build *b)
{
	uint32_t left = (uint32_t)(b->size - SB_HDR) - b->pos;

	sb_put32(b, sb_hdr(29, 0));
	if (left >= 8)
		sb_put32(b, left - 4); /* bytes after the header */
	b->pos = (uint32_t)(b->size - SB_HDR);
}

/*
 * Set the commit word as the kernel does: data bytes, then the flags added
 * as int constants to a long (so RB_MISSED_EVENTS sign-extends on 64-bit).
 * commit: bytes to claim (usually b->pos). missed < 0: flag only.
 */
static inline void sb_commit(struct sb_build *b, uint32_t commit, long missed)
{
	long c = (long)commit;

	if (missed > 0 && b->size - SB_HDR - commit >= sizeof(long)) {
		memcpy(b->page + SB_HDR + commit, &missed, sizeof(long));
		c += (1 << 30);
	}
	if (missed)
		c += INT32_MIN;
	memcpy(b->page + 8, &c, sizeof(c));
}

#endif /* SUBBUF_BUILD_H */
