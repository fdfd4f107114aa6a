// SPDX-License-Identifier: MIT
/*
 * Differential test: our decoder (examples/lib/tracemap.c) against Debian's
 * libtraceevent kbuffer, an independent implementation, on the same
 * sub-buffers: synthetic ones (subbuf_build.h) and the ones captured in the
 * guest (tests/host/data, read from the repository root).
 * For every sub-buffer: same events (payload address), same payload
 * sizes, same timestamps, same missed count. A kselftest harness program;
 * each comparison names itself in the log when it fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/kbuffer.h>

/* The harness (and its macros in every test) trips these -Wextra warnings. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "subbuf_build.h"
#include "tracemap.h"

#define PAGE 4096
#define MAX_EVENTS 4096

struct rec {
	const void *data;
	uint32_t size;
	uint64_t ts;
};

static struct kbuffer *kbuf;

static int ours(unsigned char *page, size_t size, struct rec *r,
		int64_t *missed)
{
	struct tracemap_subbuf sb;
	struct tracemap_event ev;
	int n = 0, ret;

	if (tracemap_subbuf_load(&sb, NULL, page, size, false))
		return -1;
	while (n < MAX_EVENTS && (ret = tracemap_subbuf_next(&sb, &ev)) > 0)
		r[n++] = (struct rec){ ev.data, ev.size, ev.ts };
	*missed = tracemap_subbuf_missed(&sb);
	return ret < 0 ? -1 : n;
}

static int theirs(unsigned char *page, struct rec *r, int64_t *missed)
{
	unsigned long long ts;
	void *data;
	int n = 0;

	if (kbuffer_load_subbuffer(kbuf, page))
		return -1;
	/* Answers only while the cursor is on the sub-buffer's first record. */
	*missed = kbuffer_missed_events(kbuf);
	for (data = kbuffer_read_event(kbuf, &ts); data && n < MAX_EVENTS;
	     data = kbuffer_next_event(kbuf, &ts))
		r[n++] = (struct rec){ data, (uint32_t)kbuffer_event_size(kbuf),
				       ts };
	return n;
}

/* Compare both on one page; returns 0 when they agree, else says where. */
static int compare(unsigned char *page, size_t size, char *why, size_t len)
{
	static struct rec a[MAX_EVENTS], b[MAX_EVENTS];
	int64_t ma = 0, mb = 0;
	int na = ours(page, size, a, &ma), nb = theirs(page, b, &mb);

	if (na != nb) {
		snprintf(why, len, "%d events here, %d from kbuffer", na, nb);
		return -1;
	}
	for (int i = 0; i < na; i++) {
		if (a[i].data != b[i].data || a[i].size != b[i].size ||
		    a[i].ts != b[i].ts) {
			snprintf(
				why, len,
				"event %d: offset %td/%td size %u/%u ts %llu/%llu (ours/kbuffer)",
				i, (const unsigned char *)a[i].data - page,
				(const unsigned char *)b[i].data - page,
				a[i].size, b[i].size,
				(unsigned long long)a[i].ts,
				(unsigned long long)b[i].ts);
			return -1;
		}
	}
	if (ma != mb) {
		snprintf(why, len, "missed %lld here, %lld from kbuffer",
			 (long long)ma, (long long)mb);
		return -1;
	}
	snprintf(why, len, "%d events", na);
	return 0;
}

static void expect_agree(struct __test_metadata *_metadata, const char *name,
			 unsigned char *page, size_t size)
{
	char why[256];
	int r = compare(page, size, why, sizeof(why));

	EXPECT_EQ(0, r) TH_LOG("%s: %s", name, why);
}

/* A known disagreement: kbuffer must differ, and we must get want_ts. */
static void expect_differ(struct __test_metadata *_metadata, const char *name,
			  unsigned char *page, size_t size, int event,
			  uint64_t want_ts)
{
	static struct rec a[MAX_EVENTS];
	char why[256];
	int64_t m;
	int n = ours(page, size, a, &m);

	int differ = compare(page, size, why, sizeof(why)) != 0;

	EXPECT_TRUE(differ && n > event && a[event].ts == want_ts)
	TH_LOG("%s: expected kbuffer to differ and ours to be right: %s", name,
	       why);
}

/* A known disagreement on the missed count: kbuffer differs, we get want. */
static void expect_differ_missed(struct __test_metadata *_metadata,
				 const char *name, unsigned char *page,
				 size_t size, int64_t want)
{
	static struct rec a[MAX_EVENTS];
	char why[256];
	int64_t m = 0;

	int differ;

	ours(page, size, a, &m);
	differ = compare(page, size, why, sizeof(why)) != 0;
	EXPECT_TRUE(differ && m == want)
	TH_LOG("%s: expected kbuffer to differ and ours to say %lld: %s", name,
	       (long long)want, why);
}

static void add(struct sb_build *b, uint32_t delta, uint32_t len, int large)
{
	unsigned char p[2048] = { 42 };

	sb_event(b, delta, p, len, large);
}

