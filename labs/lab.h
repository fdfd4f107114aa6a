/* SPDX-License-Identifier: MIT */
/*
 * Helpers the ring-buffer labs share: what a lab is not about. Each lab's
 * own lesson is in its TODO blocks; from lab 03 on, the mapping that lab 02
 * teaches comes from here, and from lab 04 on, the event walk that lab 03
 * teaches.
 */
#ifndef LAB_H
#define LAB_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace_mmap_compat.h"

#define LAB_TRACEFS "/sys/kernel/tracing"
/* The sub-buffer header on x86_64: u64 time_stamp, then the commit word. */
#define LAB_SUBBUF_HEADER 16
/* The commit word's flags, in its low 32 bits. */
#define LAB_MISSED_EVENTS (1u << 31)
#define LAB_MISSED_STORED (1u << 30)

/* Print "WHAT: the errno text" (or WHAT alone when errno is 0) and exit 1. */
static inline void lab_die(const char *what)
{
	if (errno)
		fprintf(stderr, "%s: %s\n", what, strerror(errno));
	else
		fprintf(stderr, "%s\n", what);
	exit(1);
}

/* Run on CPU cpu only, so that what this process writes lands there. */
static inline void lab_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		lab_die("sched_setaffinity");
}

/* Write one trace_marker event (an ftrace/print event, ID 5). */
static inline int lab_marker(const char *fmt, ...)
{
	static int fd = -1;
	char buf[256];
	va_list ap;
	int n;

	if (fd < 0)
		fd = open(LAB_TRACEFS "/trace_marker", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		lab_die("open trace_marker");
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return write(fd, buf, n) == n ? 0 : -1;
}

/* The type ID of an event, "SYS/NAME", from the ID: line of its format file. */
static inline int lab_event_id(const char *event)
{
	char path[256], line[256];
	int id = -1;

	snprintf(path, sizeof(path), LAB_TRACEFS "/events/%s/format", event);
	FILE *f = fopen(path, "r");

	if (!f)
		lab_die(path);
	while (id < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "ID: %d", &id) != 1)
			id = -1;
	fclose(f);
	return id;
}

/* One CPU's mapped ring buffer: the meta-page and every sub-buffer. */
struct lab_map {
	int fd;
	struct trace_buffer_meta *meta;
	size_t len;
};

/* Open per_cpu/cpuN/trace_pipe_raw with flags and map all of it. */
static inline void lab_map(struct lab_map *m, int cpu, int flags)
{
	char path[128];
	long page = sysconf(_SC_PAGESIZE);
	struct trace_buffer_meta *meta;

	snprintf(path, sizeof(path),
		 LAB_TRACEFS "/per_cpu/cpu%d/trace_pipe_raw", cpu);
	m->fd = open(path, O_RDONLY | O_CLOEXEC | flags);
	if (m->fd < 0)
		lab_die(path);
	meta = mmap(NULL, page, PROT_READ, MAP_SHARED, m->fd, 0);
	if (meta == MAP_FAILED)
		lab_die("mmap meta-page");
	m->len = meta->meta_page_size +
		 (size_t)meta->nr_subbufs * meta->subbuf_size;
	munmap(meta, page);
	m->meta = mmap(NULL, m->len, PROT_READ, MAP_SHARED, m->fd, 0);
	if (m->meta == MAP_FAILED)
		lab_die("mmap ring buffer");
}

static inline void lab_unmap(struct lab_map *m)
{
	munmap(m->meta, m->len);
	close(m->fd);
}

/* The sub-buffer with this ID (6.10 and 6.12 layouts alike). */
static inline const char *lab_subbuf(const struct lab_map *m, uint32_t id)
{
	return (const char *)m->meta + m->meta->meta_page_size +
	       (size_t)id * m->meta->subbuf_size;
}

/* Bytes of data in a sub-buffer: the commit word without its flags. */
static inline uint32_t lab_commit(const char *subbuf)
{
	uint32_t commit = (uint32_t) * (const volatile uint64_t *)(subbuf + 8);

	return commit & ~(LAB_MISSED_EVENTS | LAB_MISSED_STORED);
}

/* A data event found by lab_next_event(). */
struct lab_event {
	const char *payload; /* starts with struct trace_entry */
	uint32_t size; /* payload bytes (rounded up to 4) */
};

/*
 * The next data event of a sub-buffer's data area at *pos (below end), or
 * 0 at the end. Padding and time stamps are skipped.
 */
static inline int lab_next_event(const char *data, uint32_t *pos, uint32_t end,
				 struct lab_event *ev)
{
	while (*pos + 4 <= end) {
		const uint32_t *w = (const uint32_t *)(data + *pos);
		uint32_t type_len = w[0] & 0x1f, delta = w[0] >> 5;

		if (type_len == 29) { /* padding */
			if (!delta)
				return 0; /* the rest of the sub-buffer is empty */
			*pos += 4 + w[1]; /* a discarded event */
		} else if (type_len >= 30) { /* time extend, time stamp */
			*pos += 8;
		} else if (type_len == 0) { /* long event: length in array[0] */
			ev->payload = (const char *)&w[2];
			ev->size = w[1] - 4;
			*pos += 4 + w[1];
			return 1;
		} else {
			ev->payload = (const char *)&w[1];
			ev->size = type_len * 4;
			*pos += 4 + type_len * 4;
			return 1;
		}
	}
	return 0;
}

#endif /* LAB_H */
