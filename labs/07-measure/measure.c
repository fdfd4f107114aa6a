// SPDX-License-Identifier: MIT
/*
 * Lab 07: measure. Drain what one CPU's buffer holds, once through the
 * mapping and once with read() of trace_pipe_raw, and compare.
 *   ./measure CPU mmap|read
 * Output: "MODE events N bytes B usec T": the events read, their data
 * bytes (each event's whole ev.size: fields and payload) and the time the
 * drain took.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "lab.h"

static uint64_t events, bytes;

/* Count the events of a sub-buffer (size bytes) in data bytes [pos, end). */
static void count(const char *subbuf, size_t size, uint32_t pos, uint32_t end)
{
	struct lab_events it;
	struct tracemap_event ev;

	lab_events(&it, subbuf, size, pos, end);
	while (lab_next_event(&it, &ev)) {
		events++;
		bytes += ev.size;
	}
}

/* Drain with read(): each read() of trace_pipe_raw copies one sub-buffer. */
static void drain_read(int cpu)
{
	/* TODO 1: read() sub-buffers from a non-blocking trace_pipe_raw until none is left; count() each */
	/* WHY 1: each read() of trace_pipe_raw copies one sub-buffer, so the buffer is one sub-buffer long and the loop runs until EAGAIN; a shorter buffer gets 0 or a cut sub-buffer. */
	char path[128];
	FILE *f = fopen(LAB_TRACEFS "/buffer_subbuf_size_kb", "r");
	unsigned kb = 0;

	if (!f || fscanf(f, "%u", &kb) != 1)
		lab_die("buffer_subbuf_size_kb");
	fclose(f);
	size_t size = (size_t)kb * 1024;
	char *page = malloc(size);

	snprintf(path, sizeof(path),
		 LAB_TRACEFS "/per_cpu/cpu%d/trace_pipe_raw", cpu);
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0 || !page)
		lab_die(path);
	while (read(fd, page, size) > 0)
		count(page, size, 0, lab_commit(page, size));
	if (errno != EAGAIN)
		lab_die("read");
	free(page);
	close(fd);
	/* END TODO 1 */
	/* SKEL: (void)cpu; (void)count; */
}

/* Drain through the mapping: GET_READER until it brings nothing new. */
static void drain_mmap(int cpu)
{
	/* TODO 2: map; from the meta-page's reader.id and reader.read, GET_READER on a non-blocking fd until nothing is new; count() the new bytes */
	/* WHY 2: the drain starts where the meta-page's reader stands, counts only the bytes each GET_READER hands over, and stops when a call brings the same ID and reader.read. */
	struct lab_map m;

	lab_map(&m, cpu, O_NONBLOCK);
	/*
	 * Start where the kernel's reader stands: what is before reader.read
	 * on the reader sub-buffer was taken by an earlier reader.
	 */
	int64_t id = m.meta->reader.id;
	uint32_t pos = m.meta->reader.read;

	for (;;) {
		if (ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
			lab_die("TRACE_MMAP_IOCTL_GET_READER");
		if (m.meta->reader.id != id) {
			id = m.meta->reader.id;
			pos = 0;
		} else if (pos == m.meta->reader.read) {
			break;
		}
		count(lab_subbuf(&m, id), m.meta->subbuf_size, pos,
		      m.meta->reader.read);
		pos = m.meta->reader.read;
	}
	lab_unmap(&m);
	/* END TODO 2 */
	/* SKEL: (void)cpu; */
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;

	if (argc != 3 || (strcmp(argv[2], "mmap") && strcmp(argv[2], "read"))) {
		fprintf(stderr, "usage: measure CPU mmap|read\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!strcmp(argv[2], "mmap"))
		drain_mmap(atoi(argv[1]));
	else
		drain_read(atoi(argv[1]));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s events %" PRIu64 " bytes %" PRIu64 " usec %lld\n", argv[2],
	       events, bytes,
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000000 +
		       (t1.tv_nsec - t0.tv_nsec) / 1000);
	return 0;
}
