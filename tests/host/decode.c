// SPDX-License-Identifier: MIT
/*
 * The sub-buffer decoder and the format printer of examples/tracemap.c on
 * synthetic sub-buffers (tests/host/subbuf_build.h) covering every record
 * type. Prints PASS:/FAIL: lines for tests/host/decode.test.sh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subbuf_build.h"
#include "tracemap.h"

#define PAGE 4096
static unsigned char page[4 * PAGE];
static int failures;

#define CHECK(name, cond, ...)                             \
	do {                                               \
		if (cond) {                                \
			printf("PASS: decode/%s\n", name); \
		} else {                                   \
			printf("FAIL: decode/%s: ", name); \
			printf(__VA_ARGS__);               \
			printf("\n");                      \
			failures++;                        \
		}                                          \
	} while (0)

/* Payload: a trace_entry with type 42, then a sequence number, then filler. */
struct payload {
	uint16_t type;
	uint8_t flags, pc;
	int32_t pid;
	uint32_t seq;
	unsigned char fill[2048];
};

static uint32_t add(struct sb_build *b, uint32_t delta, uint32_t seq,
		    uint32_t len, int force_large)
{
	struct payload p = { .type = 42, .pid = 7, .seq = seq };

	memset(p.fill, (int)seq, sizeof(p.fill));
	sb_event(b, delta, &p, len, force_large);
	return len;
}

static uint32_t seq_of(const struct tm_event *ev)
{
	uint32_t s;

	memcpy(&s, (const char *)ev->data + 8, 4);
	return s;
}

/* Decode every event of page; returns the count or the negative error. */
static int decode(struct tm_subbuf *sb, struct tm_event *evs, int max)
{
	int n = 0, r;

	while (n < max && (r = tm_subbuf_next(sb, &evs[n])) > 0)
		n++;
	return r < 0 ? r : n;
}

static void small_and_large(void)
{
	struct sb_build b;
	struct tm_subbuf sb;
	struct tm_event ev[8];
	int n;

	sb_init(&b, page, PAGE, 1000);
	add(&b, 5, 1, 12, 0); /* type_len 3 */
	add(&b, 7, 2, 112, 0); /* type_len 28: the largest small event */
	add(&b, 9, 3, 116, 0); /* 29 words: large, array[0] = 120 */
	add(&b, 11, 4, 2000, 0);
	add(&b, 13, 5, 12,
	    1); /* small payload in large form (8-byte-aligned arches) */
	sb_commit(&b, b.pos, 0);
	n = tm_subbuf_load(&sb, page, PAGE, false) ? -1 : decode(&sb, ev, 8);
	CHECK("small-and-large-count", n == 5, "got %d events", n);
	if (n != 5)
		return;
	CHECK("small-sizes", ev[0].size == 12 && ev[1].size == 112,
	      "sizes %u %u", ev[0].size, ev[1].size);
	CHECK("large-sizes",
	      ev[2].size == 116 && ev[3].size == 2000 && ev[4].size == 12,
	      "sizes %u %u %u", ev[2].size, ev[3].size, ev[4].size);
	CHECK("payload-contents",
	      seq_of(&ev[0]) == 1 && seq_of(&ev[2]) == 3 &&
		      seq_of(&ev[4]) == 5 &&
		      ((const unsigned char *)ev[3].data)[1999] == 4,
	      "sequence numbers wrong");
	CHECK("timestamps-accumulate",
	      ev[0].ts == 1005 && ev[1].ts == 1012 && ev[4].ts == 1045,
	      "ts %llu %llu %llu", (unsigned long long)ev[0].ts,
	      (unsigned long long)ev[1].ts, (unsigned long long)ev[4].ts);
	CHECK("offsets",
	      ev[0].offset == 0 && ev[1].offset == 16 && ev[2].offset == 132,
	      "offsets %u %u %u", ev[0].offset, ev[1].offset, ev[2].offset);
}

