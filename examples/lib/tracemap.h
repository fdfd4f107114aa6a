/* SPDX-License-Identifier: MIT */
/*
 * tracemap: read the tracefs ring buffer through its memory mapping
 * (Linux 6.10+), or through read() of trace_pipe_raw where it cannot be
 * mapped; decode its sub-buffers; look up and format event fields.
 * Copy tracemap.c, tracemap.h, ring_buffer_format.h and
 * trace_mmap_compat.h into your program; they need only the C library.
 *
 * Three layers, each usable alone:
 *  - tracemap_subbuf_*: decode one sub-buffer (bytes from the mapping, from a
 *    read() of trace_pipe_raw or from a file); no system calls,
 *    bounds-checked. tracemap_layout_* says where its header ends.
 *  - tracemap_*: open one CPU's trace_pipe_raw, map it, swap reader
 *    sub-buffers with TRACE_MMAP_IOCTL_GET_READER, iterate their events,
 *    and report every loss with its kind and, where any source has it,
 *    its count.
 *  - tracemap_formats_*, tracemap_format_*, tracemap_field_*: the events/<sys>/<ev>/format
 *    files: find an event by ID or by name, a field by name, read a
 *    field's value, or print a payload as text.
 *
 * Errors: every function that can fail returns a negative errno value
 * (-EBUSY, -ENOENT, ...), never -1; tracemap_error() then has one line
 * saying what failed and where. Non-negative values are results.
 */
#ifndef TRACEMAP_H
#define TRACEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ring_buffer_format.h"
#include "trace_mmap_compat.h"

/* --- one sub-buffer ---------------------------------------------------- */

/*
 * Where the sub-buffer header puts the commit word and the data. The
 * kernel's long decides (events/header_page), not the reading process's.
 */
struct tracemap_layout {
	uint32_t commit_offset; /* RB_COMMIT_OFFSET */
	uint32_t commit_size; /* 8 on a 64-bit kernel, 4 on a 32-bit one */
	uint32_t data_offset; /* bytes before the data: 16 or 12 */
};

/* The layout of a kernel whose long is this process's (no file read). */
void tracemap_layout_native(struct tracemap_layout *l);
/* Parse the text of events/header_page. 0 or -EBADMSG. */
int tracemap_layout_parse(struct tracemap_layout *l, const char *text);
/*
 * Read DIR/events/header_page (DIR: the tracefs mount, an instance, or a
 * directory holding a copy). 0, or -errno of the read, or -EBADMSG.
 */
int tracemap_layout_load(struct tracemap_layout *l, const char *dir);

/* tracemap_subbuf.missed when a sub-buffer says events were lost, but not how many */
#define TRACEMAP_MISSED_UNKNOWN (-1)

/* One data event of a sub-buffer. */
struct tracemap_event {
	uint64_t ts; /* absolute timestamp, in the buffer's trace_clock units */
	const void *data; /* payload: struct trace_entry, then the fields */
	uint32_t size; /* payload bytes (a multiple of 4, may include padding) */
	uint32_t offset; /* offset of the event's header in the data area */
};

/*
 * A cursor over the events of one sub-buffer. The fields are private to
 * tracemap.c: use the functions below.
 */
struct tracemap_subbuf {
	const unsigned char *base; /* the sub-buffer: header, then data */
	struct tracemap_layout layout;
	uint32_t cap; /* bytes of the data area */
	uint32_t commit; /* bytes of events written (as last read) */
	uint32_t pos; /* offset in the data area of the next record */
	uint32_t resume_at; /* records before this offset are not returned */
	int64_t missed; /* lost before this sub-buffer: 0, a count, or TRACEMAP_MISSED_UNKNOWN */
	uint64_t ts; /* time stamp of the sub-buffer, then of the last record */
	bool live; /* the writer may still append: commit is re-read */
};

/*
 * Load the sub-buffer at subbuf (size bytes, header included) laid out as
 * l (NULL: tracemap_layout_native()). live: the kernel may still be appending
 * (a mapped reader page). Returns 0, -EINVAL for a size or layout that
 * cannot hold a header, -EBADMSG when the commit is past the end.
 */
int tracemap_subbuf_load(struct tracemap_subbuf *sb,
			 const struct tracemap_layout *l, const void *subbuf,
			 size_t size, bool live);
