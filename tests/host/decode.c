// SPDX-License-Identifier: MIT
/*
 * The sub-buffer decoder and the format printer of examples/lib/tracemap.c on
 * synthetic sub-buffers (tests/host/subbuf_build.h) covering every record
 * type. A kselftest harness program: tests/host/decode.test.sh runs it and
 * reads its TAP output; each check names itself in the log when it fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The harness (and its macros in every test) trips these -Wextra warnings. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "subbuf_build.h"
#include "tracemap.h"

#define PAGE 4096
static unsigned char page[4 * PAGE];

/*
 * CHECK(name, cond, fmt, ...): an EXPECT_TRUE that, when it fails, logs the
 * check's name and the values given (needs the harness's _metadata).
 */
#define CHECK(name, cond, ...)                    \
	EXPECT_TRUE(cond)                         \
	{                                         \
		TH_LOG("check %s failed:", name); \
		TH_LOG(__VA_ARGS__);              \
	}

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

static uint32_t seq_of(const struct tracemap_event *ev)
{
	uint32_t s;

	memcpy(&s, (const char *)ev->data + 8, 4);
	return s;
}

/* Decode every event of page; returns the count or the negative error. */
static int decode(struct tracemap_subbuf *sb, struct tracemap_event *evs,
		  int max)
{
	int n = 0, r = 0;

	while (n < max && (r = tracemap_subbuf_next(sb, &evs[n])) > 0)
		n++;
	return r < 0 ? r : n;
}

