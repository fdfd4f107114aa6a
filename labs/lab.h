/* SPDX-License-Identifier: MIT */
/*
 * Helpers the ring-buffer labs share: what a lab is not about. Each lab's
 * own lesson is in its TODO blocks. From lab 03 on, the mapping that lab 02
 * teaches comes from here; from lab 04 on, the event walk that lab 03
 * teaches. Both are the project's library (examples/lib/tracemap.[ch]): its
 * open-and-map, with the meta-page sanity check, and its sub-buffer decoder,
 * which refuses a record that runs past the data; the format constants are
 * its ring_buffer_format.h.
 */
#ifndef LAB_H
#define LAB_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracemap.h"

#define LAB_TRACEFS "/sys/kernel/tracing"
/* The sub-buffer format (ring_buffer_format.h): data after the commit word. */
#define LAB_SUBBUF_HEADER (RB_COMMIT_OFFSET + sizeof(long))
#define LAB_MISSED_EVENTS RB_MISSED_EVENTS
#define LAB_MISSED_STORED RB_MISSED_STORED

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

/* One CPU's mapped ring buffer: the library's handle, its fd and meta-page. */
struct lab_map {
	struct tracemap tm;
	int fd;
	const struct trace_buffer_meta *meta;
};

/*
 * What other kernels show, on this one. The guest's kernel carries the
 * project's patch that sets the meta-page's reader.lost_events at each
 * GET_READER swap, and 6.12's layout, with a meta-page as large as a
 * sub-buffer (docs/ringbuffer/meta-page.rst, layout.rst). In the
 * environment (the checks of labs 03 and 05 set them):
 *  - LAB_STOCK_META=1: reader.lost_events is 0 after every ioctl, as stock
 *    6.12 leaves it;
 *  - LAB_LAYOUT_610=1: 6.10's layout, meta_page_size one page and sub-buffer
 *    0 right after it: the buffer's sub-buffers are mapped again there;
 *  - LAB_STOP_AFTER=N: the program stops itself (SIGSTOP) right after its
 *    Nth ioctl() through the macro below, until the check, having written
 *    more events meanwhile, sends it SIGCONT (lab 05's check).
 * lab_map() then hands out a copy of the meta-page (at the start of that
 * second mapping with LAB_LAYOUT_610) that each ioctl() refreshes: a lab
 * program's ioctl() calls go through the macro below, which otherwise only
 * calls ioctl(). Only ioctl() refreshes it: the kernel also rewrites the
 * real meta-page on a reset, which the copy shows at the next ioctl().
 * Without these variables, m.meta is the shared meta-page, as in any
 * program.
 */
#define LAB_VIEWS 8
static struct {
	int stock;
	const struct trace_buffer_meta *real;
	struct trace_buffer_meta *view;
	size_t len; /* of the LAB_LAYOUT_610 mapping; 0: view is calloc()ed */
} lab_view[LAB_VIEWS];

static inline void lab_view_refresh(void)
{
	for (int i = 0; i < LAB_VIEWS; i++) {
		if (!lab_view[i].view)
			continue;
		memcpy(lab_view[i].view, lab_view[i].real,
		       sizeof(*lab_view[i].view));
		if (lab_view[i].stock)
			lab_view[i].view->reader.lost_events = 0;
		if (lab_view[i].len)
			lab_view[i].view->meta_page_size =
				(__u32)sysconf(_SC_PAGESIZE);
	}
}

/*
 * ioctl(fd, req[, arg]): the lab programs' ioctl(), see lab_view above: the
 * real ioctl() (a macro does not expand its own name again; each argument
 * is evaluated once), then lab_ioctl_done() refreshes every copy. A call
 * the macro does not see (through a function pointer, or from a file
 * without lab.h) leaves the copies as they were. Lab-only: in a program of
 * your own, call ioctl() and read the shared meta-page itself.
 */
static inline int lab_ioctl_done(int rc)
{
	static long calls, stop_after = -1;
	int err = errno;

	lab_view_refresh();
	if (stop_after < 0) {
		const char *v = getenv("LAB_STOP_AFTER");

		stop_after = v ? atol(v) : 0;
	}
	if (++calls == stop_after)
		raise(SIGSTOP);
	errno = err;
	return rc;
}
#define ioctl(...) lab_ioctl_done(ioctl(__VA_ARGS__))

static inline bool lab_env(const char *name)
{
	const char *v = getenv(name);

	return v && !strcmp(v, "1");
}