/*
 * Next data event: returns 1 and fills ev, 0 at the end of the committed
 * data, -EBADMSG on a record that cannot be right (its offset is then in
 * sb->pos), -ESTALE when the commit of a live sub-buffer went backwards
 * (the buffer was reset, or the page was taken from under the reader).
 * Padding, discarded events and time stamps are consumed silently.
 */
int tracemap_subbuf_next(struct tracemap_subbuf *sb, struct tracemap_event *ev);
/* Events lost before this sub-buffer: 0, a count, or TRACEMAP_MISSED_UNKNOWN. */
int64_t tracemap_subbuf_missed(const struct tracemap_subbuf *sb);
/* The sub-buffer's time stamp until the first event, then the last event's. */
uint64_t tracemap_subbuf_ts(const struct tracemap_subbuf *sb);
/* Bytes of data written (the commit word without its flags), as last read. */
uint32_t tracemap_subbuf_commit(const struct tracemap_subbuf *sb);
/* Offset in the data area of the next record; after -EBADMSG, the bad one. */
uint32_t tracemap_subbuf_pos(const struct tracemap_subbuf *sb);
/*
 * Bytes of the sub-buffer in use, from its start: the header, the data and,
 * when the kernel stored one, the count of lost events after them.
 */
uint32_t tracemap_subbuf_end(const struct tracemap_subbuf *sb);
/*
 * Return no record that starts before offset in the data area (a reader
 * that resumes where the kernel's reader.read says the last one stopped).
 */
void tracemap_subbuf_skip_to(struct tracemap_subbuf *sb, uint32_t offset);

/* --- one CPU of a ring buffer ------------------------------------------ */

/* tracemap_open() flags */
#define TRACEMAP_NONBLOCK 1 /* tracemap_get_reader() never waits */
#define TRACEMAP_FALLBACK_READ 2 /* cannot map: read() trace_pipe_raw instead */

/* How the events arrive (tracemap_mode()). */
enum tracemap_mode {
	TRACEMAP_MODE_MMAP = 1, /* the mapping, one GET_READER per sub-buffer */
	TRACEMAP_MODE_READ = 2, /* read() of trace_pipe_raw into a copy */
};

//! [losses]
/* The kind of a loss reported by tracemap_get_reader(). */
enum tracemap_loss {
	TRACEMAP_LOSS_NONE = 0,
	TRACEMAP_LOSS_COUNTED, /* overwritten by the writer; lost events: count */
	TRACEMAP_LOSS_UNKNOWN, /* overwritten; no source knew how many */
	TRACEMAP_LOSS_DROPPED, /* overwrite off: new events dropped; count (stats) */
	TRACEMAP_LOSS_RESET, /* the buffer was reset (echo > trace, trace_clock) */
	TRACEMAP_LOSS_OTHER_READER, /* another reader consumed events of this CPU */
};

/* Where the count of a loss came from. */
enum tracemap_loss_source {
	TRACEMAP_SRC_NONE = 0,
	TRACEMAP_SRC_SUBBUF, /* stored after the data of the sub-buffer */
	TRACEMAP_SRC_META, /* the meta-page's reader.lost_events (kernel-patches/0001) */
	TRACEMAP_SRC_OVERRUN, /* the meta-page's overrun since our last swap */
	TRACEMAP_SRC_STATS, /* per_cpu/cpuN/stats, "dropped events" */
	TRACEMAP_SRC_READ_COUNT, /* the meta-page's read, against the events returned */
};

/* What one tracemap_get_reader() call found. */
struct tracemap_reader {
	bool new_subbuf; /* a new sub-buffer (else more events, or none, on the same) */
	uint32_t id; /* its ID in the mapping; in read() mode, a sequence number */
	uint64_t ts; /* its time stamp: when its first event was written */
	enum tracemap_loss loss; /* events lost before the events that follow */
	enum tracemap_loss_source source; /* where count came from */
	uint64_t count; /* events lost: COUNTED, DROPPED; OTHER_READER when known */
};
//! [losses]

struct tracemap;
/*
 * Called by tracemap_get_reader() (and so by tracemap_read()) before every
 * GET_READER or read() with rd NULL, and after it with what it found
 * (tracemap_set_hook()). A negative errno return fails the call with it.
 */
