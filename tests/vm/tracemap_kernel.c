// SPDX-License-Identifier: MIT
/*
 * examples/lib/tracemap.c against the real kernel, for several sub-buffer
 * sizes: the meta-page, reader swaps, exact decoding of trace_marker
 * writes, missed events against overrun, and what the kernel refuses while
 * the buffer is mapped; then what a tracing system does to a consumer: a
 * reset, a second reader, dropped events, a resize storm during opens, an
 * armed snapshot (the read() fallback), a blocking handle and its wake-up.
 * Run as root in the guest, on CPU 0's buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The harness (and its macros in every test) trips these -Wextra warnings. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "tracemap.h"
#include "tracemerge.h"

#include "tracefs_write.h"
/*
 * A 32-bit build maps too: the guest kernel has GET_READER for 32-bit
 * processes (kernel-patches/0003, see compat_32bit_get_reader), and
 * tracemap-m32.test.sh runs every test of this file in a 32-bit process.
 */
#define MAP_FLAGS TRACEMAP_NONBLOCK

/*
 * Back to the buffer size of a fresh boot, TRACE_BUFFER_KB (vm/guest.conf,
 * exported by the guest's init); without it, the guest scripts'
 * trace_reset does it.
 */
static void restore_buffer_kb(void)
{
	const char *kb = getenv("TRACE_BUFFER_KB");

	if (kb && atoi(kb) > 0)
		write_int(T "/buffer_size_kb", atoi(kb));
}

/*
 * Can this kernel map a CPU's ring buffer (Linux 6.10+)? Debian's 6.1
 * cannot (mmap of trace_pipe_raw is ENODEV, and before 6.8 there is no
 * buffer_subbuf_size_kb): the tests of the mapping skip there, with
 * NO_MAP_WHY (tests/debian-kernels/6.1.expect expects them).
 */
#define NO_MAP_WHY \
	"this kernel cannot map the ring buffer (Linux 6.10+): mapping only"
static int kernel_maps(void)
{
	struct utsname u;
	int major, minor;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 1;
	return major > 6 || (major == 6 && minor >= 10);
}

/*
 * The sub-buffer size the kernel makes of kb KiB asked for: whole pages, a
 * power of two of them (kernel/trace/trace.c, buffer_subbuf_size_write:
 * order fls(pages - 1)). 4 KiB asked is 4 KiB with 4 KiB pages, 64 KiB
 * with 64 KiB pages.
 */
static long subbuf_size_for(int kb)
{
	long page = sysconf(_SC_PAGESIZE),
	     pages = ((long)kb * 1024 + page - 1) / page, n = 1;

	while (n < pages)
		n *= 2;
	return n * page;
}

/*
 * Write markers "<prefix><i>" for i in [from, to) from this CPU. Returns
 * the writes that failed: with overwrite off, a full buffer refuses them
 * (EBADF), each one an event dropped.
 */
static int markers(int from, int to, const char *fmt)
{
	int fd = open(T "/trace_marker", O_WRONLY), failed = 0;
	char buf[64];

	for (int i = from; i < to && fd >= 0; i++) {
		int n = snprintf(buf, sizeof(buf), fmt, i);

		failed += write(fd, buf, (size_t)n) != n;
	}
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? failed : to - from;
}

FIXTURE(map)
{
	struct tracemap tm;
	struct tracemap_formats formats;
	int subbuf_size; /* as the kernel gives it (tracefs, read back) */
	int buffer_kb; /* variant's sub-buffers per CPU, in subbuf_size ones */
	int data_offset; /* the sub-buffer's header: 16, or 12 on a 32-bit kernel */
	int per_page; /* "m%07d" markers a sub-buffer of subbuf_size holds */
};

FIXTURE_VARIANT(map)
{
	int subbuf_kb; /* asked for; the kernel may give more */
	int buffer_kb; /* data KiB per CPU for subbuf_kb KiB sub-buffers */
};

FIXTURE_VARIANT_ADD(map, subbuf_4k){ .subbuf_kb = 4, .buffer_kb = 64 };
FIXTURE_VARIANT_ADD(map, subbuf_8k){ .subbuf_kb = 8, .buffer_kb = 128 };
FIXTURE_VARIANT_ADD(map, subbuf_64k){ .subbuf_kb = 64, .buffer_kb = 512 };

/*
 * The sub-buffer header's size (events/header_page) and, in *record, the
 * bytes of one "m%07d" marker in the buffer: a 4-byte event header, then
 * ftrace/print's buf at its offset (after a 4- or 8-byte ip) holding the 8
 * characters, a newline and a NUL, rounded up to 4 bytes. On a 64-bit
 * kernel 16 and 32; on a 32-bit one 12 and 28.
 */
static int marker_layout(struct __test_metadata *_metadata,
			 const struct tracemap_formats *fs, int *record)
{
	const struct tracemap_format *f =
		tracemap_formats_find_name(fs, "ftrace", "print");
	const struct tracemap_field *buf = f ? tracemap_format_field(f, "buf") :
					       NULL;
	struct tracemap_layout l;
	int err = tracemap_layout_load(&l, T);

	*record = 32;
	EXPECT_EQ(0, err);
	EXPECT_TRUE(buf != NULL);
	if (err || !buf)
		return 16;
	*record = 4 + (((int)buf->offset + 8 + 2 + 3) & ~3);
	return (int)l.data_offset;
}

