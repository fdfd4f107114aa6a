// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the sub-buffer decoder of examples/lib/tracemap.c:
 * the input is one sub-buffer (header, then data), of the input's size.
 * Built with clang -fsanitize=fuzzer,address,undefined by tests/fuzz/run.sh.
 *
 * Whatever the bytes, the decoder must return events or a clear error
 * (-EINVAL, -EBADMSG), never crash, hang or read outside the sub-buffer.
 * libFuzzer hands the input over in a heap buffer of exactly its size, so
 * AddressSanitizer reports any read past it; every event must also lie
 * inside the committed data. Each input is decoded three times: as a copy
 * and as a live page with this machine's layout, and as a copy with the
 * layout of a 32-bit kernel (a 4-byte commit word, data at byte 12).
 * Nothing is allocated or parsed per input. The payloads' fields are
 * fuzzed by format_fuzz.c.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tracemap.h"

static const struct tracemap_layout layout32 = {
	.commit_offset = 8,
	.commit_size = 4,
	.data_offset = 12,
};

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "subbuf_fuzz: %s\n", what);
		abort();
	}
}

static void decode(const unsigned char *buf, size_t size,
		   const struct tracemap_layout *l, bool live)
{
	struct tracemap_layout native;
	const struct tracemap_layout *lay = l;
	const unsigned char *data;
	struct tracemap_subbuf sb;
	size_t cap;
	struct tracemap_event ev;
	uint32_t last = 0, n = 0;
	unsigned int sum = 0;
	int r;

	r = tracemap_subbuf_load(&sb, l, buf, size, live);
	check(r == 0 || r == -EINVAL || r == -EBADMSG,
	      "load: unexpected return value");
	if (r)
		return;
	if (!lay) {
		tracemap_layout_native(&native);
		lay = &native;
	}
	data = buf + lay->data_offset;
	cap = size - lay->data_offset;
	check(tracemap_subbuf_commit(&sb) <= cap, "load: commit past the end");
	check(tracemap_subbuf_missed(&sb) >= TRACEMAP_MISSED_UNKNOWN,
	      "load: negative missed count");
	while ((r = tracemap_subbuf_next(&sb, &ev)) > 0) {
		const unsigned char *p = ev.data;

		check(++n <= cap / 8 + 1, "next: more records than fit");
		check(n == 1 || ev.offset > last, "next: did not move forward");
		last = ev.offset;
		check(p >= data &&
			      p + ev.size <= data + tracemap_subbuf_commit(&sb),
		      "next: event outside the committed data");
		check(ev.size % 4 == 0, "next: size not a multiple of 4");
		/* the first and last byte: AddressSanitizer checks the span */
		if (ev.size)
			sum += p[0] + p[ev.size - 1];
		check(tracemap_event_type(&ev) >= 0 || ev.size < 2,
		      "type: negative for a payload that has one");
	}
	/* -ESTALE only when a live commit moves back: never in a fixed buffer */
	check(r == 0 || r == -EBADMSG, "next: unexpected return value");
	check(tracemap_subbuf_pos(&sb) <= tracemap_subbuf_commit(&sb),
	      "next: position past commit");
	/* keep the reads of the payload bytes */
	__asm__ volatile("" : : "r"(sum));
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	decode(in, size, NULL, false);
	decode(in, size, NULL, true);
	decode(in, size, &layout32, false);
	return 0;
}