typedef int (*tracemap_hook)(void *arg, struct tracemap *tm,
			     const struct tracemap_reader *rd);

/* What tracemap_read() returns: an event, or a loss before the next events. */
struct tracemap_item {
	bool is_loss;
	struct tracemap_event ev; /* when !is_loss */
	struct tracemap_reader loss; /* when is_loss: kind, source, count */
};

/*
 * One CPU of a ring buffer. The fields are private to tracemap.c: use the
 * functions below (a program that reads them breaks with the next change).
 */
struct tracemap {
	int fd, stats_fd, cpu, flags;
	enum tracemap_mode mode;
	struct trace_buffer_meta *meta; /* the mapping starts here */
	size_t map_len;
	unsigned char *copy; /* read() mode: one sub-buffer */
	uint32_t subbuf_size;
	struct tracemap_layout layout;
	struct tracemap_subbuf sb; /* the cursor */
	uint32_t reader_id; /* sub-buffer the cursor is on */
	uint64_t page_ts; /* its time stamp when loaded, 0 if it was empty */
	uint64_t seq; /* read() mode: sub-buffers read */
	struct { /* the meta-page as our last GET_READER left it */
		uint32_t id, read;
		uint64_t consumed, overrun;
	} seen;
	struct { /* the kernel's count of events read vs. the events we returned */
		uint64_t base; /* the meta-page's read when the count started */
		uint64_t returned; /* events returned since then */
		uint64_t ahead; /* of those, past the kernel's read position */
	} tally;
	uint64_t swap_overrun; /* overrun at our last swap */
	bool have_swap; /* swap_overrun is set */
	uint64_t dropped; /* "dropped events" already reported */
	enum tracemap_loss pending; /* found by tracemap_next(), reported next */
	bool drained; /* the last get_reader found nothing: next one may wait */
	int wake; /* tracemap_wake() calls not yet seen by a wait */
	int deferred; /* an error tracemap_read() returns after a loss */
	tracemap_hook hook; /* tracemap_set_hook() */
	void *hook_arg;
	char err[256];
	char notice[256]; /* why TRACEMAP_MODE_READ, after a fallback */
};

/* The tracefs mount point: /sys/kernel/tracing or the debugfs one, or NULL. */
const char *tracemap_tracefs(void);
/*
 * Open CPU cpu of the top-level buffer (instance NULL) or of
 * instances/<instance> and map it. tracefs NULL: tracemap_tracefs().
 * Nothing stops a second reader of the same CPU (another process, or
 * read() of trace_pipe_raw): tracemap_get_reader() detects one that swaps
 * sub-buffers (the meta-page moved without our GET_READER) and reports
 * TRACEMAP_LOSS_OTHER_READER, "another reader is consuming cpuN". Returns 0 or:
 *   -ENOENT   no tracefs, or no such instance (see tracemap_error())
 *   -ENODEV   no such CPU in this buffer (past the last one)
 *   -ENXIO    the CPU exists but is not online
 *   -EACCES / -EPERM  not permitted (tracing needs root)
 *   -EBUSY    (without TRACEMAP_FALLBACK_READ) a snapshot is armed on the buffer
 *   -EOPNOTSUPP  (without TRACEMAP_FALLBACK_READ) the kernel cannot map it:
 *             before 6.10, or a boot-mapped instance, or a 32-bit
 *             process on a 64-bit kernel without compat_ioctl for
 *             GET_READER (6.12 has none)
 *   -EBADMSG  the meta-page or events/header_page make no sense
 *   or the -errno of another failed call.
 * With TRACEMAP_FALLBACK_READ, a buffer that cannot be mapped is read with
 * read() instead: tracemap_mode() says which.
 */
int tracemap_open(struct tracemap *tm, const char *tracefs,
		  const char *instance, int cpu, int flags);