FIXTURE_SETUP(map)
{
	cpu_set_t set;
	int record;

	if (!kernel_maps())
		SKIP(return, NO_MAP_WHY);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_EQ(0, write_int(T "/tracing_on", 0));
	ASSERT_EQ(0, write_file(T "/current_tracer", "nop"));
	ASSERT_EQ(0, write_int(T "/options/overwrite", 1));
	ASSERT_EQ(0, write_int(T "/buffer_subbuf_size_kb", variant->subbuf_kb));
	/*
	 * Compute with the sub-buffer size the kernel gave, and keep the
	 * variant's number of sub-buffers: with 64 KiB pages, 4 KiB asked is
	 * 64 KiB, and the buffer grows to match.
	 */
	self->subbuf_size = (int)read_number(T "/buffer_subbuf_size_kb") * 1024;
	ASSERT_LT(0, self->subbuf_size);
	self->buffer_kb = variant->buffer_kb / variant->subbuf_kb *
			  (self->subbuf_size / 1024);
	ASSERT_EQ(0, write_int(T "/buffer_size_kb", self->buffer_kb));
	ASSERT_EQ(0, write_file(T "/trace", ""));
	ASSERT_EQ(0, write_int(T "/tracing_on", 1));
	ASSERT_LT(0, tracemap_formats_load(&self->formats, T));
	ASSERT_EQ(0, tracemap_open(&self->tm, NULL, NULL, 0, MAP_FLAGS))
	TH_LOG("%s", tracemap_error(&self->tm));
	self->data_offset = marker_layout(_metadata, &self->formats, &record);
	self->per_page = (self->subbuf_size - self->data_offset) / record;
}

FIXTURE_TEARDOWN(map)
{
	tracemap_close(&self->tm);
	tracemap_formats_free(&self->formats);
	write_int(T "/buffer_subbuf_size_kb", 4);
	restore_buffer_kb();
}

/* Drain: decode every event, checking each marker is "<prefix><i>" in order. */
static int drain(struct __test_metadata *_metadata, struct tracemap *tm,
		 const struct tracemap_formats *fs, const char *fmt, int first,
		 int64_t *missed_sum, uint32_t *ids, int *nr_ids)
{
	int next = first, n = 0, r;
	struct tracemap_event ev;
	struct tracemap_reader rd;
	char want[64], got[256];

	for (;;) {
		while ((r = tracemap_next(tm, &ev)) > 0) {
			const struct tracemap_format *f = tracemap_formats_find(
				fs, tracemap_event_type(&ev));

			if (!f)
				return -1;
			tracemap_format_payload(f, &ev, got, sizeof(got));
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
		ASSERT_LE(0, r) TH_LOG("%s", tracemap_error(tm));
		r = tracemap_get_reader(tm, &rd);
		ASSERT_LE(0, r) TH_LOG("%s", tracemap_error(tm));
		if (missed_sum) {
			EXPECT_NE(TRACEMAP_LOSS_UNKNOWN, (int)rd.loss);
			if (rd.loss == TRACEMAP_LOSS_COUNTED)
				*missed_sum += (int64_t)rd.count;
		} else {
			EXPECT_EQ(TRACEMAP_LOSS_NONE, (int)rd.loss)
			TH_LOG("loss: %s", tracemap_loss_name(rd.loss));
		}
		if (r == 0)
			return n;
		if (ids && *nr_ids < 64 &&
		    (!*nr_ids || ids[*nr_ids - 1] != rd.id))
			ids[(*nr_ids)++] = rd.id;
	}
}

TEST_F(map, meta_page_matches_tracefs)
{
	const struct trace_buffer_meta *m = tracemap_meta(&self->tm);
	int data = self->buffer_kb * 1024,
	    cap = self->subbuf_size - self->data_offset;
	volatile char last;

	ASSERT_EQ(TRACEMAP_MODE_MMAP, (int)tracemap_mode(&self->tm));
	EXPECT_EQ(self->subbuf_size, (int)m->subbuf_size);
	EXPECT_EQ(subbuf_size_for(variant->subbuf_kb), (long)m->subbuf_size);
	EXPECT_EQ(m->subbuf_size, tracemap_subbuf_size(&self->tm));
	EXPECT_EQ(m->subbuf_size, m->meta_page_size);
	EXPECT_EQ((data + cap - 1) / cap + 1, (int)m->nr_subbufs);
	EXPECT_EQ(80, (int)m->meta_struct_len);
	/* The last byte of the last sub-buffer is mapped. */
	last = ((const volatile char *)
			m)[rb_map_len(m->meta_page_size, m->subbuf_size,
				      m->nr_subbufs) -
			   1];
	(void)last;
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
	int nr = 0, per_page = self->per_page, n;

	/* Three sub-buffers of "m%07d" markers and a bit. */
	markers(0, 3 * per_page + 5, "m%07d");
	n = drain(_metadata, &self->tm, &self->formats, "m%07d", 0, NULL, ids,
		  &nr);
	EXPECT_EQ(3 * per_page + 5, n);
	EXPECT_LE(4, nr) TH_LOG("reader.id took %d values", nr);
	for (int i = 0; i < nr; i++)
		EXPECT_GT(tracemap_meta(&self->tm)->nr_subbufs, ids[i]);
}

/*
 * The reader sub-buffer is the writer's: read it live, then let the writer
 * fill it and three more. The next GET_READER only moves reader.read over
 * the events already read, without a swap: tracemap_get_reader() must ask
 * again rather than report "nothing new" while full sub-buffers wait.
 */
TEST_F(map, live_reader_page_then_more_subbufs)
{
	int per_page = self->per_page, n;
	struct tracemap_event ev;

	markers(0, 5, "m%07d");
	ASSERT_EQ(1, tracemap_get_reader(&self->tm, NULL))
	TH_LOG("%s", tracemap_error(&self->tm));
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
	int per_page = self->per_page;
	int total = (int)tracemap_meta(&self->tm)->nr_subbufs * per_page * 3;
	uint64_t overrun0;
	int64_t missed = 0;
	int n;

	ASSERT_LE(0, tracemap_get_reader(&self->tm, NULL));
	overrun0 = tracemap_meta(&self->tm)->overrun;
	markers(0, total, "m%07d");
	n = drain(_metadata, &self->tm, &self->formats, "m%07d", 0, &missed,
		  NULL, NULL);
	EXPECT_LT(0, missed);
	EXPECT_EQ((int64_t)(tracemap_meta(&self->tm)->overrun - overrun0),
		  missed);
	EXPECT_EQ(total, n + missed)
	TH_LOG("delivered %d missed %lld", n, (long long)missed);
}

TEST_F(map, refused_mappings)
{
	const struct trace_buffer_meta *m = tracemap_meta(&self->tm);
	size_t len =
		rb_map_len(m->meta_page_size, m->subbuf_size, m->nr_subbufs);
	int fd = tracemap_fd(&self->tm);
	int rw = open(T "/per_cpu/cpu0/trace_pipe_raw", O_RDWR);

	errno = 0;
	EXPECT_TRUE(mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) ==
		    MAP_FAILED);
	EXPECT_EQ(EPERM, errno);
	errno = 0;
	EXPECT_TRUE(mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 0) == MAP_FAILED);
	EXPECT_EQ(EACCES, errno); /* the fd is read-only */
	ASSERT_LE(0, rw);
	errno = 0;
	EXPECT_TRUE(mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, rw,
			 0) == MAP_FAILED);
	EXPECT_EQ(EPERM, errno); /* the ring buffer refuses it */
	errno = 0;
	EXPECT_TRUE(mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0) ==
		    MAP_FAILED);
	EXPECT_EQ(EPERM, errno);
	close(rw);
}

