// SPDX-License-Identifier: MIT
/*
 * examples/tracemap.c against the real kernel, for several sub-buffer
 * sizes: the meta-page, reader swaps, exact decoding of trace_marker
 * writes, missed events against overrun, and what the kernel refuses while
 * the buffer is mapped. Run as root in the guest, on CPU 0's buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The harness (and its macros in every test) trips these -Wextra warnings. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "tracemap.h"

#define T "/sys/kernel/tracing"

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int write_int(const char *path, int v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", v);
	return write_file(path, buf);
}

/* Write markers "<prefix><i>" for i in [from, to) from this CPU. */
static void markers(int from, int to, const char *fmt)
{
	int fd = open(T "/trace_marker", O_WRONLY);
	char buf[64];

	for (int i = from; i < to && fd >= 0; i++) {
		int n = snprintf(buf, sizeof(buf), fmt, i);

		if (write(fd, buf, (size_t)n) != n)
			break;
	}
	if (fd >= 0)
		close(fd);
}

FIXTURE(map)
{
	struct tracemap tm;
	struct tm_formats formats;
	int subbuf_size;
};

FIXTURE_VARIANT(map)
{
	int subbuf_kb;
	int buffer_kb; /* data bytes per CPU */
};

FIXTURE_VARIANT_ADD(map, subbuf_4k){ .subbuf_kb = 4, .buffer_kb = 64 };
FIXTURE_VARIANT_ADD(map, subbuf_8k){ .subbuf_kb = 8, .buffer_kb = 128 };
FIXTURE_VARIANT_ADD(map, subbuf_64k){ .subbuf_kb = 64, .buffer_kb = 512 };

FIXTURE_SETUP(map)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_EQ(0, write_int(T "/tracing_on", 0));
	ASSERT_EQ(0, write_file(T "/current_tracer", "nop"));
	ASSERT_EQ(0, write_int(T "/options/overwrite", 1));
	ASSERT_EQ(0, write_int(T "/buffer_subbuf_size_kb", variant->subbuf_kb));
	ASSERT_EQ(0, write_int(T "/buffer_size_kb", variant->buffer_kb));
	ASSERT_EQ(0, write_file(T "/trace", ""));
	ASSERT_EQ(0, write_int(T "/tracing_on", 1));
	ASSERT_LT(0, tm_formats_load(&self->formats, T));
	ASSERT_EQ(0, tracemap_open(&self->tm, NULL, NULL, 0, TM_NONBLOCK))
	TH_LOG("%s", self->tm.err);
	self->subbuf_size = variant->subbuf_kb * 1024;
}

FIXTURE_TEARDOWN(map)
{
	tracemap_close(&self->tm);
	tm_formats_free(&self->formats);
	write_int(T "/buffer_subbuf_size_kb", 4);
	write_int(T "/buffer_size_kb", 1408);
}

/* Drain: decode every event, checking each marker is "<prefix><i>" in order. */
static int drain(struct __test_metadata *_metadata, struct tracemap *tm,
		 const struct tm_formats *fs, const char *fmt, int first,
		 int64_t *missed_sum, uint32_t *ids, int *nr_ids)
{
	int next = first, n = 0, r;
	struct tm_event ev;
	int64_t missed;
	char want[64], got[256];

	for (;;) {
		while ((r = tracemap_next(tm, &ev)) > 0) {
			const struct tm_format *f =
				tm_formats_find(fs, tm_event_type(&ev));

			if (!f)
				return -1;
			tm_format_payload(f, &ev, got, sizeof(got));
			snprintf(want, sizeof(want), fmt, next);
			if (strcmp(want, got)) {
				/* After a gap, resync on the first survivor. */
				if (!missed_sum ||
				    sscanf(got,
					   fmt[0] == 'm' ? "m%d" : "marker %d",
					   &next) != 1)
					EXPECT_STREQ(want, got);
			}
			next++;
			n++;
		}
		ASSERT_LE(0, r) TH_LOG("%s", tm->err);
		r = tracemap_get_reader(tm, &missed);
		ASSERT_LE(0, r) TH_LOG("%s", tm->err);
		if (r == 0)
			return n;
		if (missed_sum) {
			EXPECT_NE(TM_MISSED_UNKNOWN, missed);
			if (missed > 0)
				*missed_sum += missed;
		}
		if (ids && *nr_ids < 64 &&
		    (!*nr_ids || ids[*nr_ids - 1] != tm->reader_id))
			ids[(*nr_ids)++] = tm->reader_id;
	}
}