/*
 * The next event or loss of this CPU, in the order the buffer holds them:
 * the way to read. Returns 1 with *it filled (it->is_loss says which), 0
 * when the buffer has nothing new, or -errno (-EINTR: a signal interrupted
 * the wait). Every loss comes as an item, before the events that follow
 * it, whatever else happens. Without TRACEMAP_NONBLOCK, the call after one
 * that returned 0 waits (for buffer_percent or tracemap_wake()):
 *
 *	while ((r = tracemap_read(tm, &it)) >= 0)
 *		if (r > 0)
 *			it.is_loss ? on_loss(&it.loss) : on_event(&it.ev);
 *
 * With TRACEMAP_NONBLOCK, 0 means "empty now": poll() tracemap_fd().
 * It is tracemap_next() until 0, then tracemap_get_reader(), which are
 * there for programs that want to see the sub-buffer swaps.
 */
int tracemap_read(struct tracemap *tm, struct tracemap_item *it);
/* Call hook around every GET_READER of tm (tracemap_dat_hook(), say). */
void tracemap_set_hook(struct tracemap *tm, tracemap_hook hook, void *arg);
/*
 * Move to the next reader sub-buffer when the current one is consumed
 * (one GET_READER, or one read() in TRACEMAP_MODE_READ) and say what it found
 * in *rd (may be NULL only if losses do not matter to you). Returns 1
 * when there may be new events (a new sub-buffer, or more on the same
 * one), 0 when nothing changed, or -errno (-EINTR: a signal interrupted
 * the wait). Look at rd->loss whatever the return value: the losses of
 * overwrite-off buffers (TRACEMAP_LOSS_DROPPED) are found when the buffer is
 * empty, with a return of 0.
 * Waiting: without TRACEMAP_NONBLOCK the call waits (for buffer_percent, or
 * tracemap_wake()) only when the call before it returned 0, so a loop of
 * "next until 0, get_reader" waits once and then drains without
 * blocking. A reset of the buffer or another reader is re-synchronised
 * here and reported as a loss (TRACEMAP_LOSS_RESET, TRACEMAP_LOSS_OTHER_READER; the
 * sentence is in tracemap_error()).
 */
int tracemap_get_reader(struct tracemap *tm, struct tracemap_reader *rd);
/*
 * Next event of the reader sub-buffer: 1, 0 when it is consumed (or when
 * a reset or another reader was found: the next tracemap_get_reader()
 * reports it), or -EBADMSG for a record that cannot be right.
 */
int tracemap_next(struct tracemap *tm, struct tracemap_event *ev);
/*
 * Wake a thread blocked in tracemap_get_reader() on this CPU (the
 * ioctl(fd, 0) of trace_pipe_raw); safe from another thread. Its call
 * then returns 0 or 1. Returns 0 or -errno.
 */
int tracemap_wake(struct tracemap *tm);
/* Unmap exactly what was mapped, close. */
void tracemap_close(struct tracemap *tm);

/* The text of the last failure or reported reset/other-reader loss. */
const char *tracemap_error(const struct tracemap *tm);
/*
 * After a tracemap_open() that fell back to read() (TRACEMAP_FALLBACK_READ),
 * why the buffer could not be mapped; "" when it is mapped.
 */
const char *tracemap_notice(const struct tracemap *tm);
/* TRACEMAP_MODE_MMAP or TRACEMAP_MODE_READ. */
enum tracemap_mode tracemap_mode(const struct tracemap *tm);
/* The file descriptor of trace_pipe_raw, for poll(): POLLIN at buffer_percent. */
int tracemap_fd(const struct tracemap *tm);
int tracemap_cpu(const struct tracemap *tm);
/* The sub-buffer size in bytes, header included. */
uint32_t tracemap_subbuf_size(const struct tracemap *tm);
/*
 * The meta-page, read-only, for display (NULL in TRACEMAP_MODE_READ). It is
 * refreshed only by GET_READER and by a reset: its counters go stale in
 * between. The whole mapping starts at this address.
 */
const struct trace_buffer_meta *tracemap_meta(const struct tracemap *tm);
/*
 * Sub-buffer id of the mapping (header included, tracemap_subbuf_size()
 * bytes), read-only; NULL in TRACEMAP_MODE_READ or for an id past the last.
 */
const void *tracemap_subbuf_at(const struct tracemap *tm, uint32_t id);
/* Name of a loss kind: "counted", "unknown", "dropped", "reset", "other reader". */
const char *tracemap_loss_name(enum tracemap_loss loss);

/* --- event formats ----------------------------------------------------- */