TEST_F(map, busy_while_mapped)
{
	EXPECT_EQ(-EBUSY, write_int(T "/buffer_size_kb", self->buffer_kb * 2));
	/*
	 * Twice the size the kernel gave: another order. (Twice the size
	 * asked can be the same order, 8 KiB and 4 KiB both one 64 KiB page,
	 * which the kernel accepts before its check for a mapping.)
	 */
	EXPECT_EQ(-EBUSY, write_int(T "/buffer_subbuf_size_kb",
				    self->subbuf_size / 1024 * 2));
	EXPECT_EQ(-EBUSY, write_int(T "/snapshot", 1));
}

TEST_F(map, partial_munmap_refused)
{
	const struct trace_buffer_meta *m = tracemap_meta(&self->tm);
	char *base = (char *)m;

	errno = 0;
	EXPECT_EQ(-1, munmap(base + m->meta_page_size, m->subbuf_size));
	EXPECT_EQ(EINVAL, errno);
	/* Still mapped and usable. */
	markers(1, 17, "marker %d");
	EXPECT_EQ(16, drain(_metadata, &self->tm, &self->formats, "marker %d",
			    1, NULL, NULL, NULL));
}

/* What a drain saw: events (their text), losses by kind, the first error. */
struct seen {
	char text[512][32];
	int events;
	int loss[TRACEMAP_LOSS_OTHER_READER + 1];
	uint64_t counted, dropped;
	int error;
	char err[256];
};

//! [drain-with-losses]
/* Drain tm into *out until it has nothing new; never asserts. */
static void drain_into(struct tracemap *tm, const struct tracemap_formats *fs,
		       struct seen *out)
{
	struct tracemap_item it;
	int r;

	while ((r = tracemap_read(tm, &it)) > 0) {
		if (it.is_loss) {
			out->loss[it.loss.loss]++;
			if (it.loss.loss == TRACEMAP_LOSS_COUNTED)
				out->counted += it.loss.count;
			if (it.loss.loss == TRACEMAP_LOSS_DROPPED)
				out->dropped += it.loss.count;
			if (it.loss.loss == TRACEMAP_LOSS_RESET ||
			    it.loss.loss == TRACEMAP_LOSS_OTHER_READER)
				snprintf(out->err, sizeof(out->err), "%s",
					 tracemap_error(tm));
		} else {
			const struct tracemap_format *f = tracemap_formats_find(
				fs, tracemap_event_type(&it.ev));
			char *t =
				out->text[out->events < 512 ? out->events : 511];

			if (f)
				tracemap_format_payload(f, &it.ev, t,
							sizeof(out->text[0]));
			else
				snprintf(t, sizeof(out->text[0]), "?");
			out->events++;
		}
	}
	if (r < 0) {
		out->error = r;
		snprintf(out->err, sizeof(out->err), "%s", tracemap_error(tm));
	}
}
//! [drain-with-losses]

