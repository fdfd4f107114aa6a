// SPDX-License-Identifier: MIT
/*
 * The guide's claims about TRACE_MMAP_IOCTL_GET_READER that need C: its
 * errors, the wake-up by ioctl(fd, 0), what a signal does to a blocking
 * call with and without SA_RESTART, and how long a mapping and an open
 * trace_pipe_raw hold the buffer. Run as root in the guest, on CPU 0.
 * docs-claims-rb.test.sh runs it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The harness (and its macros in every test) trips these -Wextra warnings. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "trace_mmap_compat.h"
#include "tracemap.h"

#include "tracefs_write.h"
#define RAW T "/per_cpu/cpu0/trace_pipe_raw"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* An empty CPU 0 buffer, blocking calls wait for buffer_percent 50. */
static int reset(void)
{
	if (write_file(T "/buffer_percent", "50") ||
	    write_file(T "/trace", "") || write_file(T "/tracing_on", "1"))
		return -1;
	return 0;
}

/* Map the meta-page of fd: one page is enough to own a mapping. */
static void *map_meta(int fd)
{
	void *p =
		mmap(NULL, (size_t)getpagesize(), PROT_READ, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

TEST(get_reader_without_mapping_enodev)
{
	int fd = open(RAW, O_RDONLY | O_NONBLOCK);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, TRACE_MMAP_IOCTL_GET_READER));
	EXPECT_EQ(ENODEV, errno);
	close(fd);
}

TEST(other_commands_enotty)
{
	int fd = open(RAW, O_RDONLY | O_NONBLOCK);
	void *meta;

	ASSERT_GE(fd, 0);
	meta = map_meta(fd);
	ASSERT_NE(NULL, meta);
	/* TCGETS is _IO('T', 0x1), the series' old GET_READER number. */
	EXPECT_EQ(0x5401U, _IO('T', 0x1));
	EXPECT_EQ(-1, ioctl(fd, _IO('T', 0x1)));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(0, isatty(fd));
	EXPECT_EQ(-1, ioctl(fd, _IO('R', 0x21)));
	EXPECT_EQ(ENOTTY, errno);
	munmap(meta, (size_t)getpagesize());
	close(fd);
}

struct waiter {
	int fd;
	int ret;
	int err;
	double waited;
	atomic_int done;
};

static void *wait_get_reader(void *arg)
{
	struct waiter *w = arg;
	double start = now_ms();

	w->ret = ioctl(w->fd, TRACE_MMAP_IOCTL_GET_READER);
	w->err = errno;
	w->waited = now_ms() - start;
	atomic_store(&w->done, 1);
	return NULL;
}

/* Whether the waiter returned within ms milliseconds. */
static int returned_within(struct waiter *w, int ms)
{
	for (int i = 0; i < ms / 10 && !atomic_load(&w->done); i++)
		usleep(10 * 1000);
	return atomic_load(&w->done);
}

/*
 * Start a blocking GET_READER on a mapped, empty CPU 0 buffer in a thread,
 * let it wait 300 ms, call wake() (0 or -errno), and see whether the call
 * returns within ms milliseconds. A call that does not is woken with
 * ioctl(fd, 0) so that the test ends either way. Returns whether wake()
 * woke it.
 */
static int woken_by(struct __test_metadata *_metadata, int (*wake)(void),
		    int ms)
{
	struct waiter w = { 0 };
	pthread_t th;
	void *meta;
	int woke, fd2;

	EXPECT_EQ(0, reset());
	w.fd = open(RAW, O_RDONLY);
	EXPECT_GE(w.fd, 0);
	meta = map_meta(w.fd);
	EXPECT_NE(NULL, meta);
	if (w.fd < 0 || !meta)
		return -1;
	EXPECT_EQ(0, pthread_create(&th, NULL, wait_get_reader, &w));
	usleep(300 * 1000);
	EXPECT_FALSE(atomic_load(&w.done));
	EXPECT_EQ(0, wake());
	woke = returned_within(&w, ms);
	if (!woke) {
		fd2 = open(RAW, O_RDONLY | O_NONBLOCK);
		EXPECT_EQ(0, ioctl(fd2, 0));
		close(fd2);
	}
	pthread_join(th, NULL);
	EXPECT_EQ(0, w.ret) TH_LOG("errno %d", w.err);
	munmap(meta, (size_t)getpagesize());
	close(w.fd);
	return woke;
}