static void timestamps(void)
{
	struct sb_build b;
	struct tm_subbuf sb;
	struct tm_event ev[4];
	uint64_t base =
		(5ULL << 59) + (1ULL << 59) - 10; /* 10 ns before a wrap */
	int n;

	sb_init(&b, page, PAGE, 100);
	sb_extend(&b, (1ULL << 40) + 3);
	add(&b, 4, 1, 12, 0);
	sb_commit(&b, b.pos, 0);
	n = tm_subbuf_load(&sb, page, PAGE, false) ? -1 : decode(&sb, ev, 4);
	CHECK("time-extend", n == 1 && ev[0].ts == 100 + (1ULL << 40) + 3 + 4,
	      "n %d ts %llu", n, n > 0 ? (unsigned long long)ev[0].ts : 0ULL);

	/* Absolute: the top 5 bits come from the page time stamp. */
	sb_init(&b, page, PAGE, base - 1000);
	sb_abs(&b, base - 20);
	add(&b, 0, 1, 12, 0);
	/* ...and when the low 59 bits wrapped, the top bits move up by one. */
	sb_abs(&b, (6ULL << 59) + 5);
	add(&b, 2, 2, 12, 0);
	sb_commit(&b, b.pos, 0);
	n = tm_subbuf_load(&sb, page, PAGE, false) ? -1 : decode(&sb, ev, 4);
	CHECK("abs-ts-top-bits", n == 2 && ev[0].ts == base - 20,
	      "n %d ts %llx", n, n > 0 ? (unsigned long long)ev[0].ts : 0ULL);
	CHECK("abs-ts-wrap", n == 2 && ev[1].ts == (6ULL << 59) + 7,
	      "n %d ts %llx", n, n > 1 ? (unsigned long long)ev[1].ts : 0ULL);
}

static void padding(void)
{
	struct sb_build b;
	struct tm_subbuf sb;
	struct tm_event ev[4];
	int n;

	/*
	 * A discarded event in the middle: skipped, its delta counted. The
	 * writer leaves the event's time_delta in place (1 if it was 0) and
	 * computed the next event's delta from the discarded event's time, so
	 * counting it gives the right time. libtraceevent counts it too; the
	 * kernel's own reader (rb_update_read_stamp) skips padding deltas, so
	 * the "trace" file can show later events early by that delta.
	 */
	sb_init(&b, page, PAGE, 0);
	add(&b, 10, 1, 12, 0);
	sb_discard(&b, 100, 24);
	add(&b, 1, 2, 12, 0);
	sb_commit(&b, b.pos, 0);
	n = tm_subbuf_load(&sb, page, PAGE, false) ? -1 : decode(&sb, ev, 4);
	CHECK("discarded-skipped",
	      n == 2 && seq_of(&ev[1]) == 2 && ev[1].offset == 40, "n %d", n);
	CHECK("discarded-delta-counted", n == 2 && ev[1].ts == 111, "ts %llu",
	      n == 2 ? (unsigned long long)ev[1].ts : 0ULL);

	/* Padding to the end of the page: nothing after it is an event. */
	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	sb_end_padding(&b);
	sb_commit(&b, b.pos, 0);
	n = tm_subbuf_load(&sb, page, PAGE, false) ? -1 : decode(&sb, ev, 4);
	CHECK("end-padding", n == 1, "n %d", n);

	/* A sub-buffer of nothing but padding. */
	sb_init(&b, page, PAGE, 0);
	sb_discard(&b, 3, PAGE - SB_HDR);
	sb_commit(&b, b.pos, 0);
	n = tm_subbuf_load(&sb, page, PAGE, false) ? -1 : decode(&sb, ev, 4);
	CHECK("only-discarded", n == 0, "n %d", n);
	sb_init(&b, page, PAGE, 0);
	sb_end_padding(&b);
	sb_commit(&b, b.pos, 0);
	n = tm_subbuf_load(&sb, page, PAGE, false) ? -1 : decode(&sb, ev, 4);
	CHECK("only-end-padding", n == 0, "n %d", n);
}