TEST(small_and_large)
{
	struct sb_build b;
	struct tracemap_subbuf sb;
	struct tracemap_event ev[8];
	int n;

	sb_init(&b, page, PAGE, 1000);
	add(&b, 5, 1, 12, 0); /* type_len 3 */
	add(&b, 7, 2, 112, 0); /* type_len 28: the largest small event */
	add(&b, 9, 3, 116, 0); /* 29 words: large, array[0] = 120 */
	add(&b, 11, 4, 2000, 0);
	add(&b, 13, 5, 12,
	    1); /* small payload in large form (8-byte-aligned arches) */
	sb_commit(&b, b.pos, 0);
	n = tracemap_subbuf_load(&sb, NULL, page, PAGE, false) ?
		    -1 :
		    decode(&sb, ev, 8);
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

TEST(timestamps)
{
	struct sb_build b;
	struct tracemap_subbuf sb;
	struct tracemap_event ev[4];
	uint64_t base =
		(5ULL << 59) + (1ULL << 59) - 10; /* 10 ns before a wrap */
	int n;

	sb_init(&b, page, PAGE, 100);
	sb_extend(&b, (1ULL << 40) + 3);
	add(&b, 4, 1, 12, 0);
	sb_commit(&b, b.pos, 0);
	n = tracemap_subbuf_load(&sb, NULL, page, PAGE, false) ?
		    -1 :
		    decode(&sb, ev, 4);
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
	n = tracemap_subbuf_load(&sb, NULL, page, PAGE, false) ?
		    -1 :
		    decode(&sb, ev, 4);
	CHECK("abs-ts-top-bits", n == 2 && ev[0].ts == base - 20,
	      "n %d ts %llx", n, n > 0 ? (unsigned long long)ev[0].ts : 0ULL);
	CHECK("abs-ts-wrap", n == 2 && ev[1].ts == (6ULL << 59) + 7,
	      "n %d ts %llx", n, n > 1 ? (unsigned long long)ev[1].ts : 0ULL);
}

TEST(padding)
{
	struct sb_build b;
	struct tracemap_subbuf sb;
	struct tracemap_event ev[4];
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
	n = tracemap_subbuf_load(&sb, NULL, page, PAGE, false) ?
		    -1 :
		    decode(&sb, ev, 4);
	CHECK("discarded-skipped",
	      n == 2 && seq_of(&ev[1]) == 2 && ev[1].offset == 40, "n %d", n);
	CHECK("discarded-delta-counted", n == 2 && ev[1].ts == 111, "ts %llu",
	      n == 2 ? (unsigned long long)ev[1].ts : 0ULL);

	/* Padding to the end of the page: nothing after it is an event. */
	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	sb_end_padding(&b);
	sb_commit(&b, b.pos, 0);
	n = tracemap_subbuf_load(&sb, NULL, page, PAGE, false) ?
		    -1 :
		    decode(&sb, ev, 4);
	CHECK("end-padding", n == 1, "n %d", n);

	/* A sub-buffer of nothing but padding. */
	sb_init(&b, page, PAGE, 0);
	sb_discard(&b, 3, PAGE - SB_HDR);
	sb_commit(&b, b.pos, 0);
	n = tracemap_subbuf_load(&sb, NULL, page, PAGE, false) ?
		    -1 :
		    decode(&sb, ev, 4);
	CHECK("only-discarded", n == 0, "n %d", n);
	sb_init(&b, page, PAGE, 0);
	sb_end_padding(&b);
	sb_commit(&b, b.pos, 0);
	n = tracemap_subbuf_load(&sb, NULL, page, PAGE, false) ?
		    -1 :
		    decode(&sb, ev, 4);
	CHECK("only-end-padding", n == 0, "n %d", n);
}

TEST(missed)
{
	struct sb_build b;
	struct tracemap_subbuf sb;
	struct tracemap_event ev[2];
	long word;
	int n, r;

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	sb_commit(&b, b.pos, 1692);
	memcpy(&word, page + 8, sizeof(word));
	r = tracemap_subbuf_load(&sb, NULL, page, PAGE, false);
	n = r ? r : decode(&sb, ev, 2);
	/* On 64-bit the commit long is negative: its upper half is all ones. */
	CHECK("commit-sign-extended",
	      (sizeof(long) == 4 || word < 0) &&
		      tracemap_subbuf_commit(&sb) == 16 && n == 1,
	      "word %lx commit %u n %d", word, tracemap_subbuf_commit(&sb), n);
	CHECK("missed-stored", tracemap_subbuf_missed(&sb) == 1692,
	      "missed %lld", (long long)tracemap_subbuf_missed(&sb));

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	sb_commit(&b, b.pos, -1);
	r = tracemap_subbuf_load(&sb, NULL, page, PAGE, false);
	CHECK("missed-unknown",
	      !r && tracemap_subbuf_missed(&sb) == TRACEMAP_MISSED_UNKNOWN,
	      "missed %lld", (long long)tracemap_subbuf_missed(&sb));

	/* A full page has no room for the count: the kernel stores no number. */
	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, PAGE - SB_HDR - 4 - 4, 1);
	sb_commit(&b, b.pos, 5);
	r = tracemap_subbuf_load(&sb, NULL, page, PAGE, false);
	CHECK("missed-no-room-unknown",
	      !r && tracemap_subbuf_missed(&sb) == TRACEMAP_MISSED_UNKNOWN,
	      "r %d missed %lld", r, (long long)tracemap_subbuf_missed(&sb));

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	sb_commit(&b, b.pos, 0);
	r = tracemap_subbuf_load(&sb, NULL, page, PAGE, false);
	CHECK("missed-none", !r && tracemap_subbuf_missed(&sb) == 0,
	      "missed %lld", (long long)tracemap_subbuf_missed(&sb));
}

TEST(corrupt)
{
	struct sb_build b;
	struct tracemap_subbuf sb;
	struct tracemap_event ev[4];
	int r;

	sb_init(&b, page, PAGE, 0);
	sb_commit(&b, PAGE, 0);
	CHECK("commit-past-end",
	      tracemap_subbuf_load(&sb, NULL, page, PAGE, false) == -EBADMSG,
	      "load accepted it");

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 40, 0);
	sb_commit(&b, 20, 0); /* cuts the event */
	r = tracemap_subbuf_load(&sb, NULL, page, PAGE, false) ?:
		    decode(&sb, ev, 4);
	CHECK("record-past-commit", r == -EBADMSG, "got %d", r);

	sb_init(&b, page, PAGE, 0);
	sb_put32(&b, sb_hdr(0, 1));
	sb_put32(&b, 2); /* a large event shorter than its own length word */
	sb_commit(&b, b.pos, 0);
	r = tracemap_subbuf_load(&sb, NULL, page, PAGE, false) ?:
		    decode(&sb, ev, 4);
	CHECK("large-too-short", r == -EBADMSG && tracemap_subbuf_pos(&sb) == 0,
	      "got %d at %u", r, tracemap_subbuf_pos(&sb));

	sb_init(&b, page, PAGE, 0);
	sb_put32(&b, sb_hdr(30, 1));
	sb_commit(&b, b.pos, 0); /* a time extend without its second word */
	r = tracemap_subbuf_load(&sb, NULL, page, PAGE, false) ?:
		    decode(&sb, ev, 4);
	CHECK("truncated-extend", r == -EBADMSG, "got %d", r);

	r = tracemap_subbuf_load(&sb, NULL, page, SB_HDR, false);
	CHECK("too-small-subbuf", r == -EINVAL, "got %d", r);
}

