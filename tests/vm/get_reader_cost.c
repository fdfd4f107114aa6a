// SPDX-License-Identifier: MIT
/*
 * What one TRACE_MMAP_IOCTL_GET_READER costs, as a function of the events
 * it hands over and of the sub-buffer size (issue 25, item 1). In 6.12 the
 * call swaps in the next sub-buffer and then steps over each of its events
 * (rb_advance_reader()) under the CPU buffer's reader_lock, a raw spinlock
 * taken with interrupts off: the time the call takes, minus that of a call
 * with nothing to hand over, is that walk.
 *
 * Run as root in the guest, pinned to one CPU, with nothing else tracing:
 *   get_reader_cost [REPS]
 * For each sub-buffer size and fill (empty, a quarter, half, full with the
 * writer still on it, full with the writer on the next one), REPS times:
 * reset CPU 0's buffer, write the events with trace_marker, map one page,
 * time one non-blocking GET_READER with CLOCK_MONOTONIC. Prints
 * one line per case: median and max of the call, the median per event
 * above the empty call, and the same in getppid() calls timed in this
 * run, since TCG's times are emulated and only ratios carry over.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "trace_mmap_compat.h"
#include "tracefs_write.h"

#define RAW T "/per_cpu/cpu0/trace_pipe_raw"
#define PAYLOAD "get_reader_cost event 0123456789" /* 32 bytes */
#define MAX_REPS 101

static const int subbuf_kb[] = { 4, 16, 64, 512 };
/* Quarters of a sub-buffer; 5: a full one the writer has left (one more event). */
static const int fill_quarters[] = { 0, 1, 2, 4, 5 };

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

static void die(const char *what, int err)
{
	fprintf(stderr, "get_reader_cost: %s: %s\n", what, strerror(err));
	exit(1);
}

/* The median time of one getppid() call, over 10000 calls in 100 rounds. */
static uint64_t getppid_ns(void)
{
	uint64_t rounds[100];

	for (int r = 0; r < 100; r++) {
		uint64_t t0 = now_ns();

		for (int i = 0; i < 100; i++)
			getppid();
		rounds[r] = (now_ns() - t0) / 100;
	}
	return median(rounds, 100);
}

/* The events one sub-buffer of kb KiB holds, from a trial fill. */
static int events_per_subbuf(int kb)
{
	/*
	 * A small event: 4-byte header, then the print entry (16 bytes of
	 * header and ip, the text, the newline and NUL the kernel adds),
	 * rounded up to 4 bytes.
	 */
	int event = 4 + ((16 + (int)sizeof(PAYLOAD) - 1 + 2 + 3) & ~3);

	return (kb * 1024 - 16) / event;
}

static int write_events(int fd, int n)
{
	for (int i = 0; i < n; i++)
		if (write(fd, PAYLOAD, sizeof(PAYLOAD) - 1) < 0)
			return -errno;
	return 0;
}

/* One timed GET_READER after n events; returns ns, read into *got. */
static uint64_t one_call(int marker, int n, uint32_t *got)
{
	struct trace_buffer_meta *meta;
	uint64_t t0, t1;
	int fd, r;

	if ((r = write_file(T "/trace", "")))
		die("reset", -r);
	if ((r = write_events(marker, n)))
		die("trace_marker", -r);
	fd = open(RAW, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die(RAW, errno);
	meta = mmap(NULL, (size_t)getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED)
		die("mmap", errno);
	t0 = now_ns();
	r = ioctl(fd, TRACE_MMAP_IOCTL_GET_READER);
	t1 = now_ns();
	if (r)
		die("GET_READER", errno);
	*got = meta->reader.read;
	munmap(meta, (size_t)getpagesize());
	close(fd);
	return t1 - t0;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 15;
	uint64_t pp = getppid_ns(), t[MAX_REPS];
	int marker;

	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "get_reader_cost: REPS must be 1 to %d\n",
			MAX_REPS);
		return 2;
	}
	marker = open(T "/trace_marker", O_WRONLY);
	if (marker < 0)
		die(T "/trace_marker", errno);
	printf("getppid_ns=%llu\n", (unsigned long long)pp);
	for (size_t s = 0; s < sizeof(subbuf_kb) / sizeof(*subbuf_kb); s++) {
		int kb = subbuf_kb[s], full = events_per_subbuf(kb), r;
		uint64_t empty = 0;

		if ((r = write_int(T "/buffer_subbuf_size_kb", kb)) ||
		    (r = write_int(T "/per_cpu/cpu0/buffer_size_kb",
				   8 * kb > 1408 ? 8 * kb : 1408)))
			die("sub-buffer or buffer size", -r);
		for (size_t f = 0;
		     f < sizeof(fill_quarters) / sizeof(*fill_quarters); f++) {
			/*
			 * One event short of full stays on one sub-buffer, the
			 * writer's; one more than full is on the next, and the
			 * call hands over the full one the writer has left.
			 */
			int q = fill_quarters[f];
			bool left = q > 4;
			int n = q > 4 ? full + 1 : q * full / 4 - (q == 4);
			uint64_t med, max = 0;
			uint32_t got = 0;

			for (int i = 0; i < reps; i++) {
				t[i] = one_call(marker, n, &got);
				if (t[i] > max)
					max = t[i];
			}
			med = median(t, reps);
			if (!n)
				empty = med;
			printf("subbuf_kb=%d writer=%s events=%d read_bytes=%u median_ns=%llu max_ns=%llu getppid_calls=%.1f per_event_ns=%.1f\n",
			       kb, left ? "left" : "on", n - left, got,
			       (unsigned long long)med, (unsigned long long)max,
			       (double)med / (double)pp,
			       n ? ((double)med - (double)empty) / (n - left) :
				   0.0);
		}
	}
	write_int(T "/buffer_subbuf_size_kb", 4);
	close(marker);
	return 0;
}