/* The events of out that are "after <i>": 1..n in order, nothing else after them. */
static int afters_in_order(const struct seen *out, int n)
{
	int next = 1;

	for (int i = 0; i < out->events && i < 512; i++) {
		int k;

		if (sscanf(out->text[i], "after %d", &k) != 1)
			continue;
		if (k != next)
			return -next;
		next++;
	}
	return next - 1 == n ? n : -next;
}

/*
 * A reset while the reader is in the middle of a live sub-buffer: the
 * commit word goes back to 0. Re-synchronise, report it, and deliver
 * everything written after it.
 */
static void reset_mid_stream(struct __test_metadata *_metadata,
			     struct tracemap *tm,
			     const struct tracemap_formats *fs, bool by_clock)
{
	static struct seen out;
	struct tracemap_event ev;
	int n;

	memset(&out, 0, sizeof(out));
	markers(0, 5, "m%07d");
	ASSERT_EQ(1, tracemap_get_reader(tm, NULL))
	TH_LOG("%s", tracemap_error(tm));
	for (n = 0; n < 3 && tracemap_next(tm, &ev) > 0; n++)
		;
	ASSERT_EQ(3, n);
	if (by_clock) {
		ASSERT_EQ(0, write_file(T "/trace_clock", "global"));
		ASSERT_EQ(0, write_file(T "/trace_clock", "local"));
	} else {
		ASSERT_EQ(0, write_file(T "/trace", ""));
	}
	markers(1, 17, "after %d");
	drain_into(tm, fs, &out);
	EXPECT_EQ(0, out.error) TH_LOG("%s", out.err);
	EXPECT_LE(1, out.loss[TRACEMAP_LOSS_RESET]);
	EXPECT_TRUE(strstr(out.err, "was reset") != NULL) TH_LOG("%s", out.err);
	EXPECT_EQ(16, afters_in_order(&out, 16))
	TH_LOG("%d events after the reset, first '%s'", out.events,
	       out.text[0]);
}

TEST_F(map, reset_mid_stream_echo_trace)
{
	reset_mid_stream(_metadata, &self->tm, &self->formats, false);
}

TEST_F(map, reset_mid_stream_trace_clock)
{
	reset_mid_stream(_metadata, &self->tm, &self->formats, true);
	write_file(T "/trace_clock", "local");
}

/*
 * Two consumers of CPU 0 (two handles here; two processes behave the
 * same): each sees the meta-page move under it when the other swaps, and
 * says so, with no error and no event twice.
 */
TEST_F(map, second_tracemap_reader_detected)
{
	static struct seen a, b;
	struct tracemap other;
	int per_page = self->per_page;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	ASSERT_EQ(0, tracemap_open(&other, NULL, NULL, 0, TRACEMAP_NONBLOCK))
	TH_LOG("%s", tracemap_error(&other));
	markers(0, 3 * per_page, "m%07d");
	drain_into(&self->tm, &self->formats, &a);
	drain_into(&other, &self->formats, &b);
	markers(0, 3 * per_page, "m%07d");
	drain_into(&other, &self->formats, &b);
	drain_into(&self->tm, &self->formats, &a);
	tracemap_close(&other);
	EXPECT_EQ(0, a.error) TH_LOG("%s", a.err);
	EXPECT_EQ(0, b.error) TH_LOG("%s", b.err);
	EXPECT_LE(1, a.loss[TRACEMAP_LOSS_OTHER_READER]);
	EXPECT_LE(1, b.loss[TRACEMAP_LOSS_OTHER_READER]);
	EXPECT_TRUE(strstr(a.err, "another reader is consuming cpu0") != NULL)
	TH_LOG("%s", a.err);
	EXPECT_TRUE(strstr(b.err, "another reader is consuming cpu0") != NULL)
	TH_LOG("%s", b.err);
	/* Each first drain got all of its round; the others got none twice. */
	EXPECT_EQ(6 * per_page, a.events + b.events)
	TH_LOG("a %d b %d", a.events, b.events);
}