TEST_F(map, meta_page_matches_tracefs)
{
	struct trace_buffer_meta *m = self->tm.meta;
	int data = variant->buffer_kb * 1024, cap = self->subbuf_size - 16;

	EXPECT_EQ(self->subbuf_size, (int)m->subbuf_size);
	EXPECT_EQ(m->subbuf_size, m->meta_page_size);
	EXPECT_EQ((data + cap - 1) / cap + 1, (int)m->nr_subbufs);
	EXPECT_EQ(80, (int)m->meta_struct_len);
	EXPECT_EQ(m->meta_page_size + (size_t)m->nr_subbufs * m->subbuf_size,
		  self->tm.map_len);
}

TEST_F(map, sixteen_markers_decode_exactly)
{
	int n;

	markers(1, 17, "marker %d");
	n = drain(_metadata, &self->tm, &self->formats, "marker %d", 1, NULL,
		  NULL, NULL);
	EXPECT_EQ(16, n);
}

TEST_F(map, reader_id_moves)
{
	uint32_t ids[64];
	int nr = 0, per_page = (self->subbuf_size - 16) / 32, n;

	/* "m%07d" makes 32-byte records: three sub-buffers and a bit. */
	markers(0, 3 * per_page + 5, "m%07d");
	n = drain(_metadata, &self->tm, &self->formats, "m%07d", 0, NULL, ids,
		  &nr);
	EXPECT_EQ(3 * per_page + 5, n);
	EXPECT_LE(4, nr) TH_LOG("reader.id took %d values", nr);
	for (int i = 0; i < nr; i++)
		EXPECT_GT(self->tm.meta->nr_subbufs, ids[i]);
}

/*
 * The reader sub-buffer is the writer's: read it live, then let the writer
 * fill it and three more. The next GET_READER only moves reader.read over
 * the events already read, without a swap: tracemap_get_reader() must ask
 * again rather than report "nothing new" while full sub-buffers wait.
 */
TEST_F(map, live_reader_page_then_more_subbufs)
{
	int per_page = (self->subbuf_size - 16) / 32, n;
	struct tm_event ev;

	markers(0, 5, "m%07d");
	ASSERT_EQ(1, tracemap_get_reader(&self->tm, NULL))
	TH_LOG("%s", self->tm.err);
	for (n = 0; tracemap_next(&self->tm, &ev) > 0; n++)
		;
	ASSERT_EQ(5, n);
	markers(5, 5 + 3 * per_page, "m%07d");
	n += drain(_metadata, &self->tm, &self->formats, "m%07d", 5, NULL, NULL,
		   NULL);
	EXPECT_EQ(5 + 3 * per_page, n);
}

TEST_F(map, missed_add_up_to_overrun)
{
	int per_page = (self->subbuf_size - 16) / 32;
	int total = (int)self->tm.meta->nr_subbufs * per_page * 3;
	uint64_t overrun0;
	int64_t missed = 0;
	int n;

	ASSERT_LE(0, tracemap_get_reader(&self->tm, NULL));
	overrun0 = self->tm.meta->overrun;
	markers(0, total, "m%07d");
	n = drain(_metadata, &self->tm, &self->formats, "m%07d", 0, &missed,
		  NULL, NULL);
	EXPECT_LT(0, missed);
	EXPECT_EQ((int64_t)(self->tm.meta->overrun - overrun0), missed);
	EXPECT_EQ(total, n + missed)
	TH_LOG("delivered %d missed %lld", n, (long long)missed);
}