/* The meta-page lab_map() hands out: meta, or a view of it (lab_view). */
static inline const struct trace_buffer_meta *
lab_view_of(int fd, const struct trace_buffer_meta *meta)
{
	bool stock = lab_env("LAB_STOCK_META"),
	     l610 = lab_env("LAB_LAYOUT_610");
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = 0;
	struct trace_buffer_meta *view;
	int i;

	if (!stock && !l610)
		return meta;
	for (i = 0; i < LAB_VIEWS && lab_view[i].view; i++)
		;
	errno = 0;
	if (i == LAB_VIEWS)
		lab_die("lab_map: too many mappings for LAB_STOCK_META or LAB_LAYOUT_610");
	if (l610) {
		size_t subbufs = (size_t)meta->nr_subbufs * meta->subbuf_size;
		char *base;

		len = page + subbufs;
		base = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
		if (base == MAP_FAILED ||
		    mmap(base + page, subbufs, PROT_READ,
			 MAP_SHARED | MAP_FIXED, fd,
			 meta->meta_page_size) == MAP_FAILED ||
		    mmap(base, page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
			 0) == MAP_FAILED)
			lab_die("lab_map: LAB_LAYOUT_610: mmap");
		view = (struct trace_buffer_meta *)base;
	} else {
		view = calloc(1, sizeof(*view));
		if (!view)
			lab_die("lab_map: LAB_STOCK_META: calloc");
	}
	lab_view[i].stock = stock;
	lab_view[i].real = meta;
	lab_view[i].view = view;
	lab_view[i].len = len;
	lab_view_refresh();
	return view;
}

/*
 * Open and map all of per_cpu/cpuN/trace_pipe_raw with the library, and
 * make its fd blocking unless flags has O_NONBLOCK (the library opens it
 * non-blocking; the labs call the ioctl on it themselves). Exits with the
 * library's message when it cannot.
 */
static inline void lab_map(struct lab_map *m, int cpu, int flags)
{
	int rc = tracemap_open(&m->tm, LAB_TRACEFS, NULL, cpu,
			       TRACEMAP_NONBLOCK);

	if (rc < 0) {
		fprintf(stderr, "lab_map: %s\n", tracemap_error(&m->tm));
		exit(1);
	}
	m->fd = tracemap_fd(&m->tm);
	m->meta = lab_view_of(m->fd, tracemap_meta(&m->tm));
	if (!(flags & O_NONBLOCK) &&
	    fcntl(m->fd, F_SETFL, fcntl(m->fd, F_GETFL) & ~O_NONBLOCK))
		lab_die("fcntl");
}

static inline void lab_unmap(struct lab_map *m)
{
	for (int i = 0; i < LAB_VIEWS; i++) {
		if (!lab_view[i].view || lab_view[i].view != m->meta)
			continue;
		if (lab_view[i].len)
			munmap(lab_view[i].view, lab_view[i].len);
		else
			free(lab_view[i].view);
		lab_view[i].view = NULL;
	}
	tracemap_close(&m->tm);
}

/* The sub-buffer with this ID (6.10 and 6.12 layouts alike); exits on a bad ID. */
static inline const char *lab_subbuf(const struct lab_map *m, uint32_t id)
{
	const char *sb = tracemap_subbuf_at(&m->tm, id);

	if (!sb) {
		fprintf(stderr,
			"sub-buffer ID %u is past the last (%u): is it the reader.id of the last GET_READER?\n",
			id, m->meta->nr_subbufs - 1);
		exit(1);
	}
	return sb;
}

/*
 * The events of a sub-buffer (size bytes, header included) whose header
 * starts in its data area at or after from and before end. Padding, time
 * extends and time stamps are the library's business.
 */
struct lab_events {
	struct tracemap_subbuf sb;
	uint32_t end;
};

static inline void lab_events(struct lab_events *it, const void *subbuf,
			      size_t size, uint32_t from, uint32_t end)
{
	if (tracemap_subbuf_load(&it->sb, NULL, subbuf, size, true)) {
		errno = 0;
		lab_die("a sub-buffer whose commit runs past its end");
	}
	tracemap_subbuf_skip_to(&it->sb, from);
	it->end = end;
}

/* Bytes of data in a sub-buffer: the commit word without its flags. */
static inline uint32_t lab_commit(const void *subbuf, size_t size)
{
	struct lab_events it;

	lab_events(&it, subbuf, size, 0, 0);
	return tracemap_subbuf_commit(&it.sb);
}

/* The next event: 1 and ev filled, or 0 at the end. */
static inline int lab_next_event(struct lab_events *it,
				 struct tracemap_event *ev)
{
	int rc = tracemap_subbuf_next(&it->sb, ev);

	if (rc < 0) {
		fprintf(stderr, "a record that cannot be right at byte %u\n",
			tracemap_subbuf_pos(&it->sb));
		exit(1);
	}
	return rc == 1 && ev->offset < it->end;
}

#endif /* LAB_H */