/* A reader without the library: CPU 0 mapped (len bytes) into *p; its fd. */
static int map_other_reader(size_t len, void **p)
{
	int fd = open(T "/per_cpu/cpu0/trace_pipe_raw", O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return -1;
	*p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (*p == MAP_FAILED) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A reader that does not use the library (its own mapping and
 * GET_READER) takes sub-buffers from under us: detected, reported as
 * TRACEMAP_LOSS_OTHER_READER with a clear sentence, never a "bad record", and
 * no event is delivered twice.
 */
TEST_F(map, foreign_reader_detected)
{
	static struct seen out;
	const struct trace_buffer_meta *m = tracemap_meta(&self->tm);
	size_t len =
		rb_map_len(m->meta_page_size, m->subbuf_size, m->nr_subbufs);
	int per_page = self->per_page, fd, prev = -1, dup = 0;
	void *p;

	memset(&out, 0, sizeof(out));
	fd = map_other_reader(len, &p);
	ASSERT_LE(0, fd);
	markers(0, 3 * per_page, "m%07d");
	EXPECT_EQ(0, ioctl(fd, TRACE_MMAP_IOCTL_GET_READER));
	drain_into(&self->tm, &self->formats, &out);
	EXPECT_EQ(0, out.error) TH_LOG("%s", out.err);
	EXPECT_LE(1, out.loss[TRACEMAP_LOSS_OTHER_READER]);
	EXPECT_TRUE(strstr(out.err, "another reader is consuming cpu0") != NULL)
	TH_LOG("%s", out.err);
	for (int i = 0; i < out.events && i < 512; i++) {
		int k;

		if (sscanf(out.text[i], "m%d", &k) == 1) {
			dup += k <= prev;
			prev = k;
		}
	}
	EXPECT_EQ(0, dup);
	EXPECT_LT(0, out.events);
	munmap(p, len);
	close(fd);
}

/*
 * Our GET_READER hands us a full sub-buffer and counts its events read;
 * before we read them, another reader's GET_READER swaps it back into the
 * ring, which zeroes its commit. The events are still there until the
 * writer comes round: we deliver them all, then say the other took the
 * next one. Before: the zeroed commit looked like a reset under us, and
 * every event of the sub-buffer was lost, reported as taken by the other.
 */
TEST_F(map, claimed_subbuf_swapped_out_by_other)
{
	static struct seen out;
	const struct trace_buffer_meta *m = tracemap_meta(&self->tm);
	size_t len =
		rb_map_len(m->meta_page_size, m->subbuf_size, m->nr_subbufs);
	int per_page = self->per_page, fd, k = -1;
	void *p;

	memset(&out, 0, sizeof(out));
	fd = map_other_reader(len, &p);
	ASSERT_LE(0, fd);
	markers(0, 3 * per_page, "m%07d");
	ASSERT_EQ(1, tracemap_get_reader(&self->tm, NULL))
	TH_LOG("%s", tracemap_error(&self->tm));
	/* the other's: ours is counted read, so this one swaps it out */
	EXPECT_EQ(0, ioctl(fd, TRACE_MMAP_IOCTL_GET_READER));
	drain_into(&self->tm, &self->formats, &out);
	EXPECT_EQ(0, out.error) TH_LOG("%s", out.err);
	EXPECT_EQ(0, out.loss[TRACEMAP_LOSS_RESET]) TH_LOG("%s", out.err);
	EXPECT_LE(1, out.loss[TRACEMAP_LOSS_OTHER_READER]);
	/* ours whole (the first 511 kept as text), and the third */
	EXPECT_EQ(2 * per_page, out.events);
	for (int i = 0; i < per_page && i < 511; i++) {
		if (sscanf(out.text[i], "m%d", &k) != 1 || k != i)
			break;
	}
	EXPECT_EQ((per_page < 511 ? per_page : 511) - 1, k)
	TH_LOG("the claimed sub-buffer's events: first '%s', %d delivered",
	       out.text[0], out.events);
	munmap(p, len);
	close(fd);
}

/* CPU 0's "dropped events" (per_cpu/cpu0/stats), or -1. */
static long cpu0_dropped(void)
{
	FILE *f = fopen(T "/per_cpu/cpu0/stats", "r");
	long dropped = -1;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "dropped events: %ld", &dropped) == 1)
			break;
	if (f)
		fclose(f);
	return dropped;
}

/* Overwrite off: the writer drops new events; the library says how many. */
TEST_F(map, dropped_reported_when_overwrite_off)
{
	static struct seen out;
	int per_page = self->per_page;
	/* three times what the buffer holds (no meta-page in read() mode) */
	int total =
		(self->buffer_kb * 1024 / self->subbuf_size + 2) * per_page * 3;
	long dropped;
	int refused;

	memset(&out, 0, sizeof(out));
	ASSERT_EQ(0, write_int(T "/options/overwrite", 0));
	refused = markers(0, total, "m%07d");
	drain_into(&self->tm, &self->formats, &out);
	dropped = cpu0_dropped();
	write_int(T "/options/overwrite", 1);
	EXPECT_EQ(0, out.error) TH_LOG("%s", out.err);
	EXPECT_LT(0, dropped);
	EXPECT_EQ((uint64_t)dropped, out.dropped);
	EXPECT_EQ(total, out.events + (int)out.dropped)
	TH_LOG("delivered %d dropped %llu", out.events,
	       (unsigned long long)out.dropped);
	EXPECT_EQ(refused, dropped); /* each refused write was dropped */
	EXPECT_EQ(0, out.loss[TRACEMAP_LOSS_COUNTED] +
			     out.loss[TRACEMAP_LOSS_UNKNOWN]);
}