static void missed(void)
{
	struct sb_build b;
	struct tm_subbuf sb;
	struct tm_event ev[2];
	long word;
	int n, r;

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	sb_commit(&b, b.pos, 1692);
	memcpy(&word, page + 8, sizeof(word));
	r = tm_subbuf_load(&sb, page, PAGE, false);
	n = r ? r : decode(&sb, ev, 2);
	/* On 64-bit the commit long is negative: its upper half is all ones. */
	CHECK("commit-sign-extended",
	      (sizeof(long) == 4 || word < 0) && sb.commit == 16 && n == 1,
	      "word %lx commit %u n %d", word, sb.commit, n);
	CHECK("missed-stored", sb.missed == 1692, "missed %lld",
	      (long long)sb.missed);

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	sb_commit(&b, b.pos, -1);
	r = tm_subbuf_load(&sb, page, PAGE, false);
	CHECK("missed-unknown", !r && sb.missed == TM_MISSED_UNKNOWN,
	      "missed %lld", (long long)sb.missed);

	/* A full page has no room for the count: the kernel stores no number. */
	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, PAGE - SB_HDR - 4 - 4, 1);
	sb_commit(&b, b.pos, 5);
	r = tm_subbuf_load(&sb, page, PAGE, false);
	CHECK("missed-no-room-unknown", !r && sb.missed == TM_MISSED_UNKNOWN,
	      "r %d missed %lld", r, (long long)sb.missed);

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	sb_commit(&b, b.pos, 0);
	r = tm_subbuf_load(&sb, page, PAGE, false);
	CHECK("missed-none", !r && sb.missed == 0, "missed %lld",
	      (long long)sb.missed);
}

static void corrupt(void)
{
	struct sb_build b;
	struct tm_subbuf sb;
	struct tm_event ev[4];
	int r;

	sb_init(&b, page, PAGE, 0);
	sb_commit(&b, PAGE, 0);
	CHECK("commit-past-end",
	      tm_subbuf_load(&sb, page, PAGE, false) == -EINVAL,
	      "load accepted it");

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 40, 0);
	sb_commit(&b, 20, 0); /* cuts the event */
	r = tm_subbuf_load(&sb, page, PAGE, false) ?: decode(&sb, ev, 4);
	CHECK("record-past-commit", r == -EINVAL, "got %d", r);

	sb_init(&b, page, PAGE, 0);
	sb_put32(&b, sb_hdr(0, 1));
	sb_put32(&b, 2); /* a large event shorter than its own length word */
	sb_commit(&b, b.pos, 0);
	r = tm_subbuf_load(&sb, page, PAGE, false) ?: decode(&sb, ev, 4);
	CHECK("large-too-short", r == -EINVAL && sb.pos == 0, "got %d at %u", r,
	      sb.pos);

	sb_init(&b, page, PAGE, 0);
	sb_put32(&b, sb_hdr(30, 1));
	sb_commit(&b, b.pos, 0); /* a time extend without its second word */
	r = tm_subbuf_load(&sb, page, PAGE, false) ?: decode(&sb, ev, 4);
	CHECK("truncated-extend", r == -EINVAL, "got %d", r);

	r = tm_subbuf_load(&sb, page, SB_HDR, false);
	CHECK("too-small-subbuf", r == -EINVAL, "got %d", r);
}