TEST(synthetic)
{
	static unsigned char page[PAGE];
	struct sb_build b;
	uint64_t wrap = (6ULL << 59) - 10;

	ASSERT_TRUE(kbuf != NULL);
	sb_init(&b, page, PAGE, 1000);
	add(&b, 5, 12, 0);
	add(&b, 7, 112, 0);
	add(&b, 9, 116, 0);
	add(&b, 11, 2000, 0);
	sb_commit(&b, b.pos, 0);
	expect_agree(_metadata, "small-and-large", page, PAGE);

	sb_init(&b, page, PAGE, 1000);
	add(&b, 5, 12, 1);
	sb_commit(&b, b.pos, 0);
	expect_agree(_metadata, "small-payload-large-form", page, PAGE);

	sb_init(&b, page, PAGE, 100);
	sb_extend(&b, (1ULL << 40) + 3);
	add(&b, 4, 12, 0);
	sb_commit(&b, b.pos, 0);
	expect_agree(_metadata, "time-extend", page, PAGE);

	sb_init(&b, page, PAGE, 0);
	add(&b, 10, 12, 0);
	sb_discard(&b, 100, 24);
	add(&b, 1, 12, 0);
	sb_commit(&b, b.pos, 0);
	expect_agree(_metadata, "discarded-event", page, PAGE);

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 12, 0);
	sb_end_padding(&b);
	sb_commit(&b, b.pos, 0);
	expect_agree(_metadata, "end-padding", page, PAGE);

	sb_init(&b, page, PAGE, 0);
	sb_discard(&b, 3, PAGE - SB_HDR);
	sb_commit(&b, b.pos, 0);
	expect_agree(_metadata, "only-padding", page, PAGE);

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 12, 0);
	sb_commit(&b, b.pos, 1692);
	expect_agree(_metadata, "missed-stored-sign-extended", page, PAGE);

	sb_init(&b, page, PAGE, 0);
	add(&b, 1, 12, 0);
	sb_commit(&b, b.pos, -1);
	expect_agree(_metadata, "missed-unknown", page, PAGE);

	/*
	 * Missed events on a sub-buffer whose first record is a time stamp,
	 * as in absolute-timestamp mode (hist triggers), where every event
	 * follows one. kbuffer_missed_events() answers only while its cursor
	 * is at offset 0, but loading already skipped the time stamp, so it
	 * says 0. The kernel stored 77 in the sub-buffer: ours is right.
	 */
	sb_init(&b, page, PAGE, 1000);
	sb_abs(&b, 1500);
	add(&b, 0, 12, 0);
	sb_commit(&b, b.pos, 77);
	expect_differ_missed(_metadata,
			     "missed-after-time-stamp-kbuffer-says-0", page,
			     PAGE, 77);
	sb_init(&b, page, PAGE, 1000);
	sb_extend(&b, 1ULL << 30);
	add(&b, 0, 12, 0);
	sb_commit(&b, b.pos, -1);
	expect_differ_missed(_metadata,
			     "missed-after-time-extend-kbuffer-says-0", page,
			     PAGE, TRACEMAP_MISSED_UNKNOWN);

	/* Absolute time stamp, top bits taken from the page time stamp. */
	sb_init(&b, page, PAGE, (5ULL << 59) + 1000);
	sb_abs(&b, (5ULL << 59) + 2000);
	add(&b, 0, 12, 0);
	sb_commit(&b, b.pos, 0);
	expect_agree(_metadata, "abs-ts-top-bits", page, PAGE);

	/*
	 * The 59 low bits wrapped between the page time stamp and the
	 * absolute stamp. The kernel's rb_fix_abs_ts() adds 1 << 59 when the
	 * result would go backwards; kbuffer only copies the top bits, so its
	 * time jumps back by 2^59 ns (about 18 years). Ours is right.
	 */
	sb_init(&b, page, PAGE, wrap);
	sb_abs(&b, wrap + 15);
	add(&b, 0, 12, 0);
	sb_commit(&b, b.pos, 0);
	expect_differ(_metadata, "abs-ts-wrap-kbuffer-goes-back", page, PAGE, 0,
		      wrap + 15);
}

static void captured(struct __test_metadata *_metadata, const char *file,
		     size_t size)
{
	FILE *f = fopen(file, "rb");
	unsigned char *page = aligned_alloc(PAGE, size);
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	char name[256];
	int i = 0;

	ASSERT_TRUE(kbuf != NULL);
	EXPECT_TRUE(f && page) TH_LOG("%s: cannot read it", file);
	if (!f || !page)
		goto out;
	while (fread(page, 1, size, f) == size) {
		snprintf(name, sizeof(name), "captured-%s-subbuf%d", base, i++);
		expect_agree(_metadata, name, page, size);
	}
	EXPECT_LT(0, i) TH_LOG("%s: no whole sub-buffer", file);
out:
	free(page);
	if (f)
		fclose(f);
}

TEST(captured_cap4k)
{
	captured(_metadata, "tests/host/data/cap4k.raw", 4096);
}

TEST(captured_cap8k)
{
	captured(_metadata, "tests/host/data/cap8k.raw", 8192);
}

/* One kbuffer for every test, made before the harness runs them. */
static void __attribute__((constructor)) kbuffer_setup(void)
{
	kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST,
			     KBUFFER_ENDIAN_SAME_AS_HOST);
}

TEST_HARNESS_MAIN
