// SPDX-License-Identifier: MIT
/*
 * A drain through examples/tracemap.c gets every event even when the
 * reader sub-buffer is the one the writer is on: the consumer reads it
 * live, the writer fills it and moves on to other sub-buffers, and the
 * next TRACE_MMAP_IOCTL_GET_READER only moves reader.read over the events
 * the consumer already has, without a swap. tracemap_get_reader() must ask
 * again rather than report "nothing new" while full sub-buffers wait.
 * Run as root in the guest; uses CPU 0's buffer.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The harness (and its macros in every test) trips these -Wextra warnings. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "tracemap.h"

#define T "/sys/kernel/tracing"

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ret = -1;
	close(fd);
	return ret;
}

/* n trace_marker writes from this CPU; returns how many were written. */
static int markers(int n)
{
	int fd = open(T "/trace_marker", O_WRONLY), i;

	for (i = 0; i < n && fd >= 0; i++)
		if (write(fd, "drain test marker", 17) != 17)
			break;
	if (fd >= 0)
		close(fd);
	return i;
}

/* Events left for tracemap_next() and the swaps tracemap_get_reader() gives. */
static int drain(struct tracemap *tm)
{
	struct tm_event ev;
	int n = 0, r;

	for (;;) {
		while ((r = tracemap_next(tm, &ev)) > 0)
			n++;
		if (r < 0)
			return -1;
		r = tracemap_get_reader(tm, NULL);
		if (r < 0)
			return -1;
		if (r == 0)
			return n;
	}
}

TEST(live_reader_page_then_more_subbufs)
{
	struct tracemap tm;
	struct tm_event ev;
	cpu_set_t set;
	int n = 0, written;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_EQ(0, write_str(T "/tracing_on", "0"));
	ASSERT_EQ(0, write_str(T "/options/overwrite", "1"));
	ASSERT_EQ(0, write_str(T "/buffer_subbuf_size_kb", "4"));
	ASSERT_EQ(0, write_str(T "/buffer_size_kb", "1408"));
	ASSERT_EQ(0, write_str(T "/trace", ""));
	ASSERT_EQ(0, write_str(T "/tracing_on", "1"));
	ASSERT_EQ(0, tracemap_open(&tm, NULL, NULL, 0, TM_NONBLOCK))
	TH_LOG("%s", tm.err);

	/* A few events: the swap gives the writer's own sub-buffer. */
	written = markers(5);
	ASSERT_EQ(1, tracemap_get_reader(&tm, NULL)) TH_LOG("%s", tm.err);
	while (tracemap_next(&tm, &ev) > 0)
		n++;
	ASSERT_EQ(5, n);
	/* The writer fills it (we read it live) and fills three more. */
	written += markers(400);
	while (tracemap_next(&tm, &ev) > 0)
		n++;
	n += drain(&tm);
	EXPECT_EQ(written, n);
	tracemap_close(&tm);
}

TEST_HARNESS_MAIN