static void cursor(void)
{
	struct sb_build b;
	struct tm_subbuf sb;
	struct tm_event ev[4];
	int n, r;

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	add(&b, 2, 2, 12, 0);
	add(&b, 3, 3, 12, 0);
	sb_commit(&b, b.pos, 0);
	tm_subbuf_load(&sb, page, PAGE, false);
	sb.skip_to = 16; /* reader.read: the first event was consumed */
	n = decode(&sb, ev, 4);
	CHECK("skip-to-reader-read",
	      n == 2 && seq_of(&ev[0]) == 2 && ev[0].ts == 3, "n %d", n);

	/* A live page: the writer appends after we reached its commit. */
	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	sb_commit(&b, b.pos, 0);
	tm_subbuf_load(&sb, page, PAGE, true);
	n = decode(&sb, ev, 4);
	add(&b, 2, 2, 12, 0);
	sb_commit(&b, b.pos, 0);
	r = tm_subbuf_next(&sb, &ev[1]);
	CHECK("live-append",
	      n == 1 && r == 1 && seq_of(&ev[1]) == 2 && ev[1].ts == 3,
	      "n %d r %d", n, r);
	r = tm_subbuf_next(&sb, &ev[2]);
	CHECK("live-end", r == 0, "r %d", r);
}

static const char print_format[] =
	"name: print\nID: 5\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

static const char demo_format[] =
	"name: demo\nID: 77\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char comm[8];\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s8 level;\toffset:16;\tsize:1;\tsigned:1;\n"
	"\tfield:u16 port;\toffset:18;\tsize:2;\tsigned:0;\n"
	"\tfield:void * addr;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:u8 raw[3];\toffset:36;\tsize:3;\tsigned:0;\n\n"
	"print fmt: \"whatever\"\n";

static void formats(void)
{
	struct tm_format f;
	unsigned char d[64] = { 0 };
	struct tm_event ev = { .data = d, .size = 32 };
	char out[256];
	uint32_t loc = 7u << 16 | 40;
	uint64_t addr = 0xffffffff81000000ULL;
	uint16_t port = 8080;
	int r;

	r = tm_format_parse(&f, "ftrace", print_format);
	CHECK("format-parse",
	      !r && f.id == 5 && f.nr_fields == 6 &&
		      !strcmp(f.fields[5].name, "buf") &&
		      f.fields[5].offset == 16,
	      "r %d id %d fields %d", r, f.id, f.nr_fields);
	memcpy(d + 16, "hello \"x\"\n", 11);
	tm_format_payload(&f, &ev, out, sizeof(out));
	CHECK("format-print-string", !strcmp(out, "hello \\x22x\\x22"),
	      "got '%s'", out);
	free(f.fields);

	r = tm_format_parse(&f, "demo", demo_format);
	memset(d, 0, sizeof(d));
	memcpy(d + 8, "sshd", 4);
	d[16] = 0xfe; /* -2 */
	memcpy(d + 18, &port, 2);
	memcpy(d + 24, &addr, 8);
	memcpy(d + 32, &loc, 4);
	memcpy(d + 36, "\x01\x02\x03", 3);
	memcpy(d + 40, "eth0\tx", 7);
	ev.size = 48;
	tm_format_payload(&f, &ev, out, sizeof(out));
	CHECK("format-fields",
	      !r && !strcmp(out,
			    "comm=\"sshd\" level=-2 port=8080 addr=0xffffffff81000000 "
			    "name=\"eth0\\x09x\" raw=0x010203"),
	      "got '%s'", out);
	ev.size = 20; /* fields past the payload print as ? */
	tm_format_payload(&f, &ev, out, sizeof(out));
	CHECK("format-short-payload",
	      !strcmp(out,
		      "comm=\"sshd\" level=-2 port=8080 addr=? name=? raw=?"),
	      "got '%s'", out);
	r = tm_format_payload(&f, &ev, out, 8);
	CHECK("format-truncates", r > 8 && strlen(out) == 7, "r %d '%s'", r,
	      out);
	free(f.fields);

	r = tm_format_parse(&f, "x", "name: x\nformat:\n");
	CHECK("format-no-id", r == -EINVAL, "r %d", r);
}

int main(void)
{
	small_and_large();
	timestamps();
	padding();
	missed();
	corrupt();
	cursor();
	formats();
	return failures ? 1 : 0;
}