TEST(cmd_zero_wakes_a_blocked_get_reader)
{
	struct waiter w = { 0 };
	pthread_t th;
	void *meta;
	int fd2;

	ASSERT_EQ(0, reset());
	w.fd = open(RAW, O_RDONLY);
	ASSERT_GE(w.fd, 0);
	meta = map_meta(w.fd);
	ASSERT_NE(NULL, meta);
	ASSERT_EQ(0, pthread_create(&th, NULL, wait_get_reader, &w));
	usleep(500 * 1000);
	/* Another descriptor of the same CPU buffer wakes every waiter. */
	fd2 = open(RAW, O_RDONLY | O_NONBLOCK);
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(0, ioctl(fd2, 0));
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, w.ret) TH_LOG("errno %d", w.err);
	/* Without the wake-up it would wait until the harness's timeout. */
	EXPECT_GT(w.waited, 400.0);
	EXPECT_LT(w.waited, 20000.0);
	close(fd2);
	munmap(meta, (size_t)getpagesize());
	close(w.fd);
}

static int close_another_fd(void)
{
	int fd = open(RAW, O_RDONLY | O_NONBLOCK);

	return fd < 0 ? -errno : close(fd);
}

static int tracing_off(void)
{
	int ret = write_file(T "/tracing_on", "0");

	return ret ? ret : write_file(T "/tracing_on", "1");
}

static int one_event(void)
{
	return write_file(T "/trace_marker", "one event");
}

/* About two sub-buffers of events: the writer leaves the first. */
static int two_subbufs_of_events(void)
{
	int ret = 0;

	for (int i = 0; i < 2 * getpagesize() / 32 && !ret; i++)
		ret = write_file(T "/trace_marker", "x");
	return ret;
}

/* A close() of any descriptor of the CPU buffer runs its flush: a wake-up. */
TEST(close_of_another_fd_wakes_a_blocked_get_reader)
{
	EXPECT_EQ(1, woken_by(_metadata, close_another_fd, 15000));
}

TEST(tracing_off_wakes_a_blocked_get_reader)
{
	EXPECT_EQ(1, woken_by(_metadata, tracing_off, 15000));
}

/* At buffer_percent 50, one event on an empty buffer wakes nobody... */
TEST(one_event_leaves_a_get_reader_waiting)
{
	EXPECT_EQ(0, woken_by(_metadata, one_event, 3000));
}

/* ...but the writer leaving its first sub-buffer does, far below 50 %. */
TEST(writer_leaving_a_subbuf_wakes_a_get_reader_started_empty)
{
	EXPECT_EQ(1, woken_by(_metadata, two_subbufs_of_events, 15000));
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/*
 * A signal ends the wait with -ERESTARTSYS: without SA_RESTART the call
 * fails with EINTR; with it the call restarts and waits on, here until a
 * second thread wakes it with ioctl(fd, 0).
 */
static void *wake_later(void *arg)
{
	int fd = open(RAW, O_RDONLY | O_NONBLOCK);

	(void)arg;
	usleep(1500 * 1000);
	if (fd >= 0) {
		ioctl(fd, 0);
		close(fd);
	}
	return NULL;
}

static void blocking_call_with_alarm(struct __test_metadata *_metadata,
				     int sa_flags, struct waiter *w)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = sa_flags };
	pthread_t th;
	void *meta;

	ASSERT_EQ(0, reset());
	alarms = 0;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	w->fd = open(RAW, O_RDONLY);
	ASSERT_GE(w->fd, 0);
	meta = map_meta(w->fd);
	ASSERT_NE(NULL, meta);
	ASSERT_EQ(0, pthread_create(&th, NULL, wake_later, NULL));
	alarm(1);
	wait_get_reader(w);
	alarm(0);
	ASSERT_EQ(0, pthread_join(th, NULL));
	munmap(meta, (size_t)getpagesize());
	close(w->fd);
}

TEST(signal_without_sa_restart_eintr)
{
	struct waiter w = { 0 };

	blocking_call_with_alarm(_metadata, 0, &w);
	EXPECT_EQ(1, alarms);
	EXPECT_EQ(-1, w.ret);
	/* Only the alarm gives EINTR: the wake-up at 1.5 s would give 0. */
	EXPECT_EQ(EINTR, w.err);
}

