// SPDX-License-Identifier: MIT
/*
 * Lab 06: a minimal consumer, from scratch: stream one CPU's trace_marker
 * events from the mapped ring buffer as they come.
 *   ./stream CPU COUNT
 * Prints the text of each ftrace/print event, one line each, in order, and
 * exits after COUNT of them. It sleeps in TRACE_MMAP_IOCTL_GET_READER while
 * the buffer is empty (how long depends on buffer_percent; the check sets 0).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace_mmap_compat.h"

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: stream CPU COUNT\n");
		return 2;
	}
	long count = atol(argv[2]), seen = 0;
	char path[128];

	snprintf(path, sizeof(path),
		 "/sys/kernel/tracing/per_cpu/cpu%s/trace_pipe_raw", argv[1]);
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct trace_buffer_meta *meta = NULL;
	size_t len = 0;

	/* TODO 1: map the whole buffer: the meta-page says how long it is */
	/* WHY 1: the whole mapping is meta_page_size + nr_subbufs * subbuf_size: anything shorter leaves the last sub-buffers outside it, a SIGBUS or SIGSEGV when the reader gets there. */
	long page = sysconf(_SC_PAGESIZE);

	meta = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED)
		die("mmap");
	len = meta->meta_page_size +
	      (size_t)meta->nr_subbufs * meta->subbuf_size;

	munmap(meta, page);
	meta = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED)
		die("mmap");
	/* END TODO 1 */
	if (!meta) {
		fprintf(stderr, "stream: nothing mapped\n");
		return 1;
	}

	uint32_t id = UINT32_MAX, pos = 0;

	while (seen < count) {
		/* TODO 2: wait for data and swap (GET_READER); set pos to where the new bytes start */
		/* WHY 2: a blocking GET_READER is the wait; the position restarts at 0 only when the ID changes, since the writer can add to the sub-buffer the reader holds. */
		if (ioctl(fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
			die("TRACE_MMAP_IOCTL_GET_READER");
		if (meta->reader.id != id) {
			id = meta->reader.id;
			pos = 0;
		}
		/* END TODO 2 */
		const char *data = (const char *)meta + meta->meta_page_size +
				   (size_t)id * meta->subbuf_size + 16;
		uint32_t end = meta->reader.read;

		/* TODO 3: decode each event in data[pos, end); print the text of the print events */
		/* WHY 3: padding with time delta 0 ends the data, a discarded event (padding with a delta) is 4 + array[0] bytes and more follow, time extends take 8 bytes and are no event, and type_len 0 keeps the length in the next word: each must move pos by its own size. */
		while (pos + 4 <= end && seen < count) {
			const uint32_t *ev = (const uint32_t *)(data + pos);
			uint32_t type_len = ev[0] & 0x1f;
			const char *payload = NULL;

			if (type_len == 29 && !(ev[0] >> 5))
				break; /* padding: the rest is empty */
			if (type_len == 29) {
				pos += 4 + ev[1];
			} else if (type_len >= 30) {
				pos += 8;
			} else if (type_len == 0) {
				payload = (const char *)&ev[2];
				pos += 4 + ev[1];
			} else {
				payload = (const char *)&ev[1];
				pos += 4 + 4 * type_len;
			}
			/* Type 5 is ftrace/print, what trace_marker writes. */
			if (payload && *(const uint16_t *)payload == 5) {
				printf("%.*s\n",
				       (int)strcspn(payload + 16, "\n"),
				       payload + 16);
				seen++;
			}
		}
		pos = end;
		/* END TODO 3 */
		/* SKEL: (void)data; (void)end; (void)id; (void)pos; */
	}
	munmap(meta, len);
	close(fd);
	return 0;
}