TEST_F(map, refused_mappings)
{
	size_t len = self->tm.map_len;
	int rw = open(T "/per_cpu/cpu0/trace_pipe_raw", O_RDWR);

	errno = 0;
	EXPECT_EQ(MAP_FAILED,
		  mmap(NULL, len, PROT_READ, MAP_PRIVATE, self->tm.fd, 0));
	EXPECT_EQ(EPERM, errno);
	errno = 0;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, len, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->tm.fd, 0));
	EXPECT_EQ(EACCES, errno); /* the fd is read-only */
	ASSERT_LE(0, rw);
	errno = 0;
	EXPECT_EQ(MAP_FAILED,
		  mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, rw, 0));
	EXPECT_EQ(EPERM, errno); /* the ring buffer refuses it */
	errno = 0;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_SHARED,
				   self->tm.fd, 0));
	EXPECT_EQ(EPERM, errno);
	close(rw);
}

TEST_F(map, busy_while_mapped)
{
	EXPECT_EQ(-EBUSY,
		  write_int(T "/buffer_size_kb", variant->buffer_kb * 2));
	EXPECT_EQ(-EBUSY, write_int(T "/buffer_subbuf_size_kb",
				    variant->subbuf_kb * 2));
	EXPECT_EQ(-EBUSY, write_int(T "/snapshot", 1));
}

TEST_F(map, partial_munmap_refused)
{
	char *base = (char *)self->tm.meta;

	errno = 0;
	EXPECT_EQ(-1, munmap(base + self->tm.meta->meta_page_size,
			     self->tm.meta->subbuf_size));
	EXPECT_EQ(EINVAL, errno);
	/* Still mapped and usable. */
	markers(1, 17, "marker %d");
	EXPECT_EQ(16, drain(_metadata, &self->tm, &self->formats, "marker %d",
			    1, NULL, NULL, NULL));
}

TEST(open_errors)
{
	struct tracemap tm;

	EXPECT_EQ(TM_ERR_NO_CPU, tracemap_open(&tm, NULL, NULL, 99, 0));
	EXPECT_EQ(TM_ERR_NO_INSTANCE,
		  tracemap_open(&tm, NULL, "tmg-no-such", 0, 0));
	EXPECT_EQ(TM_ERR_NO_TRACEFS,
		  tracemap_open(&tm, "/nonexistent", NULL, 0, 0));
	/*
	 * An armed snapshot makes mapping fail with EBUSY. "echo 1 >snapshot"
	 * arms and disarms at once; a snapshot trigger stays armed.
	 */
	ASSERT_EQ(0, write_file(T "/set_ftrace_filter", "schedule:snapshot"));
	EXPECT_EQ(TM_ERR_BUSY, tracemap_open(&tm, NULL, NULL, 0, 0));
	EXPECT_NE(NULL, strstr(tm.err, "snapshot is armed"));
	ASSERT_EQ(0, write_file(T "/set_ftrace_filter", "!schedule:snapshot"));
	EXPECT_EQ(0, tracemap_open(&tm, NULL, NULL, 0, 0)) TH_LOG("%s", tm.err);
	tracemap_close(&tm);
}

TEST(instance_buffer)
{
	struct tracemap tm;
	struct tm_formats fs;
	cpu_set_t set;
	int n = 0, r;
	struct tm_event ev;
	char got[128];

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	rmdir(T "/instances/tmg");
	ASSERT_EQ(0, mkdir(T "/instances/tmg", 0755));
	ASSERT_LT(0, tm_formats_load(&fs, T "/instances/tmg"));
	ASSERT_EQ(0, tracemap_open(&tm, NULL, "tmg", 1, TM_NONBLOCK))
	TH_LOG("%s", tm.err);
	ASSERT_EQ(0, write_file(T "/instances/tmg/trace_marker",
				"in the instance"));
	while ((r = tracemap_get_reader(&tm, NULL)) > 0) {
		while (tracemap_next(&tm, &ev) > 0) {
			const struct tm_format *f =
				tm_formats_find(&fs, tm_event_type(&ev));

			ASSERT_NE(NULL, f);
			tm_format_payload(f, &ev, got, sizeof(got));
			EXPECT_STREQ("in the instance", got);
			n++;
		}
	}
	EXPECT_EQ(1, n);
	tracemap_close(&tm);
	tm_formats_free(&fs);
	EXPECT_EQ(0, rmdir(T "/instances/tmg"));
}

TEST_HARNESS_MAIN