struct waker {
	struct tracemap *tm;
	int after_ms; /* wake after this long */
	volatile int woke; /* it had to */
	volatile int done; /* the reader returned */
};

static void *waker_thread(void *arg)
{
	struct waker *w = arg;

	for (int i = 0; i < w->after_ms / 10 && !w->done; i++)
		usleep(10000);
	if (!w->done) {
		w->woke = 1;
		tracemap_wake(w->tm);
	}
	return NULL;
}

/*
 * A blocking handle (buffer_percent 50) with a few sub-buffers of events
 * (far below 50 %): the drain gets them all without waiting, and only
 * the call after the one that found nothing waits, until tracemap_wake().
 */
TEST_F(map, blocking_handle_waits_once_and_wakes)
{
	static struct seen out;
	int per_page = self->per_page;
	struct waker w = { &self->tm, 5000, 0, 0 };
	struct timespec t0, t1;
	pthread_t th;
	double waited;
	int r;

	memset(&out, 0, sizeof(out));
	tracemap_close(&self->tm);
	ASSERT_EQ(0, tracemap_open(&self->tm, NULL, NULL, 0, 0))
	TH_LOG("%s", tracemap_error(&self->tm));
	markers(0, 2 * per_page, "m%07d");
	ASSERT_EQ(0, pthread_create(&th, NULL, waker_thread, &w));
	drain_into(&self->tm, &self->formats, &out);
	w.done = 1;
	pthread_join(th, NULL);
	EXPECT_EQ(0, out.error) TH_LOG("%s", out.err);
	EXPECT_EQ(0, w.woke) TH_LOG("the drain blocked until woken");
	EXPECT_EQ(2 * per_page, out.events);

	/* Drained: this call waits, and another thread wakes it. */
	w = (struct waker){ &self->tm, 300, 0, 0 };
	ASSERT_EQ(0, pthread_create(&th, NULL, waker_thread, &w));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = tracemap_get_reader(&self->tm, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	w.done = 1;
	pthread_join(th, NULL);
	waited = (double)(t1.tv_sec - t0.tv_sec) +
		 (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	EXPECT_LE(0, r) TH_LOG("%s", tracemap_error(&self->tm));
	EXPECT_EQ(1, w.woke);
	EXPECT_LT(0.25, waited);
	EXPECT_GT(3.0, waited);
}

#if __SIZEOF_LONG__ == 4
/*
 * A 32-bit process on the 64-bit kernel: mmap and GET_READER both work
 * (kernel-patches/0003 gives trace_pipe_raw its compat_ioctl; without it,
 * Debian's 6.12 answers ENOTTY), and the library maps without falling back.
 */
TEST(compat_32bit_get_reader)
{
	struct tracemap tm;
	int fd = open(T "/per_cpu/cpu0/trace_pipe_raw", O_RDONLY | O_NONBLOCK);
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	if (!kernel_maps())
		SKIP(return, NO_MAP_WHY);
	ASSERT_LE(0, fd);
	p = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	EXPECT_EQ(0, ioctl(fd, TRACE_MMAP_IOCTL_GET_READER))
	TH_LOG("GET_READER: %s", strerror(errno));
	EXPECT_EQ(0, ioctl(fd, 0));
	munmap(p, (size_t)page);
	close(fd);
	ASSERT_EQ(0, tracemap_open(&tm, NULL, NULL, 0, TRACEMAP_NONBLOCK))
	TH_LOG("%s", tracemap_error(&tm));
	EXPECT_EQ(TRACEMAP_MODE_MMAP, (int)tracemap_mode(&tm));
	tracemap_close(&tm);
}
#endif

/*
 * A snapshot trigger keeps a snapshot armed, so mmap fails with EBUSY;
 * with TRACEMAP_FALLBACK_READ the events arrive through read(). (Its count 0
 * never takes a snapshot, so the buffer is never swapped under us.)
 */
FIXTURE(snapshot_armed){};
FIXTURE_SETUP(snapshot_armed)
{
}
/*
 * The snapshot is armed by a function probe on ksys_sync(), which nothing
 * calls during the tests: ftrace patches the probed function's entry live,
 * and with schedule() probed a TCG guest once died of an int3 oops at
 * schedule+0x1 while the probe was removed.
 * Disarm even when the test stopped early: every later test needs mmap.
 */
FIXTURE_TEARDOWN(snapshot_armed)
{
	write_file(T "/set_ftrace_filter", "!ksys_sync:snapshot:0");
}

TEST_F(snapshot_armed, read_fallback)
{
	static struct seen out;
	struct tracemap tm;
	struct tracemap_formats fs;
	cpu_set_t set;

	memset(&out, 0, sizeof(out));
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_LT(0, tracemap_formats_load(&fs, T));
	ASSERT_EQ(0, write_file(T "/trace", ""));
	ASSERT_EQ(0,
		  write_file(T "/set_ftrace_filter", "ksys_sync:snapshot:0"));
	EXPECT_EQ(-EBUSY, tracemap_open(&tm, NULL, NULL, 0, TRACEMAP_NONBLOCK));
	ASSERT_EQ(0, tracemap_open(&tm, NULL, NULL, 0,
				   TRACEMAP_NONBLOCK | TRACEMAP_FALLBACK_READ))
	TH_LOG("%s", tracemap_error(&tm));
	EXPECT_EQ(TRACEMAP_MODE_READ, (int)tracemap_mode(&tm));
	EXPECT_TRUE(tracemap_meta(&tm) == NULL);
	EXPECT_TRUE(strstr(tracemap_notice(&tm), "snapshot is armed") != NULL)
	TH_LOG("notice: '%s'", tracemap_notice(&tm));
	EXPECT_STREQ("", tracemap_error(&tm));
	markers(1, 17, "after %d");
	drain_into(&tm, &fs, &out);
	tracemap_close(&tm);
	/* A counted probe is removed with its count. */
	EXPECT_EQ(0,
		  write_file(T "/set_ftrace_filter", "!ksys_sync:snapshot:0"));
	EXPECT_EQ(0, out.error) TH_LOG("%s", out.err);
	EXPECT_EQ(16, afters_in_order(&out, 16))
	TH_LOG("%d events, first '%s'", out.events, out.text[0]);
	tracemap_formats_free(&fs);
}

static sigjmp_buf fault_jmp;

/* The length of the mapping that starts at p, from /proc/self/maps, or 0. */
static size_t mapping_len(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long lo, hi;
	size_t len = 0;
	char line[512];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 &&
		    lo == (uintptr_t)p) {
			len = (size_t)(hi - lo);
			break;
		}
	if (f)
		fclose(f);
	return len;
}

static void on_fault(int sig)
{
	siglongjmp(fault_jmp, sig);
}

/*
 * Resize storm: a child flips buffer_size_kb (64/128) and
 * buffer_subbuf_size_kb (4/8) as fast as it can while this process opens
 * CPU 0 500 times (TRACEMAP_STORM_OPENS). Each mapping must match its
 * meta-page to the last byte (its length in /proc/self/maps); no fault,
 * no mismatch, no failure. The race is a resize between the probe's
 * mapping and the whole buffer's: the test counts the opens during which
 * at least one resize ended and fails unless a quarter of them did (about
 * four resizes end during each open under TCG), so that the storm
 * provably hit the window it is about.
 */
FIXTURE(storm){};
/*
 * Free the snapshot buffer an earlier test allocated (a snapshot probe
 * leaves it allocated after its removal). With it allocated, a resize
 * changes the main buffer, then the snapshot buffer, and puts the main
 * buffer back if the second step fails; when that put-back fails too,
 * the kernel disables tracing for the rest of the boot (tracing_disabled
 * in trace.c: __tracing_resize_ring_buffer(), buffer_subbuf_size_write())
 * and every tracefs file answers ENODEV. ENODEV after the storm was seen in one of two runs before this setup.
 */
FIXTURE_SETUP(storm)
{
	if (!kernel_maps())
		SKIP(return, NO_MAP_WHY);
	ASSERT_EQ(0, write_int(T "/snapshot", 0));
}
FIXTURE_TEARDOWN(storm)
{
	write_int(T "/buffer_subbuf_size_kb", 4);
	restore_buffer_kb();
}

/* 500 opens take about 25 s under TCG: more than the default 30 s when busy. */
TEST_F_TIMEOUT(storm, resize_during_opens, 400)
{
	const char *env = getenv("TRACEMAP_STORM_OPENS");
	int opens = env ? atoi(env) : 500, overlapped = 0;
	struct sigaction sa = { .sa_handler = on_fault }, old_segv, old_bus;
	volatile int crashes = 0, mismatches = 0, failures = 0, i;
	long *resizes;
	cpu_set_t set;
	pid_t child;

	resizes = mmap(NULL, sizeof(*resizes), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(resizes != MAP_FAILED);
	*resizes = 0;
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		CPU_ZERO(&set);
		CPU_SET(1, &set);
		sched_setaffinity(0, sizeof(set), &set);
		for (int k = 0;; k++) {
			if (!write_int(T "/buffer_size_kb", k & 1 ? 64 : 128))
				__atomic_add_fetch(resizes, 1,
						   __ATOMIC_RELAXED);
			if (!write_int(T "/buffer_subbuf_size_kb",
				       k & 2 ? 4 : 8))
				__atomic_add_fetch(resizes, 1,
						   __ATOMIC_RELAXED);
		}
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	for (i = 0; i < opens; i++) {
		struct tracemap tm;
		const struct trace_buffer_meta *m;
		long before = __atomic_load_n(resizes, __ATOMIC_RELAXED);
		int r = tracemap_open(&tm, NULL, NULL, 0, TRACEMAP_NONBLOCK);

		if (__atomic_load_n(resizes, __ATOMIC_RELAXED) != before)
			overlapped++;
		if (r) {
			failures++;
			if (r >= 0 || !tracemap_error(&tm)[0] || failures < 4)
				TH_LOG("open %d: %d '%s'", i, r,
				       tracemap_error(&tm));
			continue;
		}
		m = tracemap_meta(&tm);
		if (sigsetjmp(fault_jmp, 1)) {
			crashes++;
		} else {
			size_t len = rb_map_len(m->meta_page_size,
						m->subbuf_size, m->nr_subbufs);
			volatile char c = ((const volatile char *)m)[len - 1];

			(void)c;
			if (mapping_len(m) != len ||
			    m->subbuf_size != tracemap_subbuf_size(&tm) ||
			    m->reader.id >= m->nr_subbufs)
				mismatches++;
		}
		tracemap_close(&tm);
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	TH_LOG("%d opens: %d failed, %d faulted, %d mismatched; %ld resizes, %d opens with a resize during them",
	       opens, failures, crashes, mismatches, *resizes, overlapped);
	EXPECT_LT(10, *resizes) TH_LOG("no storm: the test proves nothing");
	EXPECT_LE(opens / 4, overlapped)
	TH_LOG("few resizes during the opens: the test proves little");
	EXPECT_EQ(0, crashes);
	EXPECT_EQ(0, mismatches);
	EXPECT_EQ(0, failures);
	EXPECT_EQ(0, write_int(T "/tracing_on", 1))
	TH_LOG("tracefs no longer answers: the storm disabled tracing");
	munmap(resizes, sizeof(*resizes));
}

TEST(open_errors)
{
	struct tracemap tm;

	EXPECT_EQ(-ENODEV, tracemap_open(&tm, NULL, NULL, 99, 0));
	EXPECT_TRUE(strstr(tracemap_error(&tm), "no CPU 99") != NULL);
	EXPECT_EQ(-ENOENT, tracemap_open(&tm, NULL, "tmg-no-such", 0, 0));
	EXPECT_TRUE(strstr(tracemap_error(&tm), "no instance") != NULL);
	EXPECT_EQ(-ENOENT, tracemap_open(&tm, "/nonexistent", NULL, 0, 0));
	EXPECT_TRUE(strstr(tracemap_error(&tm), "tracefs not found") != NULL);
	if (!kernel_maps())
		SKIP(return,
			   NO_MAP_WHY " (the rest: an armed snapshot's EBUSY)");
	/*
	 * An armed snapshot makes mapping fail with EBUSY. "echo 1 >snapshot"
	 * arms and disarms at once; a snapshot trigger stays armed.
	 */
	ASSERT_EQ(0, write_file(T "/set_ftrace_filter", "ksys_sync:snapshot"));
	EXPECT_EQ(-EBUSY, tracemap_open(&tm, NULL, NULL, 0, 0));
	EXPECT_TRUE(strstr(tracemap_error(&tm), "snapshot is armed") != NULL);
	ASSERT_EQ(0, write_file(T "/set_ftrace_filter", "!ksys_sync:snapshot"));
	EXPECT_EQ(0, tracemap_open(&tm, NULL, NULL, 0, MAP_FLAGS))
	TH_LOG("%s", tracemap_error(&tm));
	tracemap_close(&tm);
}

TEST(instance_buffer)
{
	struct tracemap tm;
	struct tracemap_formats fs;
	cpu_set_t set;
	int n = 0, r;
	struct tracemap_event ev;
	char got[128];

	if (!kernel_maps())
		SKIP(return, NO_MAP_WHY);
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	rmdir(T "/instances/tmg");
	ASSERT_EQ(0, mkdir(T "/instances/tmg", 0755));
	ASSERT_LT(0, tracemap_formats_load(&fs, T "/instances/tmg"));
	ASSERT_EQ(0, tracemap_open(&tm, NULL, "tmg", 1, MAP_FLAGS))
	TH_LOG("%s", tracemap_error(&tm));
	ASSERT_EQ(0, write_file(T "/instances/tmg/trace_marker",
				"in the instance"));
	while ((r = tracemap_get_reader(&tm, NULL)) > 0) {
		while (tracemap_next(&tm, &ev) > 0) {
			const struct tracemap_format *f = tracemap_formats_find(
				&fs, tracemap_event_type(&ev));

			ASSERT_TRUE(f != NULL);
			tracemap_format_payload(f, &ev, got, sizeof(got));
			EXPECT_STREQ("in the instance", got);
			n++;
		}
	}
	EXPECT_EQ(1, n);
	tracemap_close(&tm);
	tracemap_formats_free(&fs);
	EXPECT_EQ(0, rmdir(T "/instances/tmg"));
}

/* The merge opens every online CPU, and a clean open leaves no error text. */
TEST(merge_opens_every_cpu)
{
	struct tracemap_merge m;
	int n;

	if (!kernel_maps())
		SKIP(return, NO_MAP_WHY);
	n = tracemap_merge_open(&m, NULL, NULL, NULL, 0, TRACEMAP_NONBLOCK);
	ASSERT_LE(0, n) TH_LOG("%s", tracemap_merge_error(&m));
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN), n);
	EXPECT_EQ(n, tracemap_merge_count(&m));
	EXPECT_EQ(0, tracemap_merge_offline(&m));
	EXPECT_STREQ("", tracemap_merge_error(&m));
	for (int i = 0; i < n; i++)
		EXPECT_EQ(i, tracemap_cpu(tracemap_merge_map(&m, i)));
	EXPECT_TRUE(tracemap_merge_map(&m, n) == NULL);
	tracemap_merge_close(&m);
}

TEST_HARNESS_MAIN