TEST(signal_with_sa_restart_restarts)
{
	struct waiter w = { 0 };

	blocking_call_with_alarm(_metadata, SA_RESTART, &w);
	EXPECT_EQ(1, alarms);
	EXPECT_EQ(0, w.ret) TH_LOG("errno %d", w.err);
	EXPECT_GT(w.waited, 1400.0);
}

/* A blocking call on an unmapped descriptor waits first, then fails. */
TEST(unmapped_blocking_get_reader_waits_then_enodev)
{
	struct waiter w = { 0 };
	pthread_t th;

	ASSERT_EQ(0, reset());
	w.fd = open(RAW, O_RDONLY);
	ASSERT_GE(w.fd, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, wake_later, NULL));
	wait_get_reader(&w);
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(-1, w.ret);
	EXPECT_EQ(ENODEV, w.err);
	EXPECT_GT(w.waited, 1000.0);
	close(w.fd);
}

#define CPU0_SIZE T "/per_cpu/cpu0/buffer_size_kb"

/*
 * Switch to the function tracer and back: 0, or the first -errno. The
 * tracer traces one function only: enabling it for all takes 13 s under
 * TCG and floods the buffer.
 */
static int switch_tracer(void)
{
	int ret = write_file(T "/set_ftrace_filter", "__do_sys_getppid");

	if (!ret)
		ret = write_file(T "/current_tracer", "function");
	if (!ret)
		ret = write_file(T "/current_tracer", "nop");
	write_file(T "/set_ftrace_filter", "");
	return ret;
}

/*
 * close() does not end a mapping: the mapped file stays open, so resizes and
 * tracer changes stay refused until munmap(), and the meta-page stays
 * readable (the kernel no longer refreshes it: GET_READER needs a descriptor).
 */
TEST(mapping_outlives_close)
{
	int fd = open(RAW, O_RDONLY | O_NONBLOCK);
	long size = read_number(CPU0_SIZE);
	struct trace_buffer_meta *meta;
	__u32 subbuf_size;

	ASSERT_EQ(0, reset());
	ASSERT_GT(size, 0);
	ASSERT_GE(fd, 0);
	meta = map_meta(fd);
	ASSERT_NE(NULL, meta);
	subbuf_size = meta->subbuf_size;
	ASSERT_NE(0U, subbuf_size);
	close(fd);
	EXPECT_EQ(-EBUSY, write_int(CPU0_SIZE, (int)size * 2));
	EXPECT_EQ(-EBUSY, switch_tracer());
	EXPECT_EQ(subbuf_size, meta->subbuf_size);
	munmap(meta, (size_t)getpagesize());
	EXPECT_EQ(0, write_int(CPU0_SIZE, (int)size * 2));
	EXPECT_EQ(0, write_int(CPU0_SIZE, (int)size));
	EXPECT_EQ(0, switch_tracer());
}

/* Two mappings of one CPU buffer: the resize waits for the last munmap. */
TEST(resize_refused_until_last_munmap)
{
	int fd1 = open(RAW, O_RDONLY | O_NONBLOCK);
	int fd2 = open(RAW, O_RDONLY | O_NONBLOCK);
	long size = read_number(CPU0_SIZE);
	void *m1, *m2;

	ASSERT_GT(size, 0);
	ASSERT_GE(fd1, 0);
	ASSERT_GE(fd2, 0);
	m1 = map_meta(fd1);
	m2 = map_meta(fd2);
	ASSERT_NE(NULL, m1);
	ASSERT_NE(NULL, m2);
	munmap(m1, (size_t)getpagesize());
	EXPECT_EQ(-EBUSY, write_int(CPU0_SIZE, (int)size * 2));
	munmap(m2, (size_t)getpagesize());
	EXPECT_EQ(0, write_int(CPU0_SIZE, (int)size * 2));
	EXPECT_EQ(0, write_int(CPU0_SIZE, (int)size));
	close(fd1);
	close(fd2);
}

/* An open trace_pipe_raw, mapped or not, refuses a change of tracer. */
TEST(open_trace_pipe_raw_refuses_tracer_change)
{
	int fd = open(RAW, O_RDONLY | O_NONBLOCK);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EBUSY, switch_tracer());
	close(fd);
	EXPECT_EQ(0, switch_tracer());
}

