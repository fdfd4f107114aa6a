/* SPDX-License-Identifier: MIT */
/*
 * tracemap: read the tracefs ring buffer through its memory mapping
 * (Linux 6.10+), decode its sub-buffers and format event payloads.
 * Copy tracemap.c, tracemap.h and trace_mmap_compat.h into your program.
 *
 * Three layers, each usable alone:
 *  - tm_subbuf_*: decode one sub-buffer (bytes from the mapping or from a
 *    read() of trace_pipe_raw); no system calls, bounds-checked.
 *  - tracemap_*: open and map one CPU's trace_pipe_raw, swap reader
 *    sub-buffers with TRACE_MMAP_IOCTL_GET_READER, iterate their events.
 *  - tm_formats_*: payloads as text, from events/<system>/<event>/format.
 * The sub-buffer layout is the one of the running (64-bit or 32-bit,
 * little- or big-endian) machine: decode pages where they were captured.
 */
#ifndef TRACEMAP_H
#define TRACEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_mmap_compat.h"

/* tm_subbuf.missed when a sub-buffer says events were lost, but not how many */
#define TM_MISSED_UNKNOWN (-1)

/* One data event of a sub-buffer. */
struct tm_event {
	uint64_t ts; /* absolute timestamp, in the buffer's trace_clock units */
	const void *data; /* payload: struct trace_entry, then the fields */
	uint32_t size; /* payload bytes (a multiple of 4, may include padding) */
	uint32_t offset; /* offset of the event's header in the data area */
};

/* A cursor over the events of one sub-buffer. */
struct tm_subbuf {
	const unsigned char *base; /* the sub-buffer: header, then data */
	uint32_t cap; /* bytes of the data area */
	uint32_t commit; /* bytes of events written */
	uint32_t pos; /* offset of the next record in the data area */
	uint32_t skip_to; /* records before this offset are not returned */
	int64_t missed; /* lost before this sub-buffer: 0, a count, or TM_MISSED_UNKNOWN */
	uint64_t ts; /* timestamp of the last record decoded */
	bool live; /* the writer may still append: re-read commit */
};

/* Bytes before the data area: u64 time_stamp, then a long commit word. */
#define TM_SUBBUF_HEADER (8 + sizeof(long))

/*
 * Load the sub-buffer at subbuf (size bytes, header included). live: the
 * kernel may still be appending (a mapped reader page). Returns 0, or
 * -EINVAL when the header cannot be right (commit beyond the end).
 */
int tm_subbuf_load(struct tm_subbuf *sb, const void *subbuf, size_t size,
		   bool live);
/*
 * Next data event: returns 1 and fills ev, 0 at the end of the committed
 * data, -EINVAL on a record that cannot be right (the offset of the bad
 * record is then in sb->pos). Padding, discarded events and time stamps
 * are consumed silently.
 */
int tm_subbuf_next(struct tm_subbuf *sb, struct tm_event *ev);

/* One CPU of a ring buffer, mapped. */
struct tracemap {
	int fd;
	int cpu;
	struct trace_buffer_meta *meta; /* the whole mapping starts here */
	size_t map_len; /* bytes mapped: meta-page and every sub-buffer */
	const unsigned char *subbufs; /* sub-buffer 0 */
	uint32_t reader_id; /* sub-buffer the cursor is on */
	struct tm_subbuf sb; /* the cursor */
	char err[256]; /* what went wrong, after a failed call */
};

enum tm_error {
	TM_ERR_SYS = -1, /* a system call failed: see err and errno */
	TM_ERR_NO_TRACEFS = -2, /* tracefs is not mounted */
	TM_ERR_NO_INSTANCE = -3, /* no such instance */
	TM_ERR_NO_CPU = -4, /* no such CPU in this buffer */
	TM_ERR_PERM = -5, /* not permitted (run as root?) */
	TM_ERR_NO_MMAP = -6, /* kernel cannot map the ring buffer (< 6.10) */
	TM_ERR_BUSY = -7, /* a snapshot is armed on this buffer */
	TM_ERR_CORRUPT = -8, /* a sub-buffer that cannot be decoded */
	TM_ERR_INTR = -9, /* a blocking call was interrupted by a signal */
};

#define TM_NONBLOCK 1 /* TRACE_MMAP_IOCTL_GET_READER never waits */

/* The tracefs mount point: /sys/kernel/tracing or the debugfs one. */
const char *tracemap_tracefs(void);
/*
 * Open and map CPU cpu of the top-level buffer (instance NULL) or of
 * instances/<instance>. tracefs NULL: tracemap_tracefs(). Returns 0 or a
 * tm_error with tm->err set.
 */
int tracemap_open(struct tracemap *tm, const char *tracefs,
		  const char *instance, int cpu, int flags);
/*
 * Ask the kernel for the next reader sub-buffer (blocks until
 * buffer_percent is reached unless TM_NONBLOCK). Returns 1 when there may
 * be new events (new sub-buffer, or more on the same one), 0 when nothing
 * changed, or a tm_error. *missed (may be NULL) gets the events lost
 * before a new sub-buffer: 0, a count, or TM_MISSED_UNKNOWN.
 */
int tracemap_get_reader(struct tracemap *tm, int64_t *missed);
/* Next event of the reader sub-buffer: 1, 0 when consumed, or a tm_error. */
int tracemap_next(struct tracemap *tm, struct tm_event *ev);
/* Unmap exactly what was mapped and close. */
void tracemap_close(struct tracemap *tm);

/* Field of an event, from its format file. */
struct tm_field {
	char name[64];
	char type[64]; /* as declared, without the name: "unsigned long" */
	uint32_t offset, size;
	bool is_signed;
	int array; /* 0: scalar, >0: fixed array, -1: __data_loc dynamic */
};

struct tm_format {
	int id;
	char system[64], name[64];
	int nr_fields;
	struct tm_field *fields; /* common_* fields first */
};

struct tm_formats {
	struct tm_format *v;
	size_t n;
};

/* Parse one format file's text. Returns 0 or -EINVAL. */
int tm_format_parse(struct tm_format *f, const char *system, const char *text);
/*
 * Load every events/<system>/<event>/format under tracefs (or of an
 * instance: pass its directory). Returns the number loaded or -errno.
 */
int tm_formats_load(struct tm_formats *fs, const char *dir);
const struct tm_format *tm_formats_find(const struct tm_formats *fs, int id);
void tm_formats_free(struct tm_formats *fs);
/* Event type ID of a payload (its common_type). */
int tm_event_type(const struct tm_event *ev);
/*
 * Payload as text into buf: ftrace/print as its string, any other event as
 * field=value pairs in format order, strings quoted. Non-printable bytes
 * are written as \xNN. Returns the length it needed (like snprintf).
 */
int tm_format_payload(const struct tm_format *f, const struct tm_event *ev,
		      char *buf, size_t len);

#endif /* TRACEMAP_H */
