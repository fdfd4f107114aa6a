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
 *  - tracemap_formats_*, tracemap_format_*, tracemap_field_*: the
 *    events/<sys>/<ev>/format files: find an event by ID or by name, a
 *    field by name, read a field's value, or print a payload as text.
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

/**
 * struct tracemap_layout - where the sub-buffer header puts the commit word
 * and the data
 * @commit_offset: offset of the commit word (RB_COMMIT_OFFSET)
 * @commit_size: size of the commit word: 8 on a 64-bit kernel, 4 on a
 *	32-bit one
 * @data_offset: bytes before the data: 16 or 12
 *
 * The kernel's long decides (events/header_page), not the reading
 * process's.
 */
struct tracemap_layout {
	uint32_t commit_offset;
	uint32_t commit_size;
	uint32_t data_offset;
};

/**
 * tracemap_layout_native() - the layout of a kernel whose long is this
 * process's
 * @l: the layout to fill
 *
 * No file is read.
 */
void tracemap_layout_native(struct tracemap_layout *l);
/**
 * tracemap_layout_parse() - parse the text of events/header_page
 * @l: the layout to fill
 * @text: the text of events/header_page, NUL-terminated
 *
 * Return: 0, or -EBADMSG when the text has no valid "commit" and "data"
 * fields.
 */
int tracemap_layout_parse(struct tracemap_layout *l, const char *text);
/**
 * tracemap_layout_load() - read DIR/events/header_page
 * @l: the layout to fill
 * @dir: the tracefs mount, an instance, or a directory holding a copy
 *
 * Return: 0, the -errno of the read (-ENAMETOOLONG when the path does not
 * fit), or -EBADMSG when the file makes no sense
 * (tracemap_layout_parse()).
 */
int tracemap_layout_load(struct tracemap_layout *l, const char *dir);

/* tracemap_subbuf_missed(): events were lost, but not how many */
#define TRACEMAP_MISSED_UNKNOWN (-1)

/**
 * struct tracemap_event - one data event of a sub-buffer
 * @ts: absolute timestamp, in the buffer's trace_clock units
 * @data: payload: struct trace_entry, then the fields
 * @size: payload bytes (a multiple of 4, may include padding)
 * @offset: offset of the event's header in the data area
 */