/* An instance cannot be removed while a mapping of it lives, fd closed. */
TEST(instance_removal_waits_for_munmap)
{
	const char *dir = T "/instances/docs_claims";
	int fd;
	void *meta;

	rmdir(dir);
	ASSERT_EQ(0, mkdir(dir, 0755));
	fd = open(T "/instances/docs_claims/per_cpu/cpu0/trace_pipe_raw",
		  O_RDONLY | O_NONBLOCK);
	ASSERT_GE(fd, 0);
	meta = map_meta(fd);
	ASSERT_NE(NULL, meta);
	close(fd);
	EXPECT_EQ(-1, rmdir(dir));
	EXPECT_EQ(EBUSY, errno);
	munmap(meta, (size_t)getpagesize());
	EXPECT_EQ(0, rmdir(dir));
}

/* n trace_marker lines "evNNNN" (from 0) through one descriptor. */
static int write_numbered(int n)
{
	int fd = open(T "/trace_marker", O_WRONLY), ret = 0;
	char line[16];

	if (fd < 0)
		return -errno;
	for (int i = 0; i < n && !ret; i++) {
		snprintf(line, sizeof(line), "ev%04d", i);
		if (write(fd, line, strlen(line)) < 0)
			ret = -errno;
	}
	close(fd);
	return ret;
}

/* The numbers of the "evNNNN" payloads in buf[0..len), first and last. */
static int numbered_range(const char *buf, size_t len, int *first, int *last)
{
	int n = 0;

	for (size_t i = 0; i + 6 <= len; i++) {
		int v;

		if (buf[i] != 'e' || buf[i + 1] != 'v' ||
		    sscanf(buf + i + 2, "%4d", &v) != 1)
			continue;
		if (!n++)
			*first = v;
		*last = v;
		i += 5;
	}
	return n;
}

/* The commit word of a sub-buffer: after the 8-byte time stamp. */
static uint64_t commit_word(const char *subbuf)
{
	uint64_t w;

	memcpy(&w, subbuf + 8, sizeof(w));
	return w;
}

/*
 * read() flags a page that follows lost events as the mapping does, but in
 * an unsigned int: the upper 32 bits of the 64-bit commit word stay 0,
 * where GET_READER's sign extension sets them. A 32-bit kernel's commit
 * word is a 4-byte long (events/header_page): it has no upper bits.
 * Sized from the sub-buffer the kernel gives (4 KiB, or 64 KiB with 64 KiB
 * pages): a buffer of two sub-buffers' data, and 2000 events per 4 KiB of
 * sub-buffer, far more than it holds.
 */
TEST(read_flags_leave_upper_bits_zero)
{
	long size = read_number(T "/buffer_size_kb"),
	     subbuf_kb = read_number(T "/buffer_subbuf_size_kb");
	size_t len = (size_t)subbuf_kb * 1024;
	struct tracemap_layout l;
	char *buf;
	uint64_t w;
	int fd;

	ASSERT_EQ(0, tracemap_layout_load(&l, T));
	if (l.commit_size != 8)
		SKIP(return,
			   "%u-byte commit word (a 32-bit kernel): no upper bits",
			   l.commit_size);
	ASSERT_GT(subbuf_kb, 0);
	buf = malloc(len);
	ASSERT_NE(NULL, buf);
	ASSERT_GT(size, 0);
	ASSERT_EQ(0, reset());
	ASSERT_EQ(0, write_int(T "/buffer_size_kb", (int)subbuf_kb * 2));
	ASSERT_EQ(0, write_numbered(2000 * (int)subbuf_kb / 4));
	fd = open(RAW, O_RDONLY | O_NONBLOCK);
	ASSERT_GE(fd, 0);
	EXPECT_EQ((ssize_t)len, read(fd, buf, len));
	w = commit_word(buf);
	EXPECT_EQ(0xc0000000U, (uint32_t)w & 0xc0000000U)
	TH_LOG("0x%llx", (unsigned long long)w);
	EXPECT_EQ(0U, (uint32_t)(w >> 32))
	TH_LOG("0x%llx", (unsigned long long)w);
	close(fd);
	free(buf);
	EXPECT_EQ(0, write_int(T "/buffer_size_kb", (int)size));
}

