// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the sub-buffer decoder of examples/tracemap.c:
 * the input is one sub-buffer (header, then data), of the input's size.
 * Built with clang -fsanitize=fuzzer,address,undefined by tests/fuzz/run.sh.
 *
 * Whatever the bytes, the decoder must return events or a clear error
 * (-EINVAL), never crash, hang or read outside the sub-buffer: the input
 * is copied into a buffer of exactly its size, so AddressSanitizer reports
 * any read past it, and every event must lie inside the committed data.
 * The events' payloads then go through the payload formatter with two
 * event formats (a string event and one with a dynamic array).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracemap.h"

static struct tm_format formats[2];

/* ftrace/print and seq_producer/seq_event as the 6.12 guest describes them */
static const char print_format[] =
	"name: print\nID: 5\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n";
static const char seq_format[] =
	"name: seq_event\nID: 6\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:u64 seq;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 len;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u8[] payload;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:char name[8];\toffset:24;\tsize:8;\tsigned:0;\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (tm_format_parse(&formats[0], "ftrace", print_format) ||
	    tm_format_parse(&formats[1], "seq_producer", seq_format))
		abort();
	return 0;
}

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "subbuf_fuzz: %s\n", what);
		abort();
	}
}

static void decode(const unsigned char *buf, size_t size, bool live)
{
	const unsigned char *data;
	struct tm_subbuf sb;
	struct tm_event ev;
	uint32_t last = 0, n = 0;
	unsigned int sum = 0;
	char text[512];
	int r;

	r = tm_subbuf_load(&sb, NULL, buf, size, live);
	check(r == 0 || r == -EINVAL || r == -EBADMSG,
	      "load: unexpected return value");
	if (r)
		return;
	data = buf + sb.layout.data_offset;
	check(sb.commit <= sb.cap && sb.cap == size - sb.layout.data_offset,
	      "load: commit past the end");
	check(sb.missed >= TM_MISSED_UNKNOWN, "load: negative missed count");
	while ((r = tm_subbuf_next(&sb, &ev)) > 0) {
		const unsigned char *p = ev.data;

		check(++n <= sb.cap / 8 + 1, "next: more records than fit");
		check(n == 1 || ev.offset > last, "next: did not move forward");
		last = ev.offset;
		check(p >= data && p + ev.size <= data + sb.commit,
		      "next: event outside the committed data");
		check(ev.size % 4 == 0, "next: size not a multiple of 4");
		for (uint32_t i = 0; i < ev.size; i++)
			sum += p[i];
		tm_event_type(&ev);
		for (size_t f = 0; f < 2; f++)
			check(tm_format_payload(&formats[f], &ev, text,
						sizeof(text)) >= 0,
			      "format: negative length");
	}
	/* -ESTALE only when a live commit moves back: never in a fixed buffer */
	check(r == 0 || r == -EBADMSG, "next: unexpected return value");
	check(sb.pos <= sb.commit, "next: position past commit");
	/* keep the reads of the payload bytes */
	__asm__ volatile("" : : "r"(sum));
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	unsigned char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, in, size);
	decode(buf, size, false);
	decode(buf, size, true);
	free(buf);
	return 0;
}
