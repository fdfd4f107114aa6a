// SPDX-License-Identifier: MIT
/*
 * Lab 02: map the meta-page of one CPU's ring buffer and read its fields.
 *   ./meta CPU            print every field, one "name value" line each
 *   ./meta CPU watch N    print entries/overrun/read/reader.read before and
 *                         after writing N trace_marker events on CPU, after
 *                         TRACE_MMAP_IOCTL_GET_READER, and after a reset
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lab.h"

static void print_meta(const struct trace_buffer_meta *meta)
{
	/* TODO 2: print each field from meta_page_size to read as "name value", in the order of the struct */
	/* WHY 2: printing every field in the struct's order, lost events included, gives a line-by-line view of struct trace_buffer_meta that can be compared field by field. */
	printf("meta_page_size %u\n", meta->meta_page_size);
	printf("meta_struct_len %u\n", meta->meta_struct_len);
	printf("subbuf_size %u\n", meta->subbuf_size);
	printf("nr_subbufs %u\n", meta->nr_subbufs);
	printf("reader.lost_events %llu\n",
	       (unsigned long long)meta->reader.lost_events);
	printf("reader.id %u\n", meta->reader.id);
	printf("reader.read %u\n", meta->reader.read);
	printf("flags %llu\n", (unsigned long long)meta->flags);
	printf("entries %llu\n", (unsigned long long)meta->entries);
	printf("overrun %llu\n", (unsigned long long)meta->overrun);
	printf("read %llu\n", (unsigned long long)meta->read);
	/* END TODO 2 */
	/* SKEL: (void)meta; */
}

static void watch_line(const char *when, const struct trace_buffer_meta *meta)
{
	printf("%s entries %llu overrun %llu read %llu reader.read %u\n", when,
	       (unsigned long long)meta->entries,
	       (unsigned long long)meta->overrun,
	       (unsigned long long)meta->read, meta->reader.read);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "watch"))) {
		fprintf(stderr, "usage: meta CPU [watch N]\n");
		return 2;
	}
	int cpu = atoi(argv[1]);
	char path[128];
	struct trace_buffer_meta *meta = MAP_FAILED;
	size_t len = 0;

	snprintf(path, sizeof(path),
		 LAB_TRACEFS "/per_cpu/cpu%d/trace_pipe_raw", cpu);
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		lab_die(path);
	errno = 0;
	/* TODO 1: map the meta-page read-only and shared: one page first, then meta_page_size bytes */
	/* WHY 1: the meta-page's length is only known once its first page is read (meta_page_size, a whole sub-buffer since 6.12), and the mapping must be read-only and shared: MAP_PRIVATE is EPERM, PROT_WRITE EACCES. */
	len = (size_t)sysconf(_SC_PAGESIZE);
	meta = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (meta != MAP_FAILED && meta->meta_page_size > len) {
		size_t full = meta->meta_page_size;

		munmap(meta, len);
		len = full;
		meta = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	}
	/* END TODO 1 */
	if (meta == MAP_FAILED)
		lab_die("meta: mmap of the meta-page");

	if (argc == 2) {
		print_meta(meta);
	} else {
		int n = atoi(argv[3]);

		lab_pin(cpu);
		watch_line("before", meta);
		for (int i = 0; i < n; i++)
			lab_marker("lab02 %d\n", i);
		watch_line("after-write", meta);
		/* TODO 3: ask for a new reader sub-buffer (TRACE_MMAP_IOCTL_GET_READER); if it fails, say so and exit non-zero */
		/* WHY 3: GET_READER is the only call that moves the reader: it swaps a sub-buffer in and refreshes the meta-page, which is why the fields are printed again after it. */
		if (ioctl(fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
			lab_die("TRACE_MMAP_IOCTL_GET_READER");
		/* END TODO 3 */
		watch_line("after-get-reader", meta);
		/* Empty the buffer, as "echo > trace" does. */
		close(open(LAB_TRACEFS "/trace", O_WRONLY | O_TRUNC));
		watch_line("after-reset", meta);
	}
	munmap(meta, len);
	close(fd);
	return 0;
}