/* Events 1, 2, 3 (deltas 1, 2, 3; 16-byte records), loaded into sb. */
static void load_three(struct sb_build *b, struct tracemap_subbuf *sb,
		       bool live)
{
	sb_init(b, page, PAGE, 0);
	for (uint32_t i = 1; i <= 3; i++)
		add(b, i, i, 12, 0);
	sb_commit(b, b->pos, 0);
	tracemap_subbuf_load(sb, NULL, page, PAGE, live);
}

TEST(cursor)
{
	struct sb_build b;
	struct tracemap_subbuf sb;
	struct tracemap_event ev[4];
	int n, r;

	load_three(&b, &sb, false);
	tracemap_subbuf_skip_to(
		&sb, 16); /* reader.read: the first event was consumed */
	n = decode(&sb, ev, 4);
	CHECK("resume-at-reader-read",
	      n == 2 && seq_of(&ev[0]) == 2 && ev[0].ts == 3, "n %d", n);

	/* A live page: the writer appends after we reached its commit. */
	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	sb_commit(&b, b.pos, 0);
	tracemap_subbuf_load(&sb, NULL, page, PAGE, true);
	n = decode(&sb, ev, 4);
	add(&b, 2, 2, 12, 0);
	sb_commit(&b, b.pos, 0);
	r = tracemap_subbuf_next(&sb, &ev[1]);
	CHECK("live-append",
	      n == 1 && r == 1 && seq_of(&ev[1]) == 2 && ev[1].ts == 3,
	      "n %d r %d", n, r);
	r = tracemap_subbuf_next(&sb, &ev[2]);
	CHECK("live-end", r == 0, "r %d", r);

	/* The writer's page turned back under a live reader: -ESTALE. */
	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 1, 12, 0);
	add(&b, 1, 2, 12, 0);
	sb_commit(&b, b.pos, 0);
	tracemap_subbuf_load(&sb, NULL, page, PAGE, true);
	n = decode(&sb, ev, 4);
	sb_commit(&b, 0, 0); /* what a reset does to the reader page */
	r = tracemap_subbuf_next(&sb, &ev[2]);
	CHECK("live-commit-backwards-is-stale", n == 2 && r == -ESTALE,
	      "n %d r %d", n, r);

	/* The same with events still ahead of the reader: no stale event. */
	load_three(&b, &sb, true);
	n = decode(&sb, ev, 1);
	sb_commit(&b, 0, 0);
	r = tracemap_subbuf_next(&sb, &ev[1]);
	CHECK("live-commit-backwards-mid-page-is-stale", n == 1 && r == -ESTALE,
	      "n %d r %d", n, r);
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

/* The shape of events/syscalls/sys_enter_fadvise64/format in 6.12. */
/* A field name of 70 characters: more than struct tracemap_field holds. */
static const char long_name_format[] =
	"name: a\nID: 7\nformat:\n\tfield:int "
	"b123456789012345678901234567890123456789012345678901234567890123456789;"
	"\toffset:8;\tsize:4;\tsigned:1;\n";

static const char syscall_format[] =
	"name: sys_enter_fadvise64\nID: 470\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:loff_t offset;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"offset: 0x%08lx\", ((unsigned long)(REC->offset))\n";