/* A count below the 16-byte header plus the first event returns 0. */
TEST(read_short_count_returns_zero)
{
	size_t page = (size_t)getpagesize();
	char *buf = malloc(page);
	int fd, first = -1, last = -1;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, reset());
	ASSERT_EQ(0, write_numbered(1));
	fd = open(RAW, O_RDONLY | O_NONBLOCK);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, read(fd, buf, 16));
	/* The event is still there for a read() with room for it. */
	EXPECT_EQ((ssize_t)page, read(fd, buf, page));
	EXPECT_EQ(1, numbered_range(buf, page, &first, &last));
	EXPECT_EQ(0, first);
	close(fd);
	free(buf);
}

/*
 * A short count gets the events that fit; the next read() returns the rest
 * of the kernel's sub-buffer-sized copy: zeros, none of the events that did
 * not fit; the read() after it starts at the first of them.
 */
TEST(read_short_count_then_rest_of_copy)
{
	size_t page = (size_t)getpagesize();
	char *buf = malloc(page);
	int fd, first = -1, last = -1, first3 = -1, last3 = -1;
	size_t zeros = 0;
	uint32_t data;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, reset());
	ASSERT_EQ(0, write_numbered(100));
	fd = open(RAW, O_RDONLY | O_NONBLOCK);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(512, read(fd, buf, 512));
	data = (uint32_t)commit_word(buf) & ~0xc0000000U;
	EXPECT_LE(data, 512U - 16);
	ASSERT_LT(0, numbered_range(buf, 512, &first, &last));
	EXPECT_EQ(0, first);
	EXPECT_EQ((ssize_t)(page - 512), read(fd, buf, page));
	EXPECT_EQ(0, numbered_range(buf, page - 512, &first3, &last3));
	while (zeros < page - 512 && !buf[zeros])
		zeros++;
	EXPECT_EQ(page - 512, zeros)
	TH_LOG("byte %zu of the rest is not 0", zeros);
	EXPECT_EQ((ssize_t)page, read(fd, buf, page));
	ASSERT_LT(0, numbered_range(buf, page, &first3, &last3));
	EXPECT_EQ(last + 1, first3);
	close(fd);
	free(buf);
}

/*
 * GET_READER asks whether the CPU buffer is mapped, not the descriptor: a
 * descriptor that never mapped it moves the reader of another's mapping.
 */
TEST(get_reader_on_unmapped_fd_works_while_mapped_elsewhere)
{
	int fd1 = open(RAW, O_RDONLY | O_NONBLOCK), fd2;
	struct trace_buffer_meta *meta;
	__u32 id;

	ASSERT_EQ(0, reset());
	ASSERT_GE(fd1, 0);
	meta = map_meta(fd1);
	ASSERT_NE(NULL, meta);
	close(fd1);
	id = meta->reader.id;
	ASSERT_EQ(0, write_file(T "/trace_marker", "one"));
	fd2 = open(RAW, O_RDONLY | O_NONBLOCK);
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(0, ioctl(fd2, TRACE_MMAP_IOCTL_GET_READER));
	EXPECT_NE(id, meta->reader.id);
	EXPECT_EQ(1ULL, meta->entries);
	close(fd2);
	munmap(meta, (size_t)getpagesize());
}

/* ioctl(fd, 0) wakes the waiters, but poll() checks again and sleeps on. */
TEST(cmd_zero_does_not_end_a_poll)
{
	struct pollfd p = { .events = POLLIN };
	pthread_t th;
	double start;
	int n;

	ASSERT_EQ(0, reset());
	p.fd = open(RAW, O_RDONLY | O_NONBLOCK);
	ASSERT_GE(p.fd, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, wake_later, NULL));
	start = now_ms();
	n = poll(&p, 1, 3000);
	EXPECT_EQ(0, n);
	EXPECT_GT(now_ms() - start, 2500.0);
	ASSERT_EQ(0, pthread_join(th, NULL));
	close(p.fd);
}

/* An open trace_pipe_raw alone, never mapped, also keeps the instance. */
TEST(instance_removal_refused_while_open)
{
	const char *dir = T "/instances/docs_claims";
	int fd;

	rmdir(dir);
	ASSERT_EQ(0, mkdir(dir, 0755));
	fd = open(T "/instances/docs_claims/per_cpu/cpu0/trace_pipe_raw",
		  O_RDONLY | O_NONBLOCK);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, rmdir(dir));
	EXPECT_EQ(EBUSY, errno);
	close(fd);
	EXPECT_EQ(0, rmdir(dir));
}

TEST_HARNESS_MAIN