/* tracemap_field.array for dynamic arrays: u32 (len << 16 | offset) in the payload */
#define TRACEMAP_ARRAY_DATA_LOC (-1) /* offset from the start of the payload */
#define TRACEMAP_ARRAY_REL_LOC (-2) /* offset from the end of the field */

/* Field of an event, from its format file. */
struct tracemap_field {
	char name[64];
	char type[96]; /* as declared, without the name: "unsigned long" */
	uint32_t offset, size;
	bool is_signed;
	int array; /* 0: scalar, >0: fixed array, TRACEMAP_ARRAY_DATA_LOC/_REL_LOC */
};

struct tracemap_format {
	int id;
	char system[64], name[64];
	int nr_fields;
	struct tracemap_field *fields; /* common_* fields first */
};

/* Every format of a tracefs, indexed by ID. The fields are private to tracemap.c. */
struct tracemap_formats {
	struct tracemap_format *v; /* sorted by id */
	size_t n;
	uint32_t *by_id; /* index + 1 in v, 0: none; nr_ids entries */
	uint32_t nr_ids;
	int failed; /* format files that could not be read or parsed */
	char err[256]; /* the first of those failures */
};

/* The largest event ID: records carry it in 16 bits (common_type). */
#define TRACEMAP_ID_MAX 65535
/*
 * Parse one format file's text. 0, -EBADMSG (not a format file, an ID
 * past TRACEMAP_ID_MAX, a name longer than struct tracemap_format holds) or -ENOMEM.
 */
int tracemap_format_parse(struct tracemap_format *f, const char *system,
			  const char *text);
/*
 * Load every events/<system>/<event>/format under dir (the tracefs mount,
 * an instance, or a copy). Returns the number loaded, or -errno when
 * events/ cannot be read at all. Files that fail are counted in
 * tracemap_formats_failed(), the first failure described in
 * tracemap_formats_error().
 */
int tracemap_formats_load(struct tracemap_formats *fs, const char *dir);
void tracemap_formats_free(struct tracemap_formats *fs);
/* The number of formats loaded. */
size_t tracemap_formats_count(const struct tracemap_formats *fs);
/* The idx-th format in ID order (0..count-1), or NULL. */
const struct tracemap_format *
tracemap_formats_at(const struct tracemap_formats *fs, size_t idx);
/* Format files that could not be read or parsed (not counted as loaded). */
int tracemap_formats_failed(const struct tracemap_formats *fs);
/* The first of those failures, or of a failed load; "" when none. */
const char *tracemap_formats_error(const struct tracemap_formats *fs);
/* The format of an event type ID (constant time), or NULL. */
const struct tracemap_format *
tracemap_formats_find(const struct tracemap_formats *fs, int id);
/* The format of system/name ("sched", "sched_switch"), or NULL. */
const struct tracemap_format *
tracemap_formats_find_name(const struct tracemap_formats *fs,
			   const char *system, const char *name);
/* A field of f by name, or NULL. */
const struct tracemap_field *
tracemap_format_field(const struct tracemap_format *f, const char *name);
/* Event type ID of a payload (its common_type), or -EBADMSG. */
int tracemap_event_type(const struct tracemap_event *ev);
/*
 * A scalar field's value (1, 2, 4 or 8 bytes, sign-extended when the
 * field is signed: cast to int64_t). 0, -EINVAL when the field is not a
 * scalar, -EBADMSG when the payload is too short for it.
 */
int tracemap_field_value(const struct tracemap_field *fl,
			 const struct tracemap_event *ev, uint64_t *val);
/*
 * Where an array field's bytes are (fixed, __data_loc or __rel_loc):
 * *data and *len. 0, -EINVAL for a scalar, -EBADMSG when the bytes are
 * not inside the payload.
 */
int tracemap_field_bytes(const struct tracemap_field *fl,
			 const struct tracemap_event *ev, const void **data,
			 uint32_t *len);
/*
 * Payload as text into buf: ftrace/print as its string, any other event as
 * field=value pairs in format order, strings quoted. Non-printable bytes
 * are written as \xNN. Returns the length it needed (like snprintf): a
 * value >= len means buf was too small and holds a cut string.
 */
int tracemap_format_payload(const struct tracemap_format *f,
			    const struct tracemap_event *ev, char *buf,
			    size_t len);

#endif /* TRACEMAP_H */