TEST(formats)
{
	struct tracemap_format f;
	unsigned char d[64] = { 0 };
	struct tracemap_event ev = { .data = d, .size = 32 };
	char out[256];
	uint32_t loc = 7u << 16 | 40;
	uint64_t addr = 0xffffffff81000000ULL;
	uint16_t port = 8080;
	int r;

	r = tracemap_format_parse(&f, "ftrace", print_format);
	CHECK("format-parse",
	      !r && f.id == 5 && f.nr_fields == 6 &&
		      !strcmp(f.fields[5].name, "buf") &&
		      f.fields[5].offset == 16,
	      "r %d id %d fields %d", r, f.id, f.nr_fields);
	memcpy(d + 16, "hello \"x\"\n", 11);
	tracemap_format_payload(&f, &ev, out, sizeof(out));
	CHECK("format-print-string", !strcmp(out, "hello \\x22x\\x22"),
	      "got '%s'", out);
	free(f.fields);

	r = tracemap_format_parse(&f, "demo", demo_format);
	memset(d, 0, sizeof(d));
	memcpy(d + 8, "sshd", 4);
	d[16] = 0xfe; /* -2 */
	memcpy(d + 18, &port, 2);
	memcpy(d + 24, &addr, 8);
	memcpy(d + 32, &loc, 4);
	memcpy(d + 36, "\x01\x02\x03", 3);
	memcpy(d + 40, "eth0\tx", 7);
	ev.size = 48;
	tracemap_format_payload(&f, &ev, out, sizeof(out));
	CHECK("format-fields",
	      !r && !strcmp(out,
			    "comm=\"sshd\" level=-2 port=8080 addr=0xffffffff81000000 "
			    "name=\"eth0\\x09x\" raw=0x010203"),
	      "got '%s'", out);
	ev.size = 20; /* fields past the payload print as ? */
	tracemap_format_payload(&f, &ev, out, sizeof(out));
	CHECK("format-short-payload",
	      !strcmp(out,
		      "comm=\"sshd\" level=-2 port=8080 addr=? name=? raw=?"),
	      "got '%s'", out);
	r = tracemap_format_payload(&f, &ev, out, 8);
	CHECK("format-truncates", r > 8 && strlen(out) == 7, "r %d '%s'", r,
	      out);
	free(f.fields);

	r = tracemap_format_parse(&f, "x", "name: x\nformat:\n");
	CHECK("format-no-id", r == -EBADMSG, "r %d", r);

	/* IDs are 16 bits in every record: a larger one is refused, not cut. */
	r = tracemap_format_parse(&f, "x",
				  "name: a\nID: 4294967301\nformat:\n");
	CHECK("format-id-too-large", r == -EBADMSG, "r %d id %d", r, f.id);
	r = tracemap_format_parse(&f, "x", "name: a\nID: 65535\nformat:\n");
	CHECK("format-id-max", !r && f.id == 65535, "r %d id %d", r, f.id);
	free(f.fields);
	/* A name longer than the struct holds: a bad file, not a bad path. */
	r = tracemap_format_parse(&f, "x", long_name_format);
	CHECK("format-long-field-name", r == -EBADMSG, "r %d", r);

	/* A print fmt that says "offset:" is not a field (syscall formats). */
	r = tracemap_format_parse(&f, "syscalls", syscall_format);
	CHECK("format-print-fmt-not-a-field",
	      !r && f.nr_fields == 6 && !strcmp(f.fields[5].name, "offset") &&
		      f.fields[5].offset == 24,
	      "r %d fields %d", r, f.nr_fields);
	free(f.fields);
}

