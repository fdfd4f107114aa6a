// SPDX-License-Identifier: MIT
/*
 * Lab 04: drive the reader swap, TRACE_MMAP_IOCTL_GET_READER.
 *   ./swap CPU nonblock        call it on a non-blocking fd; print what it did
 *   ./swap CPU block [PERCENT] set buffer_percent to PERCENT (if given), call it
 *                              on a blocking fd; print when it returns
 *   ./swap CPU partial         write an event, swap, write another, swap
 *                              again; print the new event only
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "lab.h"

static void show(const char *what, int rc, const struct lab_map *m)
{
	const struct trace_buffer_meta *meta = m->meta;

	printf("%s rc %d reader.id %u reader.read %u commit %u\n", what, rc,
	       meta->reader.id, meta->reader.read,
	       lab_commit(lab_subbuf(m, meta->reader.id), meta->subbuf_size));
	fflush(stdout);
}

static int nonblock(int cpu)
{
	struct lab_map m = { .fd = -1 };
	int rc = -1;

	/* TODO 1: map CPU's buffer from a non-blocking fd and call GET_READER once */
	/* WHY 1: with O_NONBLOCK, GET_READER never sleeps: it returns at once, with whatever sub-buffer there is, possibly an empty one. */
	lab_map(&m, cpu, O_NONBLOCK);
	rc = ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER);
	/* END TODO 1 */
	/* SKEL: (void)cpu; */
	if (m.fd < 0)
		return 1;
	show("nonblock", rc, &m);
	lab_unmap(&m);
	return 0;
}

static int block(int cpu, const char *percent)
{
	struct lab_map m = { .fd = -1 };
	int rc = -1;

	if (percent) {
		/* TODO 3: write PERCENT to buffer_percent in tracefs */
		/* WHY 3: buffer_percent belongs to the whole instance, not to the fd: the program writes it to tracefs before it blocks, and the check reads it back. */
		FILE *f = fopen(LAB_TRACEFS "/buffer_percent", "w");

		if (!f || fprintf(f, "%s\n", percent) < 0 || fclose(f))
			lab_die("buffer_percent");
		/* END TODO 3 */
	}
	printf("waiting\n");
	fflush(stdout);
	/* TODO 2: map CPU's buffer from a blocking fd and call GET_READER once */
	/* WHY 2: a blocking fd makes GET_READER sleep until the buffer holds what buffer_percent asks for, which is how a consumer waits without spinning. */
	lab_map(&m, cpu, 0);
	rc = ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER);
	/* END TODO 2 */
	/* SKEL: (void)cpu; */
	if (m.fd < 0)
		return 1;
	show("woke", rc, &m);
	lab_unmap(&m);
	return 0;
}

static int partial(int cpu)
{
	struct lab_map m;
	uint32_t id = 0, first_read = 0, pos = 0, end = 0;
	struct lab_events it;
	struct tracemap_event ev;

	lab_pin(cpu);
	lab_map(&m, cpu, O_NONBLOCK);
	lab_marker("lab04 first\n");
	if (ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
		lab_die("GET_READER");
	show("first", 0, &m);
	/* TODO 4: remember the reader's ID and how far the kernel counts it read */
	/* WHY 4: after the call, reader.read is where the kernel considers the sub-buffer read; it and the ID are the only way to know later what is new. */
	id = m.meta->reader.id;
	first_read = m.meta->reader.read;
	/* END TODO 4 */
	lab_marker("lab04 second\n");
	if (ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
		lab_die("GET_READER");
	show("second", 0, &m);
	/* TODO 5: set pos and end around the bytes that are new since the first call */
	/* WHY 5: the same ID means the writer added to the same sub-buffer: the new bytes start at the first call's reader.read; a new ID is a new sub-buffer, read from its start. */
	pos = m.meta->reader.id == id ? first_read : 0;
	end = m.meta->reader.read;
	/* END TODO 5 */
	/* SKEL: (void)id; (void)first_read; */
	lab_events(&it, lab_subbuf(&m, m.meta->reader.id), m.meta->subbuf_size,
		   pos, end);
	while (lab_next_event(&it, &ev)) {
		const char *text = (const char *)ev.data + 16;

		printf("new %.*s\n", (int)strcspn(text, "\n"), text);
	}
	lab_unmap(&m);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[2], "nonblock"))
		return nonblock(atoi(argv[1]));
	if (argc >= 3 && !strcmp(argv[2], "block"))
		return block(atoi(argv[1]), argc > 3 ? argv[3] : NULL);
	if (argc >= 3 && !strcmp(argv[2], "partial"))
		return partial(atoi(argv[1]));
	fprintf(stderr, "usage: swap CPU nonblock|block [PERCENT]|partial\n");
	return 2;
}