struct tracemap_event {
	uint64_t ts;
	const void *data;
	uint32_t size;
	uint32_t offset;
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

/**
 * tracemap_subbuf_load() - load a sub-buffer into a cursor
 * @sb: the cursor to set up
 * @l: the sub-buffer's layout (NULL: tracemap_layout_native())
 * @subbuf: the sub-buffer, header included
 * @size: its size in bytes, header included
 * @live: the kernel may still be appending (a mapped reader page)
 *
 * Return: 0, -EINVAL for a size or layout that cannot hold a header (or a
 * NULL @subbuf, or a @size past 4 GiB), -EBADMSG when the commit is past
 * the end.
 */
int tracemap_subbuf_load(struct tracemap_subbuf *sb,
			 const struct tracemap_layout *l, const void *subbuf,
			 size_t size, bool live);
/**
 * tracemap_subbuf_next() - the next data event of a sub-buffer
 * @sb: the cursor (tracemap_subbuf_load())
 * @ev: filled with the event
 *
 * Padding, discarded events and time stamps are consumed silently.
 *
 * Return: 1 with @ev filled; 0 at the end of the committed data; -EBADMSG
 * on a record that cannot be right (its offset is then
 * tracemap_subbuf_pos()) or when the commit of a live sub-buffer grew past
 * its end; -ESTALE when the commit of a live sub-buffer went backwards (the
 * buffer was reset, or the page was taken from under the reader).
 */
int tracemap_subbuf_next(struct tracemap_subbuf *sb, struct tracemap_event *ev);
/**
 * tracemap_subbuf_missed() - events lost before this sub-buffer
 * @sb: the cursor
 *
 * Return: 0, a count, or TRACEMAP_MISSED_UNKNOWN.
 */
int64_t tracemap_subbuf_missed(const struct tracemap_subbuf *sb);
/**
 * tracemap_subbuf_ts() - the cursor's time stamp
 * @sb: the cursor
 *
 * Return: the sub-buffer's time stamp until the first event, then the last
 * event's (time stamp records read since move it too).
 */
uint64_t tracemap_subbuf_ts(const struct tracemap_subbuf *sb);
/**
 * tracemap_subbuf_commit() - bytes of data written
 * @sb: the cursor
 *
 * Return: the commit word without its flags, as last read.
 */
uint32_t tracemap_subbuf_commit(const struct tracemap_subbuf *sb);
/**
 * tracemap_subbuf_pos() - where the cursor is
 * @sb: the cursor
 *
 * Return: the offset in the data area of the next record; after -EBADMSG
 * from tracemap_subbuf_next(), of the bad one.
 */
uint32_t tracemap_subbuf_pos(const struct tracemap_subbuf *sb);
/**
 * tracemap_subbuf_end() - the bytes of the sub-buffer in use
 * @sb: the cursor
 *
 * Return: the offset, from the start of the sub-buffer, just past its
 * header, its data and, when the kernel stored one, the count of lost
 * events after them.
 */
uint32_t tracemap_subbuf_end(const struct tracemap_subbuf *sb);
/**
 * tracemap_subbuf_skip_to() - return no record that starts before an offset
 * @sb: the cursor
 * @offset: offset in the data area
 *
 * For a reader that resumes where the kernel's reader.read says the last
 * one stopped.
 */
void tracemap_subbuf_skip_to(struct tracemap_subbuf *sb, uint32_t offset);

/* --- one CPU of a ring buffer ------------------------------------------ */

/* tracemap_open() flags */
#define TRACEMAP_NONBLOCK 1 /* tracemap_get_reader() never waits */
#define TRACEMAP_FALLBACK_READ 2 /* cannot map: read() trace_pipe_raw instead */

/**
 * enum tracemap_mode - how the events arrive (tracemap_mode())
 * @TRACEMAP_MODE_MMAP: the mapping, one GET_READER per sub-buffer
 * @TRACEMAP_MODE_READ: read() of trace_pipe_raw into a copy
 */
enum tracemap_mode {
	TRACEMAP_MODE_MMAP = 1,
	TRACEMAP_MODE_READ = 2,
};

//! [losses]
/**
 * enum tracemap_loss - the kind of a loss reported by tracemap_get_reader()
 * @TRACEMAP_LOSS_NONE: no loss
 * @TRACEMAP_LOSS_COUNTED: overwritten by the writer; lost events: count
 * @TRACEMAP_LOSS_UNKNOWN: overwritten; no source knew how many
 * @TRACEMAP_LOSS_DROPPED: overwrite off: new events dropped; count (stats)
 * @TRACEMAP_LOSS_RESET: the buffer was reset (echo > trace, trace_clock)
 * @TRACEMAP_LOSS_OTHER_READER: another reader consumed events of this CPU
 */
enum tracemap_loss {
	TRACEMAP_LOSS_NONE = 0,
	TRACEMAP_LOSS_COUNTED,
	TRACEMAP_LOSS_UNKNOWN,
	TRACEMAP_LOSS_DROPPED,
	TRACEMAP_LOSS_RESET,
	TRACEMAP_LOSS_OTHER_READER,
};

/**
 * enum tracemap_loss_source - where the count of a loss came from
 * @TRACEMAP_SRC_NONE: no count
 * @TRACEMAP_SRC_SUBBUF: stored after the data of the sub-buffer
 * @TRACEMAP_SRC_META: the meta-page's reader.lost_events
 *	(kernel-patches/0001)
 * @TRACEMAP_SRC_OVERRUN: the kernel's overrun at this swap less at our
 *	last: the meta-page's at each, taken only where per_cpu/cpuN/stats
 *	gave the same just before that GET_READER (else of unknown size)
 * @TRACEMAP_SRC_STATS: per_cpu/cpuN/stats, "dropped events"
 * @TRACEMAP_SRC_READ_COUNT: the meta-page's read, against the events
 *	returned
 * @TRACEMAP_SRC_LAST_LOOK: a lower bound: the events the meta-page counted
 *	unread at the last GET_READER (entries - overrun - read) that were
 *	not returned; those written after it are not counted
 */
enum tracemap_loss_source {
	TRACEMAP_SRC_NONE = 0,
	TRACEMAP_SRC_SUBBUF,
	TRACEMAP_SRC_META,
	TRACEMAP_SRC_OVERRUN,
	TRACEMAP_SRC_STATS,
	TRACEMAP_SRC_READ_COUNT,
	TRACEMAP_SRC_LAST_LOOK,
};

/**
 * struct tracemap_reader - what one tracemap_get_reader() call found
 * @new_subbuf: a new sub-buffer (else more events, or none, on the same)
 * @id: its ID in the mapping; in read() mode, a sequence number
 * @ts: its time stamp: when its first event was written; for a loss
 *	without a new sub-buffer, the time of the last event returned (or,
 *	before the first, the trace clock's "now ts" of per_cpu/cpuN/stats)
 * @loss: events lost before the events that follow
 * @source: where @count came from
 * @count: events lost: COUNTED, DROPPED; OTHER_READER and RESET when known
 *	(RESET: a lower bound, TRACEMAP_SRC_LAST_LOOK)
 */
struct tracemap_reader {
	bool new_subbuf;
	uint32_t id;
	uint64_t ts;
	enum tracemap_loss loss;
	enum tracemap_loss_source source;
	uint64_t count;
};
//! [losses]

struct tracemap;
/**
 * typedef tracemap_hook - called around every GET_READER or read()
 * @arg: the argument given to tracemap_set_hook()
 * @tm: the reader
 * @rd: NULL before the call; after it, what it found
 *
 * Called by tracemap_get_reader() (and so by tracemap_read()) before every
 * GET_READER or read() with @rd NULL, and after it with what it found
 * (tracemap_set_hook()).
 *
 * Return: 0 (or any non-negative value) to go on; a negative errno value
 * fails the tracemap_get_reader() call with it.
 */
typedef int (*tracemap_hook)(void *arg, struct tracemap *tm,
			     const struct tracemap_reader *rd);

/**
 * struct tracemap_item - what tracemap_read() returns: an event, or a loss
 * before the next events
 * @is_loss: a loss (@loss) or an event (@ev)
 * @new_subbuf: the first item since a sub-buffer was swapped in (a bound
 *	on sub-buffers read, for a program that must stop after so many)
 * @ev: the event, when !@is_loss
 * @loss: when @is_loss: kind, source, count
 */
struct tracemap_item {
	bool is_loss;
	bool new_subbuf;
	struct tracemap_event ev;
	struct tracemap_reader loss;
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
		uint64_t entries, consumed, overrun;
		uint64_t stamp; /* sub-buffer id's time stamp then */
	} seen;
	bool detached; /* cursor bounded by seen.read, live commit ignored */
	uint64_t look_returned; /* events returned since the last GET_READER */
	uint64_t last_ts; /* time stamp of the last event returned */
	uint64_t newest_ts; /* newest sub-buffer time stamp at the last look */
	uint64_t scanned_at; /* CLOCK_MONOTONIC ns of that look */
	uint64_t start_dropped; /* "dropped events" at open, not reported yet */
	struct { /* the kernel's count of events read vs. the events we returned */
		uint64_t base; /* the meta-page's read when the count started */
		uint64_t returned; /* events returned since then */
		uint64_t ahead; /* of those, past the kernel's read position */
	} tally;
	uint64_t swap_overrun; /* the kernel's overrun at our last swap */
	bool swap_overrun_known; /* swap_overrun is exact */
	bool watch_overrun; /* read overrun_before: losses are counted from it */
	int64_t overrun_before; /* stats' overrun before this GET_READER, or -1 */
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

/**
 * tracemap_tracefs() - the tracefs mount point
 *
 * Return: /sys/kernel/tracing or the debugfs one (/sys/kernel/debug/tracing),
 * or NULL.
 */
const char *tracemap_tracefs(void);
/**
 * tracemap_open() - open one CPU of a ring buffer and map it
 * @tm: the reader to set up
 * @tracefs: the tracefs mount (NULL: tracemap_tracefs())
 * @instance: NULL for the top-level buffer, else instances/<instance>
 * @cpu: the CPU
 * @flags: TRACEMAP_NONBLOCK, TRACEMAP_FALLBACK_READ, or 0
 *
 * Nothing stops a second reader of the same CPU (another process, or
 * read() of trace_pipe_raw): tracemap_get_reader() detects one that swaps
 * sub-buffers (the meta-page moved without our GET_READER) and reports
 * TRACEMAP_LOSS_OTHER_READER, "another reader is consuming cpuN".
 * With TRACEMAP_FALLBACK_READ, a buffer that cannot be mapped is read with
 * read() instead: tracemap_mode() says which. Events the kernel dropped
 * (overwrite off) before the open, the "dropped events" of
 * per_cpu/cpuN/stats since the last reset, are the first thing
 * tracemap_get_reader() reports: TRACEMAP_LOSS_DROPPED.
 *
 * Return: 0 or:
 *   -ENOENT   no tracefs, or no such instance (see tracemap_error())
 *   -EINVAL   an instance name that is empty, ".", ".." or holds a /
 *   -ENODEV   no such CPU in this buffer (past the last one)
 *   -ENXIO    the CPU exists but is not online
 *   -EACCES / -EPERM  not permitted (tracing needs root)
 *   -EBUSY    (without TRACEMAP_FALLBACK_READ) a snapshot is armed on
 *             the buffer
 *   -EOPNOTSUPP  (without TRACEMAP_FALLBACK_READ) the kernel cannot map it:
 *             before 6.10, or a boot-mapped instance, or a 32-bit
 *             process on a 64-bit kernel without compat_ioctl for
 *             GET_READER (6.12 has none)
 *   -EBADMSG  the meta-page or events/header_page make no sense
 *   or the -errno of another failed call.
 */
int tracemap_open(struct tracemap *tm, const char *tracefs,
		  const char *instance, int cpu, int flags);
/**
 * tracemap_read() - the next event or loss of this CPU
 * @tm: the reader
 * @it: filled with the event or the loss
 *
 * The next event or loss in the order the buffer holds them: the way to
 * read. Every loss comes as an item, before the events that follow it,
 * whatever else happens. Without TRACEMAP_NONBLOCK, the call after one
 * that returned 0 waits (for buffer_percent or tracemap_wake())::
 *
 *	while ((r = tracemap_read(tm, &it)) >= 0)
 *		if (r > 0)
 *			it.is_loss ? on_loss(&it.loss) : on_event(&it.ev);
 *
 * With TRACEMAP_NONBLOCK, 0 means "empty now": poll() tracemap_fd().
 * It is tracemap_next() until 0, then tracemap_get_reader(), which are
 * there for programs that want to see the sub-buffer swaps.
 *
 * Return: 1 with *@it filled (it->is_loss says which), 0 when the buffer
 * has nothing new, or -errno (-EINTR: a signal interrupted the wait). An
 * error found together with a loss is returned by the call after the one
 * that returns the loss.
 */
int tracemap_read(struct tracemap *tm, struct tracemap_item *it);
/**
 * tracemap_set_hook() - call a hook around every GET_READER of a reader
 * @tm: the reader
 * @hook: the hook (tracemap_dat_hook(), say), or NULL for none
 * @arg: its first argument
 */
void tracemap_set_hook(struct tracemap *tm, tracemap_hook hook, void *arg);
/**
 * tracemap_get_reader() - move to the next reader sub-buffer
 * @tm: the reader
 * @rd: what it found (may be NULL only if losses do not matter to you)
 *
 * Move to the next reader sub-buffer when the current one is consumed
 * (one GET_READER, or one read() in TRACEMAP_MODE_READ) and say what it
 * found in *@rd. Look at rd->loss whatever the return value: the losses of
 * overwrite-off buffers (TRACEMAP_LOSS_DROPPED) are found when the buffer
 * is empty, with a return of 0.
 *
 * Waiting: without TRACEMAP_NONBLOCK the call waits (for buffer_percent, or
 * tracemap_wake()) only when the call before it returned 0, so a loop of
 * "next until 0, get_reader" waits once and then drains without
 * blocking. A reset of the buffer or another reader is re-synchronised
 * here and reported as a loss (TRACEMAP_LOSS_RESET,
 * TRACEMAP_LOSS_OTHER_READER; the sentence is in tracemap_error()).
 *
 * Return: 1 when there may be new events (a new sub-buffer, or more on the
 * same one), 0 when nothing changed, or -errno (-EINTR: a signal
 * interrupted the wait; -EBADF when @tm is not open; the hook's negative
 * return).
 */
int tracemap_get_reader(struct tracemap *tm, struct tracemap_reader *rd);
/**
 * tracemap_next() - the next event of the reader sub-buffer
 * @tm: the reader
 * @ev: filled with the event
 *
 * Return: 1 with @ev filled; 0 when the sub-buffer is consumed (or when a
 * reset or another reader was found: the next tracemap_get_reader()
 * reports it); or -EBADMSG for a record that cannot be right.
 */
int tracemap_next(struct tracemap *tm, struct tracemap_event *ev);
/**
 * tracemap_wake() - wake a thread blocked in tracemap_get_reader()
 * @tm: the reader of this CPU
 *
 * The ioctl(fd, 0) of trace_pipe_raw; safe from another thread. The woken
 * call then returns 0 or 1.
 *
 * Return: 0 or -errno.
 */
int tracemap_wake(struct tracemap *tm);
/**
 * tracemap_close() - unmap exactly what was mapped, close
 * @tm: the reader
 */
void tracemap_close(struct tracemap *tm);

/**
 * tracemap_error() - the text of the last failure
 * @tm: the reader
 *
 * Return: the text of the last failure, or of the last loss reported
 * with a sentence: a reset, another reader, events dropped before the
 * start, a loss of unknown size (why no count).
 */
const char *tracemap_error(const struct tracemap *tm);
/**
 * tracemap_notice() - why the buffer is read with read()
 * @tm: the reader
 *
 * Return: after a tracemap_open() that fell back to read()
 * (TRACEMAP_FALLBACK_READ), why the buffer could not be mapped; "" when it
 * is mapped.
 */
const char *tracemap_notice(const struct tracemap *tm);
/**
 * tracemap_mode() - how the events arrive
 * @tm: the reader
 *
 * Return: TRACEMAP_MODE_MMAP or TRACEMAP_MODE_READ.
 */
enum tracemap_mode tracemap_mode(const struct tracemap *tm);
/**
 * tracemap_fd() - the file descriptor of trace_pipe_raw
 * @tm: the reader
 *
 * For poll(): POLLIN at buffer_percent.
 *
 * Return: the file descriptor, -1 when @tm is closed.
 */
int tracemap_fd(const struct tracemap *tm);
/**
 * tracemap_cpu() - the CPU of a reader
 * @tm: the reader
 *
 * Return: the CPU given to tracemap_open().
 */
int tracemap_cpu(const struct tracemap *tm);
/**
 * tracemap_subbuf_size() - the sub-buffer size
 * @tm: the reader
 *
 * Return: the sub-buffer size in bytes, header included.
 */
uint32_t tracemap_subbuf_size(const struct tracemap *tm);
/**
 * tracemap_meta() - the meta-page, read-only, for display
 * @tm: the reader
 *
 * It is refreshed only by GET_READER and by a reset: its counters go
 * stale in between. The whole mapping starts at this address.
 *
 * Return: the meta-page, or NULL in TRACEMAP_MODE_READ.
 */
const struct trace_buffer_meta *tracemap_meta(const struct tracemap *tm);
/**
 * tracemap_subbuf_at() - one sub-buffer of the mapping
 * @tm: the reader
 * @id: the sub-buffer's ID (0 to nr_subbufs - 1)
 *
 * Return: the sub-buffer, header included (tracemap_subbuf_size() bytes),
 * read-only; NULL in TRACEMAP_MODE_READ or for an ID past the last.
 */
const void *tracemap_subbuf_at(const struct tracemap *tm, uint32_t id);
/**
 * tracemap_loss_name() - the name of a loss kind
 * @loss: the kind
 *
 * Return: "counted", "unknown", "dropped", "reset", "other reader"; "none"
 * for TRACEMAP_LOSS_NONE, "?" for a value that is no kind.
 */
const char *tracemap_loss_name(enum tracemap_loss loss);

/* --- event formats ----------------------------------------------------- */

/*
 * tracemap_field.array for dynamic arrays: u32 (len << 16 | offset) in the
 * payload
 */
#define TRACEMAP_ARRAY_DATA_LOC (-1) /* offset from the start of the payload */
#define TRACEMAP_ARRAY_REL_LOC (-2) /* offset from the end of the field */

/**
 * struct tracemap_field - a field of an event, from its format file
 * @name: the field's name
 * @type: as declared, without the name: "unsigned long"
 * @offset: offset of the field in the payload
 * @size: size of the field in bytes
 * @is_signed: the format file says it is signed
 * @array: 0: scalar, >0: fixed array (its number of elements),
 *	TRACEMAP_ARRAY_DATA_LOC or TRACEMAP_ARRAY_REL_LOC
 */
struct tracemap_field {
	char name[64];
	char type[96];
	uint32_t offset, size;
	bool is_signed;
	int array;
};

/**
 * struct tracemap_format - the format of an event
 * @id: the event type ID (common_type)
 * @system: the event's system ("sched")
 * @name: the event's name ("sched_switch")
 * @nr_fields: the number of @fields
 * @fields: the fields, common_* fields first
 */
struct tracemap_format {
	int id;
	char system[64], name[64];
	int nr_fields;
	struct tracemap_field *fields;
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
/**
 * tracemap_format_parse() - parse one format file's text
 * @f: the format to fill
 * @system: the event's system (the name of its directory under events/)
 * @text: the text of the format file, NUL-terminated
 *
 * Return: 0, -EBADMSG (not a format file, an ID past TRACEMAP_ID_MAX, a
 * name longer than struct tracemap_format holds) or -ENOMEM.
 */
int tracemap_format_parse(struct tracemap_format *f, const char *system,
			  const char *text);
/**
 * tracemap_formats_load() - load every events/<system>/<event>/format
 * @fs: the formats to fill; free them with tracemap_formats_free()
 * @dir: the tracefs mount, an instance, or a copy
 *
 * Files that fail are counted in tracemap_formats_failed(), the first
 * failure described in tracemap_formats_error().
 *
 * Return: the number loaded, or -errno when events/ cannot be read at all
 * (or -ENOMEM; then nothing is loaded and tracemap_formats_error() says
 * why).
 */
int tracemap_formats_load(struct tracemap_formats *fs, const char *dir);
/**
 * tracemap_formats_free() - free the formats loaded
 * @fs: the formats
 */
void tracemap_formats_free(struct tracemap_formats *fs);
/**
 * tracemap_formats_count() - the number of formats loaded
 * @fs: the formats
 *
 * Return: the number of formats loaded.
 */
size_t tracemap_formats_count(const struct tracemap_formats *fs);
/**
 * tracemap_formats_at() - the idx-th format in ID order
 * @fs: the formats
 * @idx: 0..tracemap_formats_count()-1
 *
 * Return: the format, or NULL.
 */
const struct tracemap_format *
tracemap_formats_at(const struct tracemap_formats *fs, size_t idx);
/**
 * tracemap_formats_failed() - format files that could not be read or parsed
 * @fs: the formats
 *
 * Return: how many (they are not counted as loaded).
 */
int tracemap_formats_failed(const struct tracemap_formats *fs);
/**
 * tracemap_formats_error() - the first failure
 * @fs: the formats
 *
 * Return: the first failure of tracemap_formats_failed(), or of a failed
 * load; "" when none.
 */
const char *tracemap_formats_error(const struct tracemap_formats *fs);
/**
 * tracemap_formats_find() - the format of an event type ID
 * @fs: the formats
 * @id: the event type ID (tracemap_event_type())
 *
 * Constant time.
 *
 * Return: the format, or NULL.
 */
const struct tracemap_format *
tracemap_formats_find(const struct tracemap_formats *fs, int id);
/**
 * tracemap_formats_find_name() - the format of system/name
 * @fs: the formats
 * @system: the system ("sched")
 * @name: the event ("sched_switch")
 *
 * Return: the format, or NULL.
 */
const struct tracemap_format *
tracemap_formats_find_name(const struct tracemap_formats *fs,
			   const char *system, const char *name);
/**
 * tracemap_format_field() - a field of a format by name
 * @f: the format
 * @name: the field's name
 *
 * Return: the field, or NULL.
 */
const struct tracemap_field *
tracemap_format_field(const struct tracemap_format *f, const char *name);
/**
 * tracemap_event_type() - the event type ID of a payload
 * @ev: the event
 *
 * Return: its common_type, or -EBADMSG when the payload is too short.
 */
int tracemap_event_type(const struct tracemap_event *ev);
/**
 * tracemap_field_value() - a scalar field's value
 * @fl: the field (1, 2, 4 or 8 bytes)
 * @ev: the event
 * @val: filled with the value, sign-extended when the field is signed
 *	(cast to int64_t)
 *
 * Return: 0, -EINVAL when the field is not a scalar (or of another size),
 * -EBADMSG when the payload is too short for it.
 */
int tracemap_field_value(const struct tracemap_field *fl,
			 const struct tracemap_event *ev, uint64_t *val);
/**
 * tracemap_field_bytes() - where an array field's bytes are
 * @fl: the field: fixed, __data_loc or __rel_loc
 * @ev: the event
 * @data: filled with the address of the bytes
 * @len: filled with their number
 *
 * Return: 0, -EINVAL for a scalar, -EBADMSG when the bytes are not inside
 * the payload.
 */
int tracemap_field_bytes(const struct tracemap_field *fl,
			 const struct tracemap_event *ev, const void **data,
			 uint32_t *len);
/**
 * tracemap_format_payload() - a payload as text
 * @f: the event's format
 * @ev: the event
 * @buf: where the text goes, NUL-terminated when @len is not 0
 * @len: the size of @buf
 *
 * ftrace/print as its string (without the newline trace_marker adds), any
 * other event as field=value pairs in format order (the common_* fields
 * left out), strings quoted. Non-printable bytes, backslashes and double
 * quotes are written as \xNN; a value outside the payload as "?".
 *
 * Return: the length it needed (like snprintf): a value >= @len means @buf
 * was too small and holds a cut string.
 */
int tracemap_format_payload(const struct tracemap_format *f,
			    const struct tracemap_event *ev, char *buf,
			    size_t len);

#endif /* TRACEMAP_H */