static const char header_page_64[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
static const char header_page_512k[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:524272;\tsigned:0;\n";
static const char header_page_32[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";

/*
 * Rewrite the native sub-buffer in page (header SB_HDR) for a kernel whose
 * commit word is commit_size bytes: the commit word's low 32 bits, sign
 * extended as the kernel's local_add of int flags leaves them, then data.
 */
static void relayout(unsigned char *dst, uint32_t commit_size)
{
	uint32_t word;
	uint64_t wide;

	memset(dst, 0, PAGE);
	memcpy(dst, page, 8);
	memcpy(&word, page + 8, 4); /* little-endian host */
	wide = (uint64_t)(int64_t)(int32_t)word;
	memcpy(dst + 8, &wide, commit_size);
	memcpy(dst + 8 + commit_size, page + SB_HDR, PAGE - (8 + commit_size));
	if (word & RB_MISSED_STORED) {
		/* the count, a kernel long, right after the data */
		uint64_t count;
		uint32_t data = word & RB_COMMIT_MASK;

		memcpy(&count, page + SB_HDR + data, sizeof(long));
		memset(dst + 8 + commit_size + data, 0, 8);
		memcpy(dst + 8 + commit_size + data, &count, commit_size);
	}
}

/*
 * Decode page rewritten for a commit word of commit_size bytes (relayout)
 * with layout l: 0 when it gives the two events of layouts() and their
 * lost count, -1 otherwise.
 */
static int decode_as(const struct tracemap_layout *l, uint32_t commit_size)
{
	static unsigned char other[PAGE];
	struct tracemap_subbuf sb;
	struct tracemap_event ev[4];
	int n;

	relayout(other, commit_size);
	n = tracemap_subbuf_load(&sb, l, other, PAGE, false) ?
		    -1 :
		    decode(&sb, ev, 4);
	return n == 2 && tracemap_subbuf_missed(&sb) == 77 &&
			       seq_of(&ev[1]) == 2 && ev[1].ts == 503 ?
		       0 :
		       -1;
}

TEST(layouts)
{
	struct tracemap_layout l64, l32, big, bad;
	struct sb_build b;
	int r64, r32;

	r64 = tracemap_layout_parse(&l64, header_page_64);
	r32 = tracemap_layout_parse(&l32, header_page_32);
	CHECK("header-page-64",
	      !r64 && l64.commit_offset == 8 && l64.commit_size == 8 &&
		      l64.data_offset == 16,
	      "r %d %u/%u/%u", r64, l64.commit_offset, l64.commit_size,
	      l64.data_offset);
	CHECK("header-page-32",
	      !r32 && l32.commit_size == 4 && l32.data_offset == 12,
	      "r %d %u/%u/%u", r32, l32.commit_offset, l32.commit_size,
	      l32.data_offset);
	/* 6.12 with buffer_subbuf_size_kb 512: the data field is 524272 bytes */
	r64 = tracemap_layout_parse(&big, header_page_512k);
	CHECK("header-page-512k-subbuf",
	      !r64 && big.commit_size == 8 && big.data_offset == 16,
	      "r %d %u/%u", r64, big.commit_size, big.data_offset);
	CHECK("header-page-garbage",
	      tracemap_layout_parse(&bad, "field: char data;\toffset:16;\n") ==
		      -EBADMSG,
	      "accepted a header_page without commit");

	/* The same events and count through either kernel's layout. */
	sb_init(&b, page, PAGE, 500);
	add(&b, 1, 1, 12, 0);
	add(&b, 2, 2, 40, 0);
	sb_commit(&b, b.pos, 77);
	CHECK("layout-64-kernel", decode_as(&l64, 8) == 0, "wrong events");
	CHECK("layout-32-kernel", decode_as(&l32, 4) == 0, "wrong events");
	/* What the old fixed header did: a 64-bit kernel's page read as 12. */
	CHECK("layout-mismatch-is-not-silent", decode_as(&l32, 8) != 0,
	      "decoded right with the wrong layout");
}

/* dir/events/SYSTEM/NAME/format holding text; 0 or -1. */
static int write_format(const char *dir, const char *system, const char *name,
			const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/events", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/%s", dir, system);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/%s/%s", dir, system, name);
	if (mkdir(path, 0700))
		return -1;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, system,
		 name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

/* Remove a folder write_format() filled. */
static void remove_dir(const char *dir)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("decode: could not remove %s\n", dir);
}

static const char rel_format[] =
	"name: rel\nID: 1234\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:__rel_loc char[] msg;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:s32 value;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 big;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"whatever\"\n";

TEST(fields)
{
	char dir[] = "/tmp/decode-fields-XXXXXX";
	struct tracemap_formats fs;
	const struct tracemap_format *f, *rel, *print;
	const struct tracemap_field *fl;
	unsigned char d[64] = { 0 };
	struct tracemap_event ev = { .data = d, .size = 40 };
	uint32_t loc = 6u << 16 | 12; /* 12 bytes after the field's end: 24 */
	int32_t value = -5;
	uint64_t big = 1ULL << 40, u = 0;
	const void *p = NULL;
	uint32_t len = 0;
	char out[128];
	int r;

	if (!mkdtemp(dir) || write_format(dir, "demo", "rel", rel_format) ||
	    write_format(dir, "ftrace", "print", print_format)) {
		CHECK("rel-loc-parsed", 0, "cannot write %s", dir);
		return;
	}
	r = tracemap_formats_load(&fs, dir);
	remove_dir(dir);
	if (r < 0) {
		CHECK("rel-loc-parsed", 0, "load: %d %s", r,
		      tracemap_formats_error(&fs));
		return;
	}
	rel = tracemap_formats_find(&fs, 1234);
	print = tracemap_formats_find(&fs, 5);
	CHECK("rel-loc-parsed",
	      r == 2 && rel && print &&
		      rel->fields[2].array == TRACEMAP_ARRAY_REL_LOC,
	      "loaded %d, rel %p, print %p", r, (const void *)rel,
	      (const void *)print);
	if (r != 2 || !rel || !print) {
		tracemap_formats_free(&fs);
		return;
	}
	memcpy(d + 8, &loc, 4);
	memcpy(d + 12, &value, 4);
	memcpy(d + 16, &big, 8);
	memcpy(d + 24, "hello", 6);
	tracemap_format_payload(rel, &ev, out, sizeof(out));
	CHECK("rel-loc-printed",
	      !strcmp(out, "msg=\"hello\" value=-5 big=1099511627776"),
	      "got '%s'", out);
	f = tracemap_formats_find_name(&fs, "demo", "rel");
	fl = f ? tracemap_format_field(f, "value") : NULL;
	CHECK("find-by-name", f == rel && fl && fl->offset == 12,
	      "format %p field %p", (const void *)f, (const void *)fl);
	CHECK("find-by-id",
	      tracemap_formats_find(&fs, 5) == print &&
		      !tracemap_formats_find(&fs, 6) &&
		      !tracemap_formats_find(&fs, 99999),
	      "wrong format for an ID");
	r = fl ? tracemap_field_value(fl, &ev, &u) : -1;
	CHECK("field-value-signed", !r && (int64_t)u == -5, "r %d value %lld",
	      r, (long long)u);
	fl = tracemap_format_field(rel, "msg");
	r = fl ? tracemap_field_bytes(fl, &ev, &p, &len) : -1;
	CHECK("field-bytes-rel-loc", !r && len == 6 && !memcmp(p, "hello", 6),
	      "r %d len %u", r, len);
	CHECK("field-value-of-array-refused",
	      fl && tracemap_field_value(fl, &ev, &u) == -EINVAL, "accepted");
	ev.size = 20;
	fl = tracemap_format_field(rel, "big");
	CHECK("field-value-past-payload",
	      fl && tracemap_field_value(fl, &ev, &u) == -EBADMSG, "accepted");
	tracemap_formats_free(&fs);
}

/* One bad format file in a directory: counted and named, the rest loaded. */
TEST(formats_dir)
{
	char dir[] = "/tmp/decode-formats-XXXXXX";
	struct tracemap_formats fs;
	int r;

	if (!mkdtemp(dir) ||
	    write_format(dir, "demo", "good",
			 "name: good\nID: 12\nformat:\n") ||
	    write_format(dir, "demo", "bad",
			 "name: bad\nID: 2097152\nformat:\n")) {
		CHECK("formats-load-one-bad-file", 0, "cannot write %s", dir);
		return;
	}
	r = tracemap_formats_load(&fs, dir);
	CHECK("formats-load-one-bad-file",
	      r == 1 && tracemap_formats_failed(&fs) == 1 &&
		      tracemap_formats_find(&fs, 12) &&
		      strstr(tracemap_formats_error(&fs),
			     "demo/bad/format: Bad message"),
	      "r %d failed %d err '%s'", r, tracemap_formats_failed(&fs),
	      tracemap_formats_error(&fs));
	if (r >= 0)
		tracemap_formats_free(&fs);
	remove_dir(dir);
}

TEST_HARNESS_MAIN
