// SPDX-License-Identifier: MIT
/*
 * tracemap: a consumer of the memory-mapped tracefs ring buffer.
 * See tracemap.h for the interface and docs/ for the format it decodes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include "tracemap.h"
#include "tracemap_internal.h"

#define TRACEMAP_TS_MSB \
	(0x1fULL << RB_TS_ABS_BITS) /* bits an absolute stamp lacks */
#define TRACEMAP_SCAN_NS \
	100000000ULL /* a buffer with nothing written: its stamps every 100 ms */
/*
 * A sub-buffer stamped but still empty is the writer's, between its stamp
 * and its first commit, for this long at most: past it, a reset emptied it.
 * (Under an emulator on a busy host the writer's CPU can stall for ms.)
 */
#define TRACEMAP_STAMP_WAIT_NS 100000000ULL
#define TRACEMAP_MAP_TRIES \
	8 /* opens that race with a resize, before giving up */

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* --- one sub-buffer ---------------------------------------------------- */

void tracemap_layout_native(struct tracemap_layout *l)
{
	l->commit_offset = RB_COMMIT_OFFSET;
	l->commit_size = sizeof(long);
	l->data_offset = RB_COMMIT_OFFSET + sizeof(long);
}

static bool layout_ok(const struct tracemap_layout *l)
{
	return (l->commit_size == 4 || l->commit_size == 8) &&
	       l->commit_offset % 4 == 0 && l->commit_offset < 64 &&
	       l->data_offset >= l->commit_offset + l->commit_size &&
	       l->data_offset < 256;
}

/*
 * The low 32 bits of the commit word: the only meaningful ones (the flags
 * are added as int constants, so the upper half of a 64-bit word is
 * sign-extended garbage). Live pages change under us: load it once.
 */
static uint32_t commit_word(const struct tracemap_layout *l,
			    const unsigned char *base, bool live)
{
	uint32_t off = l->commit_offset;
	const uint32_t *p;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	off += l->commit_size - 4;
#endif
	p = (const uint32_t *)(const void *)(base + off);
	if (live)
		return __atomic_load_n(p, __ATOMIC_ACQUIRE);
	return get_u32(base + off);
}

static uint32_t read_commit(const struct tracemap_subbuf *sb)
{
	return commit_word(&sb->layout, sb->base, sb->live);
}

/* Where the kernel stores the count of lost events: a long right after the data. */
static uint32_t missed_count_offset(const struct tracemap_subbuf *sb)
{
	return sb->layout.data_offset + sb->commit;
}

int tracemap_subbuf_load(struct tracemap_subbuf *sb,
			 const struct tracemap_layout *l, const void *subbuf,
			 size_t size, bool live)
{
	uint32_t word;

	memset(sb, 0, sizeof(*sb));
	if (l)
		sb->layout = *l;
	else
		tracemap_layout_native(&sb->layout);
	if (!subbuf || !layout_ok(&sb->layout) ||
	    size <= sb->layout.data_offset || size > UINT32_MAX)
		return -EINVAL;
	sb->base = subbuf;
	sb->cap = (uint32_t)(size - sb->layout.data_offset);
	sb->live = live;
	memcpy(&sb->ts, sb->base + RB_TIME_STAMP_OFFSET, sizeof(sb->ts));
	word = read_commit(sb);
	sb->commit = word & RB_COMMIT_MASK;
	if (sb->commit > sb->cap)
		return -EBADMSG;
	if (word & RB_MISSED_EVENTS) {
		uint32_t n = sb->layout.commit_size;
		const unsigned char *p = sb->base + missed_count_offset(sb);

		sb->missed = TRACEMAP_MISSED_UNKNOWN;
		/* Stored right after the data, a kernel long, when there was room. */
		if ((word & RB_MISSED_STORED) && sb->cap - sb->commit >= n) {
			uint64_t v;

			if (n == 4)
				v = get_u32(p);
			else
				memcpy(&v, p, sizeof(v));
			if (v && v <= INT64_MAX)
				sb->missed = (int64_t)v;
		}
	}
	return 0;
}

/* A 59-bit absolute time stamp takes its top bits from the previous one. */
static uint64_t fix_abs_ts(uint64_t abs, uint64_t prev)
{
	abs |= prev & TRACEMAP_TS_MSB;
	if (abs < prev && (prev & TRACEMAP_TS_MSB))
		abs += 1ULL
		       << RB_TS_ABS_BITS; /* the low bits wrapped since prev */
	return abs;
}

/*
 * Every record but a small data event, which tracemap_subbuf_next() decodes
 * itself: a large data event (type_len 0), padding or a discarded event
 * (29), a time extend (30), an absolute time stamp (31). p is the record,
 * left the committed bytes from p (at least 4). Sets *len to the record's
 * length and advances the time; returns 1, 0 for the padding that ends
 * the data, or -EBADMSG.
 */
static int other_record(struct tracemap_subbuf *sb, const unsigned char *p,
			uint32_t left, uint32_t *len)
{
	uint32_t hdr = get_u32(p), type = rb_type_len(hdr);
	uint32_t delta = rb_time_delta(hdr), arg;

	if (type == RB_TYPE_PADDING && delta == 0)
		return 0; /* the rest of the sub-buffer is empty */
	if (left < 8)
		return -EBADMSG;
	arg = get_u32(p + 4);
	switch (type) {
	case 0: /* large: array[0] counts itself and the payload */
	case RB_TYPE_PADDING: /* discarded: array[0] bytes follow the header */
		if (arg < 4 || arg % 4 || arg > left - 4)
			return -EBADMSG;
		*len = 4 + arg;
		/*
		 * A discarded event's time counts too: the writer computed
		 * the next delta from it (as libtraceevent does; the kernel's
		 * own reader skips it, see tests/host/decode.c).
		 */
		sb->ts += delta;
		return 1;
	case RB_TYPE_TIME_EXTEND:
		*len = 8;
		sb->ts += ((uint64_t)arg << RB_TS_SHIFT) | delta;
		return 1;
	case RB_TYPE_TIME_STAMP:
		*len = 8;
		sb->ts = fix_abs_ts(((uint64_t)arg << RB_TS_SHIFT) | delta,
				    sb->ts);
		return 1;
	default: /* 1..28: not called for those */
		return -EBADMSG;
	}
}

int64_t tracemap_subbuf_missed(const struct tracemap_subbuf *sb)
{
	return sb->missed;
}

uint64_t tracemap_subbuf_ts(const struct tracemap_subbuf *sb)
{
	return sb->ts;
}

uint32_t tracemap_subbuf_commit(const struct tracemap_subbuf *sb)
{
	return sb->commit;
}

uint32_t tracemap_subbuf_pos(const struct tracemap_subbuf *sb)
{
	return sb->pos;
}

uint32_t tracemap_subbuf_end(const struct tracemap_subbuf *sb)
{
	return missed_count_offset(sb) +
	       (sb->missed > 0 ? sb->layout.commit_size : 0);
}

void tracemap_subbuf_skip_to(struct tracemap_subbuf *sb, uint32_t offset)
{
	sb->resume_at = offset;
}

int tracemap_subbuf_next(struct tracemap_subbuf *sb, struct tracemap_event *ev)
{
	/* Every call: a reset or a swap under a live reader shows here. */
	if (sb->live && sb->commit < sb->cap) {
		uint32_t c = read_commit(sb) & RB_COMMIT_MASK;

		if (c < sb->commit)
			return -ESTALE;
		if (c > sb->cap)
			return -EBADMSG;
		sb->commit = c;
	}
	while (sb->pos < sb->commit) {
		const unsigned char *p =
			sb->base + sb->layout.data_offset + sb->pos;
		uint32_t left = sb->commit - sb->pos, hdr, type, len, skip;
		int r;

		if (left < 4)
			return -EBADMSG;
		hdr = get_u32(p);
		type = rb_type_len(hdr);
		if (type - 1 < RB_TYPE_DATA_MAX) {
			/* Most records: a data event of type_len words. */
			len = 4 + type * 4;
			if (len > left)
				return -EBADMSG;
			sb->ts += rb_time_delta(hdr);
			skip = 4;
		} else {
			r = other_record(sb, p, left, &len);
			if (r <= 0)
				return r;
			if (type != 0) {
				sb->pos += len; /* no event: time or padding */
				continue;
			}
			skip = 8;
		}
		if (sb->pos < sb->resume_at) {
			sb->pos += len; /* consumed before this cursor */
			continue;
		}
		ev->ts = sb->ts;
		ev->offset = sb->pos;
		ev->data = p + skip;
		ev->size = len - skip;
		sb->pos += len;
		return 1;
	}
	return 0;
}

/* --- small helpers ----------------------------------------------------- */

int tracemap_error_set(char *buf, size_t size, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return code;
}

#define msg(dst, size, ...) \
	((void)tracemap_error_set(dst, size, 0, __VA_ARGS__))
/* Set the handle's error text; returns code (a negative errno). */
#define fail(tm, code, ...) \
	tracemap_error_set((tm)->err, sizeof((tm)->err), code, __VA_ARGS__)

/* A path into buf: 0, or -ENAMETOOLONG rather than a cut path. */
static int path_of(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * A whole (small) file into a NUL-terminated buffer; tracefs files report
 * size 0, so read until EOF. NULL with errno set on failure.
 */
static char *slurp(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;
	ssize_t n = 0;

	if (!buf || fd < 0)
		goto err;
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2) {
			char *b = realloc(buf, cap * 2);

			if (!b)
				goto err;
			buf = b;
			cap *= 2;
		}
	}
	if (n < 0)
		goto err;
	buf[len] = '\0';
	close(fd);
	return buf;
err:
	e = buf ? errno : ENOMEM;
	free(buf);
	if (fd >= 0)
		close(fd);
	errno = e;
	return NULL;
}

/* Copy [s, e) trimmed of blanks into dst; false if it did not fit. */
static bool copy_trim(char *dst, size_t size, const char *s, const char *e)
{
	size_t n;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	n = (size_t)(e - s);
	if (n >= size) {
		dst[0] = '\0';
		return false;
	}
	memcpy(dst, s, n);
	dst[n] = '\0';
	return true;
}

/* The number after key in [line, end), or -1. */
static long number_after(const char *line, const char *end, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = line; p + k <= end; p++)
		if (!memcmp(p, key, k)) {
			char *stop;
			long v = strtol(p + k, &stop, 10);

			return stop > p + k && stop <= end ? v : -1;
		}
	return -1;
}

/* "field:TYPE NAME[N];\toffset:O;\tsize:S;\tsigned:G;" in [line, end) */
static int parse_field(struct tracemap_field *fl, const char *line,
		       const char *end)
{
	const char *decl = NULL, *semi, *name, *br = NULL;
	long off, size, sign;

	for (const char *p = line; p + 6 <= end; p++)
		if (!memcmp(p, "field:", 6)) {
			decl = p + 6;
			break;
		}
	if (!decl)
		return -EBADMSG;
	semi = memchr(decl, ';', (size_t)(end - decl));
	off = number_after(line, end, "offset:");
	size = number_after(line, end, "size:");
	sign = number_after(line, end, "signed:");
	/*
	 * Sizes up to 16 MiB: header_page's data field is a whole sub-buffer
	 * (up to 128 pages; 512 KiB with 4 KiB pages).
	 */
	if (!semi || off < 0 || size < 0 || off > UINT16_MAX ||
	    size > (1L << 24))
		return -EBADMSG;
	memset(fl, 0, sizeof(*fl));
	/* The name is the last word; "[N]" may follow it. */
	name = semi;
	while (name > decl && (name[-1] == ' ' || name[-1] == '\t'))
		name--;
	if (name > decl && name[-1] == ']') {
		while (name > decl && *name != '[')
			name--;
		br = name;
	}
	while (name > decl && name[-1] != ' ' && name[-1] != '\t' &&
	       name[-1] != '*')
		name--;
	if (!copy_trim(fl->name, sizeof(fl->name), name, br ? br : semi) ||
	    !copy_trim(fl->type, sizeof(fl->type), decl, name))
		return -EBADMSG; /* longer than any the kernel writes */
	if (br)
		fl->array = atoi(br + 1) > 0 ? atoi(br + 1) :
					       TRACEMAP_ARRAY_DATA_LOC;
	if (!strncmp(fl->type, "__data_loc", 10))
		fl->array = TRACEMAP_ARRAY_DATA_LOC;
	else if (!strncmp(fl->type, "__rel_loc", 9))
		fl->array = TRACEMAP_ARRAY_REL_LOC;
	fl->offset = (uint32_t)off;
	fl->size = (uint32_t)size;
	fl->is_signed = sign == 1;
	return fl->name[0] ? 0 : -EBADMSG;
}

int tracemap_layout_parse(struct tracemap_layout *l, const char *text)
{
	bool commit = false, data = false;

	memset(l, 0, sizeof(*l));
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		struct tracemap_field fl;

		if (!end)
			end = line + strlen(line);
		if (parse_field(&fl, line, end) == 0) {
			if (!strcmp(fl.name, "commit")) {
				l->commit_offset = fl.offset;
				l->commit_size = fl.size;
				commit = true;
			} else if (!strcmp(fl.name, "data")) {
				l->data_offset = fl.offset;
				data = true;
			}
		}
		line = *end ? end + 1 : end;
	}
	return commit && data && layout_ok(l) ? 0 : -EBADMSG;
}

int tracemap_layout_load(struct tracemap_layout *l, const char *dir)
{
	char path[1024];
	char *text;
	int r;

	if (path_of(path, sizeof(path), "%s/events/header_page", dir))
		return -ENAMETOOLONG;
	text = slurp(path);
	if (!text)
		return -errno;
	r = tracemap_layout_parse(l, text);
	free(text);
	return r;
}

/* --- one CPU: open ----------------------------------------------------- */

const char *tracemap_tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	char path[64];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/per_cpu", dirs[i]);
		/* Not root: say so at open (EACCES), not "no tracefs". */
		errno = 0;
		if (is_dir(path) || errno == EACCES)
			return dirs[i];
	}
	return NULL;
}

/* A failed call on path: -errno, with a hint for the usual causes. */
static int sys_fail(struct tracemap *tm, int e, const char *what,
		    const char *path)
{
	if (e == EACCES || e == EPERM)
		return fail(tm, -e, "%s %s: %s (tracing needs root)", what,
			    path, strerror(e));
	return fail(tm, -e, "%s %s: %s", what, path, strerror(e));
}

/* Is cpu listed in /sys/devices/system/cpu/online ("0-3,5")? */
static bool cpu_online(int cpu)
{
	char *text = slurp("/sys/devices/system/cpu/online"), *p;
	bool on = true; /* without the file, do not claim it is offline */

	if (!text)
		return on;
	on = false;
	for (p = text; *p && *p != '\n';) {
		long lo = strtol(p, &p, 10), hi = lo;

		if (*p == '-')
			hi = strtol(p + 1, &p, 10);
		if (cpu >= lo && cpu <= hi)
			on = true;
		if (*p != ',')
			break;
		p++;
	}
	free(text);
	return on;
}

static bool meta_sane(const struct trace_buffer_meta *m, size_t page,
		      const struct tracemap_layout *l)
{
	return m->meta_page_size >= page && m->meta_page_size % page == 0 &&
	       m->subbuf_size > l->data_offset && m->subbuf_size % page == 0 &&
	       m->nr_subbufs > 0 && m->meta_struct_len >= 48 &&
	       m->reader.id < m->nr_subbufs;
}

/*
 * Map the meta-page and every sub-buffer. The one-page probe stays mapped
 * until the whole mapping exists: while anything is mapped the kernel
 * refuses a resize (EBUSY), so the sizes the probe read cannot change
 * before the whole buffer is mapped. The result is checked against its
 * own meta-page all the same, and a mismatch is retried.
 */
static int map_buffer(struct tracemap *tm, const char *path)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (int tries = 0; tries < TRACEMAP_MAP_TRIES; tries++) {
		struct trace_buffer_meta *probe, *m;
		size_t len;
		int e;

		probe = mmap(NULL, page, PROT_READ, MAP_SHARED, tm->fd, 0);
		if (probe == MAP_FAILED)
			return -errno;
		if (!meta_sane(probe, page, &tm->layout)) {
			munmap(probe, page);
			return fail(
				tm, -EBADMSG,
				"%s: the meta-page makes no sense (meta_page_size %u, subbuf_size %u, nr_subbufs %u)",
				path, probe->meta_page_size, probe->subbuf_size,
				probe->nr_subbufs);
		}
		len = rb_map_len(probe->meta_page_size, probe->subbuf_size,
				 probe->nr_subbufs);
		m = mmap(NULL, len, PROT_READ, MAP_SHARED, tm->fd, 0);
		e = errno;
		munmap(probe, page);
		if (m == MAP_FAILED) {
			if (e == EINVAL)
				continue; /* resized before the probe was mapped */
			return -e;
		}
		if (rb_map_len(m->meta_page_size, m->subbuf_size,
			       m->nr_subbufs) == len &&
		    meta_sane(m, page, &tm->layout)) {
			tm->meta = m;
			tm->map_len = len;
			tm->subbuf_size = m->subbuf_size;
			return 0;
		}
		munmap(m, len);
	}
	return fail(
		tm, -EAGAIN,
		"%s: the buffer was resized during each of %d attempts to map it",
		path, TRACEMAP_MAP_TRIES);
}

/* read() mode: the sub-buffer size, from buffer_subbuf_size_kb (6.8+). */
static int read_mode_setup(struct tracemap *tm, const char *dir)
{
	char path[600], *size;
	long kb;

	if (path_of(path, sizeof(path), "%s/buffer_subbuf_size_kb", dir))
		return fail(tm, -ENAMETOOLONG, "%s: path too long", dir);
	size = slurp(path);
	if (size) {
		kb = strtol(size, NULL, 10);
		free(size);
		if (kb <= 0 || kb > 1024)
			return fail(tm, -EBADMSG, "%s: no size in it", path);
		tm->subbuf_size = (uint32_t)kb * 1024;
	} else if (errno == ENOENT) {
		tm->subbuf_size = (uint32_t)sysconf(_SC_PAGESIZE);
	} else {
		return sys_fail(tm, errno, "read", path);
	}
	tm->copy = malloc(tm->subbuf_size);
	if (!tm->copy)
		return fail(tm, -ENOMEM, "out of memory");
	tm->mode = TRACEMAP_MODE_READ;
	tm->sb.base = NULL;
	return 0;
}

/* The time stamp of mapped sub-buffer id, whatever it holds. */
static uint64_t subbuf_ts_at(const struct tracemap *tm, uint32_t id)
{
	uint64_t ts;

	memcpy(&ts,
	       (const unsigned char *)tracemap_subbuf_at(tm, id) +
		       RB_TIME_STAMP_OFFSET,
	       sizeof(ts));
	return ts;
}

/* The meta-page as our own GET_READER (or the mapping) left it. */
static void remember_meta(struct tracemap *tm)
{
	const struct trace_buffer_meta *m = tm->meta;

	tm->seen.id = __atomic_load_n(&m->reader.id, __ATOMIC_ACQUIRE);
	tm->seen.read = m->reader.read;
	tm->seen.entries = m->entries;
	tm->seen.consumed = m->read;
	tm->seen.overrun = m->overrun;
	tm->seen.stamp = subbuf_ts_at(tm, tm->seen.id);
	tm->look_returned = 0;
}

/*
 * The meta-page at our last look had every counter at 0: nothing written
 * since the last reset. A reset now would leave it as it was, so the
 * meta-page cannot tell one happened (the sub-buffers can: below).
 */
static bool meta_fresh(const struct tracemap *tm)
{
	return !tm->seen.entries && !tm->seen.consumed && !tm->seen.overrun &&
	       !tm->seen.read;
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* The newest time stamp of all the mapped sub-buffers. */
static uint64_t newest_subbuf_ts(const struct tracemap *tm)
{
	uint64_t newest = 0;

	for (uint32_t i = 0; i < tm->meta->nr_subbufs; i++) {
		uint64_t ts = subbuf_ts_at(tm, i);

		if (ts > newest)
			newest = ts;
	}
	return newest;
}

/*
 * A reset zeroes the commit of every sub-buffer and keeps their time
 * stamps (rb_clear_buffer_page() in 6.12). A sub-buffer, not ours, stamped
 * after our last look and empty now was written and then emptied by a
 * reset? (Or the writer's, stamped just before its first commit: the
 * caller looks again to rule that out.)
 */
static bool emptied_subbuf(const struct tracemap *tm)
{
	for (uint32_t i = 0; i < tm->meta->nr_subbufs; i++) {
		const unsigned char *p = tracemap_subbuf_at(tm, i);

		if (i != tm->reader_id && subbuf_ts_at(tm, i) > tm->newest_ts &&
		    !(commit_word(&tm->layout, p, true) & RB_COMMIT_MASK))
			return true;
	}
	return false;
}

/* Remember the newest stamp, to compare with at the next look. */
static void stamps_seen(struct tracemap *tm, uint64_t now)
{
	tm->newest_ts = newest_subbuf_ts(tm);
	tm->scanned_at = now;
}

/*
 * After our GET_READER from a meta-page with every counter at 0: did the
 * kernel count more events read than that call walked (the reader
 * sub-buffer up to reader.read)? Then another reader took some; a reset
 * would have zeroed the count. Its swaps zero the commit of the
 * sub-buffers it hands back: they look the way a reset leaves them.
 */
static bool others_read(const struct tracemap *tm)
{
	struct tracemap_subbuf sb;
	struct tracemap_event ev;
	uint64_t walked = 0;

	if (tracemap_subbuf_load(&sb, &tm->layout,
				 tracemap_subbuf_at(tm, tm->seen.id),
				 tm->subbuf_size, false) ||
	    tm->seen.read > sb.cap)
		return false;
	sb.commit = tm->seen.read;
	while (tracemap_subbuf_next(&sb, &ev) > 0)
		walked++;
	return tm->seen.consumed > walked;
}

/*
 * After a GET_READER that found the meta-page with every counter at 0:
 * did a reset empty sub-buffers written since the last look? Each look
 * at the stamps reads every sub-buffer's header, so while nothing is
 * written (the counters still 0) it is done at most every
 * TRACEMAP_SCAN_NS (an idle CPU of the merge is looked at often); as soon
 * as something was, at once.
 */
static bool reset_emptied(struct tracemap *tm)
{
	uint64_t now = mono_ns();
	bool fresh = meta_fresh(tm), emptied;

	if (fresh && now - tm->scanned_at < TRACEMAP_SCAN_NS)
		return false;
	/*
	 * The writer stamps a sub-buffer just before its first commit: a
	 * stamped empty one is the writer's if a commit soon follows. After a
	 * reset, the ones the writer has not refilled stay empty.
	 */
	emptied = emptied_subbuf(tm);
	for (long pause_ns = 50000; emptied;
	     pause_ns = pause_ns < 1000000 ? pause_ns * 2 : pause_ns) {
		struct timespec pause = { 0, pause_ns };

		if (mono_ns() - now >= TRACEMAP_STAMP_WAIT_NS)
			break;
		nanosleep(&pause, NULL);
		emptied = emptied_subbuf(tm);
	}
	if (fresh)
		stamps_seen(tm, now);
	return emptied;
}

/*
 * The kernel counts the events each GET_READER consumes (the meta-page's
 * read). Alone on the CPU, that count grows by exactly the events we
 * returned up to the kernel's read position; when it grew by more, another
 * reader took the rest: a second mapping whose GET_READER came between ours
 * and our look at the meta-page, or a read() of trace_pipe_raw, which does
 * not refresh the meta-page at all. Count from what the meta-page says now.
 */
static void tally_start(struct tracemap *tm)
{
	tm->tally.base = tm->seen.consumed;
	tm->tally.returned = 0;
	tm->tally.ahead = 0;
}

/* Events the kernel counted as read that we never returned (0: none). */
static uint64_t tally_taken(struct tracemap *tm)
{
	uint64_t ours = tm->tally.returned - tm->tally.ahead;

	/* events below the kernel's read position not returned yet */
	if (tm->sb.pos < tm->seen.read)
		return 0;
	if (tm->seen.consumed - tm->tally.base <= ours) {
		if (tm->seen.consumed - tm->tally.base < ours)
			tally_start(tm); /* cannot be a loss: count afresh */
		return 0;
	}
	return tm->seen.consumed - tm->tally.base - ours;
}

/* per_cpu/cpuN/stats into buf: its length, or -errno. */
static ssize_t read_stats(struct tracemap *tm, char *buf, size_t size)
{
	ssize_t n = pread(tm->stats_fd, buf, size - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

/* What follows "KEY:" on the line of buf that starts with it, or NULL. */
static const char *stats_line(const char *buf, const char *key)
{
	size_t len = strlen(key);
	const char *p = buf;

	while (strncmp(p, key, len) || p[len] != ':') {
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
	return p + len + 1;
}

/* The number on the line "KEY: N" of per_cpu/cpuN/stats, or -errno. */
static int64_t stats_value(struct tracemap *tm, const char *key)
{
	char buf[1024];
	const char *p;
	ssize_t n = read_stats(tm, buf, sizeof(buf));

	if (n < 0)
		return n;
	p = stats_line(buf, key);
	if (!p)
		return -EBADMSG;
	return strtoll(p, NULL, 10);
}

/* "dropped events: N" of per_cpu/cpuN/stats, or -errno. */
static int64_t read_dropped(struct tracemap *tm)
{
	return stats_value(tm, "dropped events");
}

/*
 * "now ts:" of per_cpu/cpuN/stats into *now: nanoseconds for a clock that
 * prints "SECONDS.MICROSECONDS" (returns 1), the plain count a counter or
 * x86-tsc clock prints (returns 0), or -1 if it cannot be read.
 */
static int stats_now_ts(struct tracemap *tm, uint64_t *now)
{
	char buf[1024], *end;
	const char *p;
	unsigned long long sec, usec;

	if (tm->stats_fd < 0 || read_stats(tm, buf, sizeof(buf)) < 0)
		return -1;
	p = stats_line(buf, "now ts");
	if (!p)
		return -1;
	sec = strtoull(p, &end, 10);
	if (*end != '.') {
		*now = sec;
		return 0;
	}
	usec = strtoull(end + 1, NULL, 10);
	*now = sec * 1000000000ULL + usec * 1000ULL;
	return 1;
}

/* The trace clock now, in its own units: the time of a loss no event dates. */
static uint64_t stats_now(struct tracemap *tm)
{
	uint64_t now;

	return stats_now_ts(tm, &now) < 0 ? 0 : now;
}

uint64_t tracemap_clock_ns(struct tracemap *tm)
{
	uint64_t now;

	return stats_now_ts(tm, &now) == 1 ? now : 0;
}

/* The time of a loss that comes with no new sub-buffer. */
static uint64_t loss_ts(struct tracemap *tm)
{
	return tm->last_ts ? tm->last_ts : stats_now(tm);
}

int tracemap_open(struct tracemap *tm, const char *tracefs,
		  const char *instance, int cpu, int flags)
{
	char dir[512], path[600];
	int r;
	int64_t d;

	memset(tm, 0, sizeof(*tm));
	tm->fd = -1;
	tm->stats_fd = -1;
	tm->overrun_before = -1;
	tm->cpu = cpu;
	tm->flags = flags;
	if (!tracefs)
		tracefs = tracemap_tracefs();
	if (!tracefs || !is_dir(tracefs)) {
		if (tracefs && access(tracefs, X_OK) && errno == EACCES)
			return sys_fail(tm, EACCES, "open", tracefs);
		return fail(
			tm, -ENOENT,
			"tracefs not found at %s (mount -t tracefs nodev /sys/kernel/tracing)",
			tracefs ? tracefs : "/sys/kernel/tracing");
	}
	if (instance && (!instance[0] || strchr(instance, '/') ||
			 !strcmp(instance, ".") || !strcmp(instance, "..")))
		return fail(tm, -EINVAL, "'%s' is not an instance name",
			    instance);
	if (instance ? path_of(dir, sizeof(dir), "%s/instances/%s", tracefs,
			       instance) :
		       path_of(dir, sizeof(dir), "%s", tracefs))
		return fail(tm, -ENAMETOOLONG, "%s: path too long", tracefs);
	if (access(dir, X_OK) && (errno == EACCES || errno == EPERM))
		return sys_fail(tm, errno, "open", dir);
	if (!is_dir(dir))
		return fail(tm, -ENOENT, "no instance '%s' in %s/instances",
			    instance, tracefs);
	if (path_of(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir,
		    cpu))
		return fail(tm, -ENAMETOOLONG, "%s: path too long", dir);
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", dir, cpu);
	if (cpu < 0 || !is_dir(path)) {
		if (access(dir, R_OK | X_OK))
			return sys_fail(tm, errno, "open", dir);
		return fail(tm, -ENODEV, "no CPU %d in %s/per_cpu", cpu, dir);
	}
	/* The layout is the kernel's (an instance's copy reads ENODEV in 6.12). */
	r = tracemap_layout_load(&tm->layout, tracefs);
	if (r)
		return fail(
			tm, r,
			"%s/events/header_page: %s (the sub-buffer header layout)",
			tracefs, strerror(-r));
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", dir, cpu);
	tm->stats_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (tm->stats_fd < 0)
		return sys_fail(tm, errno, "open", path);
	d = read_dropped(tm);
	if (d < 0) {
		r = fail(tm, (int)d, "%s: no \"dropped events\" in it", path);
		goto err;
	}
	tm->dropped = (uint64_t)d;
	tm->start_dropped = (uint64_t)d;
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir,
		 cpu);
	/* Always non-blocking: tracemap_get_reader() waits on purpose only. */
	tm->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (tm->fd < 0) {
		r = sys_fail(tm, errno, "open", path);
		goto err;
	}

	tm->mode = TRACEMAP_MODE_MMAP;
	r = map_buffer(tm, path);
	/*
	 * A process whose long is not the kernel's (32-bit on a 64-bit
	 * kernel) reaches the ioctl through compat_ioctl, which stock
	 * 6.12's trace_pipe_raw lacks (kernel-patches/0003 adds it): the
	 * mapping would be useless there. Ask with the harmless ioctl 0 (a
	 * wake-up of waiters).
	 */
	if (!r && tm->layout.commit_size != sizeof(long) &&
	    ioctl(tm->fd, 0) < 0 && errno == ENOTTY) {
		munmap(tm->meta, tm->map_len);
		tm->meta = NULL;
		r = -ENOTTY;
	}
	if (r == -EBUSY || r == -ENODEV || r == -ENOTTY) {
		static const char *const why[] = {
			"a snapshot is armed on this buffer",
			"this kernel cannot map the ring buffer: needs Linux 6.10+, and not a boot-mapped instance",
			"this kernel has no GET_READER for 32-bit processes (no compat_ioctl)",
		};
		const char *reason = why[r == -EBUSY  ? 0 :
					 r == -ENODEV ? 1 :
							2];

		if (flags & TRACEMAP_FALLBACK_READ) {
			r = read_mode_setup(tm, dir);
			if (r)
				goto err;
			msg(tm->notice, sizeof(tm->notice),
			    "mmap %s: %s; reading it with read()", path,
			    reason);
			return 0;
		}
		r = fail(tm, r == -EBUSY ? -EBUSY : -EOPNOTSUPP,
			 "mmap %s: %s (%s)", path, strerror(-r), reason);
		goto err;
	}
	if (r == -EINVAL && !cpu_online(cpu)) {
		r = fail(tm, -ENXIO, "mmap %s: cpu%d is not online", path, cpu);
		goto err;
	}
	if (r) {
		if (!tm->err[0])
			sys_fail(tm, -r, "mmap", path);
		goto err;
	}
	/* Start where earlier read()s of trace_pipe_raw left the reader page. */
	remember_meta(tm);
	tm->reader_id = tm->seen.id;
	r = tracemap_subbuf_load(&tm->sb, &tm->layout,
				 tracemap_subbuf_at(tm, tm->reader_id),
				 tm->subbuf_size, true);
	if (r) {
		r = fail(tm, r, "%s: reader sub-buffer %u: commit past its end",
			 path, tm->reader_id);
		goto err;
	}
	tm->sb.resume_at = tm->seen.read;
	tm->sb.missed = 0; /* reported by the swap that loaded it, not now */
	tally_start(tm);
	stamps_seen(tm, mono_ns());
	return 0;
err:
	tracemap_close(tm);
	return r;
}

void tracemap_close(struct tracemap *tm)
{
	if (tm->meta)
		munmap(tm->meta, tm->map_len);
	if (tm->fd >= 0)
		close(tm->fd);
	if (tm->stats_fd >= 0)
		close(tm->stats_fd);
	free(tm->copy);
	tm->copy = NULL;
	tm->meta = NULL;
	tm->fd = -1;
	tm->stats_fd = -1;
}

/* --- one CPU: read ----------------------------------------------------- */

/*
 * Someone else moved the meta-page since our last GET_READER: a reset
 * (the kernel refreshes the meta-page with everything at 0) or another
 * reader's GET_READER. TRACEMAP_LOSS_NONE when it did not move.
 */
static enum tracemap_loss meta_moved(const struct tracemap *tm)
{
	const struct trace_buffer_meta *m = tm->meta;
	uint32_t id = __atomic_load_n(&m->reader.id, __ATOMIC_ACQUIRE);

	if (id == tm->seen.id && m->reader.read == tm->seen.read &&
	    m->entries == tm->seen.entries && m->read == tm->seen.consumed &&
	    m->overrun == tm->seen.overrun)
		return TRACEMAP_LOSS_NONE;
	if (m->reader.read == 0 && m->entries == 0 && m->read == 0 &&
	    m->overrun == 0)
		return TRACEMAP_LOSS_RESET;
	return TRACEMAP_LOSS_OTHER_READER;
}

/* What a live sub-buffer whose commit went backwards means. */
static enum tracemap_loss why_stale(const struct tracemap *tm)
{
	enum tracemap_loss l = meta_moved(tm);

	/* Reset: the kernel zeroes the reader page's commit, keeps its ID. */
	return l != TRACEMAP_LOSS_NONE ? l : TRACEMAP_LOSS_OTHER_READER;
}

/*
 * Events of our sub-buffer that our own GET_READER counted as read and we
 * have not returned: ours to return even after another reader's GET_READER
 * moved the meta-page (its count of what we took includes them).
 */
static bool claimed_left(const struct tracemap *tm)
{
	return tm->reader_id == tm->seen.id && tm->sb.pos < tm->seen.read &&
	       tm->sb.resume_at < tm->seen.read;
}

/*
 * Another reader's GET_READER swapped our sub-buffer out, zeroing its
 * commit: the events our GET_READER claimed are still in it until the
 * writer comes round to it again and stamps it, right after writing the
 * header of its first event: a read of that record in between is not
 * caught. Read on up to the claim, with the commit as it was. False once
 * the writer is back.
 */
static bool detach(struct tracemap *tm)
{
	if (!claimed_left(tm) ||
	    subbuf_ts_at(tm, tm->reader_id) != tm->seen.stamp)
		return false;
	tm->sb.live = false;
	tm->sb.commit = tm->seen.read;
	tm->detached = true;
	return true;
}

int tracemap_next(struct tracemap *tm, struct tracemap_event *ev)
{
	int r;

	if (!tm->sb.base)
		return 0;
	/* A reset or another reader: stop here, get_reader re-synchronises. */
	if (tm->mode == TRACEMAP_MODE_MMAP && !tm->pending)
		tm->pending = meta_moved(tm);
	if (tm->pending &&
	    !(tm->pending == TRACEMAP_LOSS_OTHER_READER && claimed_left(tm)))
		return 0;
	r = tracemap_subbuf_next(&tm->sb, ev);
	if (r == -ESTALE && tm->mode == TRACEMAP_MODE_MMAP &&
	    why_stale(tm) == TRACEMAP_LOSS_OTHER_READER && detach(tm))
		r = tracemap_subbuf_next(&tm->sb, ev);
	if (r > 0 && tm->detached &&
	    (__atomic_thread_fence(__ATOMIC_ACQUIRE),
	     subbuf_ts_at(tm, tm->reader_id) != tm->seen.stamp)) {
		/* the writer is back on it: that event may be its */
		tm->sb.pos = tm->sb.commit;
		return 0;
	}
	if (r > 0) {
		tm->last_ts = ev->ts;
		tm->look_returned++;
		tm->tally.returned++;
		tm->tally.ahead += tm->sb.pos > tm->seen.read;
	}
	if (r >= 0)
		return r;
	if (tm->mode == TRACEMAP_MODE_MMAP) {
		uint64_t ts;

		memcpy(&ts, tm->sb.base + RB_TIME_STAMP_OFFSET, sizeof(ts));
		if (r == -ESTALE) {
			tm->pending = why_stale(tm);
			return 0;
		}
		/* The page went back to the writer under us: not corruption. */
		if (meta_moved(tm) != TRACEMAP_LOSS_NONE ||
		    (tm->page_ts && ts != tm->page_ts)) {
			tm->pending = why_stale(tm);
			return 0;
		}
	}
	return fail(tm, r, "cpu%d: sub-buffer %u: bad record at byte %u",
		    tm->cpu, tm->reader_id, tm->sb.pos);
}

/* Put the cursor on mapped sub-buffer id, from byte resume_at. */
static int load_reader(struct tracemap *tm, uint32_t id, uint32_t resume_at)
{
	int r;

	if (id >= tm->meta->nr_subbufs)
		return fail(tm, -EBADMSG, "cpu%d: reader id %u out of range",
			    tm->cpu, id);
	tm->reader_id = id;
	tm->detached = false;
	r = tracemap_subbuf_load(&tm->sb, &tm->layout,
				 tracemap_subbuf_at(tm, id), tm->subbuf_size,
				 true);
	if (r)
		return fail(tm, r, "cpu%d: sub-buffer %u: commit past its end",
			    tm->cpu, id);
	tm->sb.resume_at = resume_at;
	/* zeroed by another reader's swap since our GET_READER? */
	if (tm->sb.commit < tm->seen.read &&
	    why_stale(tm) == TRACEMAP_LOSS_OTHER_READER)
		detach(tm);
	tm->page_ts = tm->sb.commit ? tm->sb.ts : 0;
	return 0;
}

/*
 * A reset or another reader moved the buffer under us: take the reader
 * sub-buffer and position the meta-page gives now, say what happened, and
 * forget the bases of the loss counts.
 */
static int resync(struct tracemap *tm, enum tracemap_loss why,
		  struct tracemap_reader *rd)
{
	const struct trace_buffer_meta *m = tm->meta;
	/* unread at our last look (the kernel's count), and not returned */
	uint64_t held = tm->seen.entries - tm->seen.overrun - tm->seen.consumed;
	int r;

	rd->ts = loss_ts(tm);
	if (why == TRACEMAP_LOSS_RESET && held > tm->look_returned &&
	    held <= tm->seen.entries) {
		rd->source = TRACEMAP_SRC_LAST_LOOK;
		rd->count = held - tm->look_returned;
		fail(tm, 0,
		     "cpu%d: the buffer was reset (echo > trace, or a trace_clock change): at least %llu events it held are gone",
		     tm->cpu, (unsigned long long)rd->count);
	} else if (why == TRACEMAP_LOSS_RESET) {
		fail(tm, 0,
		     "cpu%d: the buffer was reset (echo > trace, or a trace_clock change): the events it held are gone, how many is not known",
		     tm->cpu);
	} else {
		/*
		 * The other GET_READER counted as read (the meta-page's read)
		 * every event it passed: the rest of our sub-buffer and those
		 * it took whole. Those we did not return are our loss. Events
		 * we returned past the kernel's read position are not in its
		 * count while the reader sub-buffer is still ours.
		 */
		uint64_t grown = m->read - tm->tally.base;
		uint64_t ours = tm->tally.returned;

		if (__atomic_load_n(&m->reader.id, __ATOMIC_ACQUIRE) ==
			    tm->reader_id &&
		    tm->sb.pos > m->reader.read)
			ours -= tm->tally.ahead;
		rd->source = TRACEMAP_SRC_READ_COUNT;
		rd->count = grown > ours ? grown - ours : 0;
		fail(tm, 0,
		     "another reader is consuming cpu%d: it took %llu events, lost here (its GET_READER moved the meta-page)",
		     tm->cpu, (unsigned long long)rd->count);
	}
	rd->loss = why;
	remember_meta(tm);
	tally_start(tm);
	stamps_seen(tm, mono_ns());
	r = load_reader(tm, tm->seen.id, m->reader.read);
	if (r)
		return r;
	tm->sb.missed = 0;
	tm->swap_overrun_known = false;
	tm->pending = TRACEMAP_LOSS_NONE;
	return 0;
}

/* Why subbuf_loss() could not count a loss, into tracemap_error(). */
static void unknown_why(struct tracemap *tm, bool settled)
{
	const char *no =
		"events lost, how many is not known: no count in the sub-buffer or the meta-page, and";

	if (tm->overrun_before < 0)
		fail(tm, 0,
		     "cpu%d: %s the overrun was not read before the GET_READER (per_cpu/cpu%d/stats is read only after such a loss, or could not be read)",
		     tm->cpu, no, tm->cpu);
	else if (!tm->swap_overrun_known)
		fail(tm, 0, "cpu%d: %s no overrun known at an earlier swap",
		     tm->cpu, no);
	else if (!settled)
		fail(tm, 0,
		     "cpu%d: %s the overrun moved between the stats read and the end of the GET_READER (%llu at the last swap, %lld before this one, %llu after it)",
		     tm->cpu, no, (unsigned long long)tm->swap_overrun,
		     (long long)tm->overrun_before,
		     (unsigned long long)tm->meta->overrun);
	else
		fail(tm, 0,
		     "cpu%d: %s the overrun did not grow since the last swap (%llu then, %llu now)",
		     tm->cpu, no, (unsigned long long)tm->swap_overrun,
		     (unsigned long long)tm->meta->overrun);
}

/*
 * The loss announced with a new mapped sub-buffer, best source first.
 * Without a count in the sub-buffer or the meta-page, it is the kernel's
 * overrun at this swap less its overrun at our last swap. The kernel copies
 * the counter into the meta-page at the end of the ioctl, and the writer
 * (on the buffer's CPU, taking no lock) can overwrite more sub-buffers after
 * the swap: the meta-page's overrun is known to be the one at the swap when
 * per_cpu/cpuN/stats gave the same just before the GET_READER
 * (overrun_before; read once such a loss was seen). A count needs two such
 * swaps: the last and this one.
 */
static void subbuf_loss(struct tracemap *tm, struct tracemap_reader *rd)
{
	const struct trace_buffer_meta *m = tm->meta;
	uint64_t meta_lost = m->reader.lost_events;
	bool settled = tm->overrun_before >= 0 &&
		       (uint64_t)tm->overrun_before == m->overrun;

	if (rd->loss != TRACEMAP_LOSS_NONE) {
		/* a reset or another reader: counts from before it are void */
	} else if (tm->sb.missed > 0) {
		rd->loss = TRACEMAP_LOSS_COUNTED;
		rd->source = TRACEMAP_SRC_SUBBUF;
		rd->count = (uint64_t)tm->sb.missed;
	} else if (meta_lost) {
		/* kernel-patches/0001; also a commit overrun, not flagged */
		rd->loss = TRACEMAP_LOSS_COUNTED;
		rd->source = TRACEMAP_SRC_META;
		rd->count = meta_lost;
	} else if (tm->sb.missed == TRACEMAP_MISSED_UNKNOWN) {
		if (tm->swap_overrun_known && settled &&
		    m->overrun > tm->swap_overrun) {
			rd->loss = TRACEMAP_LOSS_COUNTED;
			rd->source = TRACEMAP_SRC_OVERRUN;
			rd->count = m->overrun - tm->swap_overrun;
		} else {
			rd->loss = TRACEMAP_LOSS_UNKNOWN;
			unknown_why(tm, settled);
			tm->watch_overrun = true;
		}
	}
	/*
	 * Not carried from the last swap by the count: a commit overrun, a
	 * reset in a waiting GET_READER or a swap we did not see can grow
	 * overrun without a count on our sub-buffer.
	 */
	tm->swap_overrun = m->overrun;
	tm->swap_overrun_known = settled;
}

/* Events dropped (overwrite off) since the last look, into rd. */
static int check_dropped(struct tracemap *tm, struct tracemap_reader *rd)
{
	int64_t d = read_dropped(tm);

	if (d < 0)
		return fail(tm, (int)d,
			    "cpu%d: per_cpu/cpu%d/stats: no \"dropped events\"",
			    tm->cpu, tm->cpu);
	if ((uint64_t)d <= tm->dropped) {
		tm->dropped = (uint64_t)d; /* a reset takes it back to 0 */
	} else if (rd->loss == TRACEMAP_LOSS_NONE) {
		rd->loss = TRACEMAP_LOSS_DROPPED;
		rd->source = TRACEMAP_SRC_STATS;
		rd->count = (uint64_t)d - tm->dropped;
		tm->dropped = (uint64_t)d;
	} /* else: reported by the next call */
	return 0;
}

/* Should this call wait? Once after a call that found nothing. */
static bool should_wait(struct tracemap *tm)
{
	if ((tm->flags & TRACEMAP_NONBLOCK) || !tm->drained)
		return false;
	/* A wake that came before we got here: do not wait for the next. */
	if (__atomic_exchange_n(&tm->wake, 0, __ATOMIC_ACQ_REL))
		return false;
	return true;
}

/* ioctl or read on the fd, blocking for this one call if wait. */
static int blocking(struct tracemap *tm, bool wait,
		    int (*op)(struct tracemap *))
{
	int fl = 0, r, e;

	if (wait) {
		fl = fcntl(tm->fd, F_GETFL);
		if (fl < 0 || fcntl(tm->fd, F_SETFL, fl & ~O_NONBLOCK))
			return -errno;
	}
	r = op(tm);
	e = errno;
	if (wait && fcntl(tm->fd, F_SETFL, fl))
		return -errno;
	errno = e;
	return r;
}

static int op_get_reader(struct tracemap *tm)
{
	return ioctl(tm->fd, TRACE_MMAP_IOCTL_GET_READER);
}

static int op_read(struct tracemap *tm)
{
	ssize_t n = read(tm->fd, tm->copy, tm->subbuf_size);

	if (n >= 0 && n != (ssize_t)tm->subbuf_size && n != 0) {
		errno = EBADMSG;
		return -1;
	}
	return (int)(n > 0);
}

static int get_reader_read(struct tracemap *tm, struct tracemap_reader *rd)
{
	int r = blocking(tm, should_wait(tm), op_read);

	if (r < 0 && errno == EAGAIN)
		r = 0;
	if (r < 0) {
		if (errno == EINTR)
			return fail(tm, -EINTR, "read cpu%d: interrupted",
				    tm->cpu);
		if (errno == EBADMSG)
			return fail(
				tm, -EBADMSG,
				"read cpu%d: part of a sub-buffer of %u bytes",
				tm->cpu, tm->subbuf_size);
		return fail(tm, -errno, "read cpu%d: %s", tm->cpu,
			    strerror(errno));
	}
	if (r == 0)
		return check_dropped(tm, rd);
	r = tracemap_subbuf_load(&tm->sb, &tm->layout, tm->copy,
				 tm->subbuf_size, false);
	if (r)
		return fail(tm, r,
			    "cpu%d: sub-buffer %llu: commit past its end",
			    tm->cpu, (unsigned long long)tm->seq);
	rd->new_subbuf = true;
	rd->id = (uint32_t)tm->seq++;
	rd->ts = tm->sb.ts;
	if (tm->sb.missed > 0) {
		rd->loss = TRACEMAP_LOSS_COUNTED;
		rd->source = TRACEMAP_SRC_SUBBUF;
		rd->count = (uint64_t)tm->sb.missed;
	} else if (tm->sb.missed == TRACEMAP_MISSED_UNKNOWN) {
		rd->loss = TRACEMAP_LOSS_UNKNOWN;
		fail(tm, 0,
		     "cpu%d: events lost, how many is not known: the sub-buffer had no room for the count",
		     tm->cpu);
	}
	return 1;
}

static int get_reader_mmap(struct tracemap *tm, struct tracemap_reader *rd)
{
	const struct trace_buffer_meta *m = tm->meta;
	enum tracemap_loss moved = tm->pending ? tm->pending : meta_moved(tm);
	bool wait = should_wait(tm);
	int tries = 0, r;
	bool fresh = false;
	uint32_t id, read;
	uint64_t taken;

	if (moved != TRACEMAP_LOSS_NONE) {
		r = resync(tm, moved, rd);
		if (r)
			return r;
		wait = false; /* one more GET_READER, at once */
	} else {
		fresh = meta_fresh(tm);
	}
again:
	taken = tally_taken(tm);
	if (taken && rd->loss == TRACEMAP_LOSS_NONE) {
		/* say so before the next GET_READER; the caller calls again */
		fail(tm, 0,
		     "another reader is consuming cpu%d: it took %llu events, lost here",
		     tm->cpu, (unsigned long long)taken);
		rd->ts = loss_ts(tm);
		rd->loss = TRACEMAP_LOSS_OTHER_READER;
		rd->source = TRACEMAP_SRC_READ_COUNT;
		rd->count = taken;
		tm->tally.base += taken;
		/* its swaps moved the kernel's overrun: no settled swap now */
		tm->swap_overrun_known = false;
		return 1;
	}
	read = m->reader.read;
	tm->overrun_before = tm->watch_overrun ? stats_value(tm, "overrun") :
						 -1;
	if (blocking(tm, wait, op_get_reader) < 0) {
		if (errno == EINTR)
			return fail(tm, -EINTR, "GET_READER cpu%d: interrupted",
				    tm->cpu);
		return fail(tm, -errno, "GET_READER cpu%d: %s", tm->cpu,
			    strerror(errno));
	}
	wait = false;
	remember_meta(tm);
	tm->tally.ahead = 0; /* the kernel's read position is past our cursor */
	if (fresh && rd->loss == TRACEMAP_LOSS_NONE && reset_emptied(tm) &&
	    !others_read(tm)) {
		fail(tm, 0,
		     "cpu%d: the buffer was reset (echo > trace, or a trace_clock change) before these events were read: the events written since the last look are gone, how many is not known",
		     tm->cpu);
		rd->loss = TRACEMAP_LOSS_RESET;
		rd->ts = loss_ts(tm);
	}
	fresh = false;
	id = tm->seen.id;
	if (id == tm->reader_id) {
		/*
		 * Same page: the kernel only moved reader.read to what it
		 * assumes we consumed. Events appended after we last looked
		 * are still there: keep our own position.
		 */
		struct tracemap_event ev;
		struct tracemap_subbuf probe = tm->sb;

		r = tracemap_subbuf_next(&probe, &ev);
		if (r == -ESTALE && rd->loss == TRACEMAP_LOSS_NONE) {
			r = resync(tm, why_stale(tm), rd);
			if (r)
				return r;
			goto again;
		}
		if (r != 0)
			return 1; /* more events, or a bad one for next() */
		/*
		 * We had read those events live already. A call that only
		 * moves reader.read does not swap, even when other
		 * sub-buffers are full: ask once more.
		 */
		if (m->reader.read != read && !tries++)
			goto again;
		return check_dropped(tm, rd);
	}
	r = load_reader(tm, id, 0);
	if (r)
		return r;
	rd->new_subbuf = true;
	rd->id = id;
	rd->ts = tm->sb.ts;
	subbuf_loss(tm, rd);
	return 1;
}

int tracemap_get_reader(struct tracemap *tm, struct tracemap_reader *rd)
{
	struct tracemap_reader ignored;
	int r;

	if (!rd)
		rd = &ignored;
	memset(rd, 0, sizeof(*rd));
	rd->id = tm->reader_id;
	if (tm->fd < 0)
		return fail(tm, -EBADF, "cpu%d: not open", tm->cpu);
	if (tm->hook) {
		r = tm->hook(tm->hook_arg, tm, NULL);
		if (r < 0)
			return r;
	}
	if (tm->start_dropped) {
		/* dropped (overwrite off) before the open: first of all */
		fail(tm, 0,
		     "cpu%d: %llu events dropped before the start (per_cpu/cpu%d/stats, since the last reset)",
		     tm->cpu, (unsigned long long)tm->start_dropped, tm->cpu);
		rd->loss = TRACEMAP_LOSS_DROPPED;
		rd->source = TRACEMAP_SRC_STATS;
		rd->count = tm->start_dropped;
		rd->ts = stats_now(tm);
		tm->start_dropped = 0;
		r = 1;
		goto found;
	}
	if (tm->mode == TRACEMAP_MODE_READ)
		r = get_reader_read(tm, rd);
	else
		r = get_reader_mmap(tm, rd);
	if (r < 0)
		return r;
	tm->drained = r == 0;
found:
	if (tm->hook) {
		int h = tm->hook(tm->hook_arg, tm, rd);

		if (h < 0)
			return h;
	}
	return r;
}

void tracemap_set_hook(struct tracemap *tm, tracemap_hook hook, void *arg)
{
	tm->hook = hook;
	tm->hook_arg = arg;
}

int tracemap_read(struct tracemap *tm, struct tracemap_item *it)
{
	memset(it, 0, sizeof(*it));
	if (tm->deferred) {
		int r = tm->deferred;

		tm->deferred = 0;
		return r;
	}
	/* a few rounds: "maybe more" from GET_READER can find nothing */
	for (int tries = 0; tries < 4; tries++) {
		int r = tracemap_next(tm, &it->ev);

		if (r)
			return r;
		r = tracemap_get_reader(tm, &it->loss);
		it->new_subbuf |= it->loss.new_subbuf;
		if (it->loss.loss != TRACEMAP_LOSS_NONE) {
			it->is_loss = true;
			tm->deferred = r < 0 ? r : 0;
			return 1;
		}
		if (r <= 0)
			return r;
	}
	return 0;
}

int tracemap_wake(struct tracemap *tm)
{
	__atomic_add_fetch(&tm->wake, 1, __ATOMIC_ACQ_REL);
	if (ioctl(tm->fd, 0) < 0)
		return fail(tm, -errno, "wake cpu%d: %s", tm->cpu,
			    strerror(errno));
	return 0;
}

const char *tracemap_error(const struct tracemap *tm)
{
	return tm->err;
}

const char *tracemap_notice(const struct tracemap *tm)
{
	return tm->notice;
}

enum tracemap_mode tracemap_mode(const struct tracemap *tm)
{
	return tm->mode;
}

int tracemap_fd(const struct tracemap *tm)
{
	return tm->fd;
}

int tracemap_cpu(const struct tracemap *tm)
{
	return tm->cpu;
}

uint32_t tracemap_subbuf_size(const struct tracemap *tm)
{
	return tm->subbuf_size;
}

const void *tracemap_subbuf_at(const struct tracemap *tm, uint32_t id)
{
	const struct trace_buffer_meta *m = tracemap_meta(tm);

	if (!m || id >= m->nr_subbufs)
		return NULL;
	return (const unsigned char *)m +
	       rb_subbuf_offset(m->meta_page_size, m->subbuf_size, id);
}

const struct trace_buffer_meta *tracemap_meta(const struct tracemap *tm)
{
	return tm->mode == TRACEMAP_MODE_MMAP ? tm->meta : NULL;
}

const char *tracemap_loss_name(enum tracemap_loss loss)
{
	static const char *const names[] = {
		[TRACEMAP_LOSS_NONE] = "none",
		[TRACEMAP_LOSS_COUNTED] = "counted",
		[TRACEMAP_LOSS_UNKNOWN] = "unknown",
		[TRACEMAP_LOSS_DROPPED] = "dropped",
		[TRACEMAP_LOSS_RESET] = "reset",
		[TRACEMAP_LOSS_OTHER_READER] = "other reader",
	};

	if ((unsigned int)loss < sizeof(names) / sizeof(names[0]))
		return names[loss];
	return "?";
}

/* --- event formats ----------------------------------------------------- */

/* "\tfield:..." (not "print fmt: ..." that may say "offset:" too) */
static bool is_field_line(const char *line, const char *end)
{
	while (line < end && (*line == ' ' || *line == '\t'))
		line++;
	return end - line >= 6 && !memcmp(line, "field:", 6);
}

int tracemap_format_parse(struct tracemap_format *f, const char *system,
			  const char *text)
{
	int cap = 0, r = 0;

	memset(f, 0, sizeof(*f));
	f->id = -1;
	if (!copy_trim(f->system, sizeof(f->system), system,
		       system + strlen(system)))
		return -EBADMSG;
	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');

		if (!end)
			end = line + strlen(line);
		if (!strncmp(line, "name: ", 6)) {
			if (!copy_trim(f->name, sizeof(f->name), line + 6, end))
				r = -EBADMSG;
		} else if (!strncmp(line, "ID: ", 4)) {
			long id = number_after(line, end, "ID: ");

			/* common_type, the ID in every record, is 16 bits */
			if (id < 0 || id > TRACEMAP_ID_MAX)
				r = -EBADMSG;
			f->id = (int)(r ? -1 : id);
		} else if (is_field_line(line, end)) {
			if (f->nr_fields == cap) {
				struct tracemap_field *n;

				cap = cap ? 2 * cap : 8;
				n = realloc(f->fields,
					    (size_t)cap * sizeof(*n));
				if (!n) {
					r = -ENOMEM;
					break;
				}
				f->fields = n;
			}
			r = parse_field(&f->fields[f->nr_fields], line, end);
			if (r)
				break;
			f->nr_fields++;
		}
		if (r)
			break;
		line = *end ? end + 1 : end;
	}
	if (!r && (f->id < 0 || !f->name[0]))
		r = -EBADMSG;
	if (r) {
		free(f->fields);
		f->fields = NULL;
		f->nr_fields = 0;
	}
	return r;
}

/* Count a format file that could not be used; describe the first. */
static void format_failed(struct tracemap_formats *fs, const char *path, int e)
{
	if (!fs->failed++)
		msg(fs->err, sizeof(fs->err), "%s: %s", path, strerror(e));
}

static int cmp_id(const void *a, const void *b)
{
	const struct tracemap_format *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Sort by ID and build the ID -> format index. */
static int index_formats(struct tracemap_formats *fs)
{
	if (!fs->n)
		return 0;
	qsort(fs->v, fs->n, sizeof(*fs->v), cmp_id);
	fs->nr_ids = (uint32_t)fs->v[fs->n - 1].id + 1;
	fs->by_id = calloc(fs->nr_ids, sizeof(*fs->by_id));
	if (!fs->by_id)
		return -ENOMEM;
	for (size_t i = 0; i < fs->n; i++)
		fs->by_id[fs->v[i].id] = (uint32_t)i + 1;
	return 0;
}

/* Add the formats of one system directory. 0 or -ENOMEM. */
static int load_system(struct tracemap_formats *fs, size_t *cap,
		       const char *dir, const char *system)
{
	char path[1024];
	struct dirent *e;
	DIR *sys;
	int r = 0;

	if (path_of(path, sizeof(path), "%s/events/%s", dir, system)) {
		format_failed(fs, dir, ENAMETOOLONG);
		return 0;
	}
	sys = opendir(path);
	if (!sys) {
		if (errno != ENOTDIR) /* header_page, enable, ... */
			format_failed(fs, path, errno);
		return 0;
	}
	while (!r && (e = readdir(sys))) {
		struct tracemap_format f;
		char *text;

		if (e->d_name[0] == '.')
			continue;
		if (path_of(path, sizeof(path), "%s/events/%s/%s/format", dir,
			    system, e->d_name)) {
			format_failed(fs, dir, ENAMETOOLONG);
			continue;
		}
		text = slurp(path);
		if (!text) {
			if (errno == ENOMEM)
				r = -ENOMEM;
			else if (errno != ENOTDIR && errno != ENOENT)
				format_failed(fs, path, errno);
			continue;
		}
		r = tracemap_format_parse(&f, system, text);
		free(text);
		if (r == -ENOMEM)
			break;
		if (r) {
			format_failed(fs, path, -r);
			r = 0;
			continue;
		}
		if (fs->n == *cap) {
			size_t c = *cap ? 2 * *cap : 64;
			struct tracemap_format *v =
				realloc(fs->v, c * sizeof(*v));

			if (!v) {
				free(f.fields);
				r = -ENOMEM;
				break;
			}
			fs->v = v;
			*cap = c;
		}
		fs->v[fs->n++] = f;
	}
	closedir(sys);
	return r;
}

int tracemap_formats_load(struct tracemap_formats *fs, const char *dir)
{
	char path[1024];
	struct dirent *s;
	size_t cap = 0;
	DIR *top;
	int r = 0;

	memset(fs, 0, sizeof(*fs));
	if (path_of(path, sizeof(path), "%s/events", dir)) {
		msg(fs->err, sizeof(fs->err), "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	top = opendir(path);
	if (!top) {
		r = -errno;
		msg(fs->err, sizeof(fs->err), "%s: %s", path, strerror(errno));
		return r;
	}
	while (!r && (s = readdir(top)))
		if (s->d_name[0] != '.')
			r = load_system(fs, &cap, dir, s->d_name);
	closedir(top);
	if (!r)
		r = index_formats(fs);
	if (r) {
		tracemap_formats_free(fs);
		msg(fs->err, sizeof(fs->err), "%s: %s", path, strerror(-r));
		return r;
	}
	return (int)fs->n;
}

const struct tracemap_format *
tracemap_formats_find(const struct tracemap_formats *fs, int id)
{
	if (id < 0 || (uint32_t)id >= fs->nr_ids || !fs->by_id[id])
		return NULL;
	return &fs->v[fs->by_id[id] - 1];
}

const struct tracemap_format *
tracemap_formats_find_name(const struct tracemap_formats *fs,
			   const char *system, const char *name)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].name, name) &&
		    !strcmp(fs->v[i].system, system))
			return &fs->v[i];
	return NULL;
}

const struct tracemap_field *
tracemap_format_field(const struct tracemap_format *f, const char *name)
{
	for (int i = 0; i < f->nr_fields; i++)
		if (!strcmp(f->fields[i].name, name))
			return &f->fields[i];
	return NULL;
}

size_t tracemap_formats_count(const struct tracemap_formats *fs)
{
	return fs->n;
}

const struct tracemap_format *
tracemap_formats_at(const struct tracemap_formats *fs, size_t idx)
{
	return idx < fs->n ? &fs->v[idx] : NULL;
}

int tracemap_formats_failed(const struct tracemap_formats *fs)
{
	return fs->failed;
}

const char *tracemap_formats_error(const struct tracemap_formats *fs)
{
	return fs->err;
}

void tracemap_formats_free(struct tracemap_formats *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->v[i].fields);
	free(fs->v);
	free(fs->by_id);
	fs->v = NULL;
	fs->by_id = NULL;
	fs->n = 0;
	fs->nr_ids = 0;
}

int tracemap_event_type(const struct tracemap_event *ev)
{
	uint16_t t;

	if (ev->size < sizeof(t))
		return -EBADMSG;
	memcpy(&t, ev->data, sizeof(t));
	return t;
}

int tracemap_field_value(const struct tracemap_field *fl,
			 const struct tracemap_event *ev, uint64_t *val)
{
	const unsigned char *p = (const unsigned char *)ev->data + fl->offset;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u;

	if (fl->array ||
	    (fl->size != 1 && fl->size != 2 && fl->size != 4 && fl->size != 8))
		return -EINVAL;
	if ((uint64_t)fl->offset + fl->size > ev->size)
		return -EBADMSG;
	switch (fl->size) {
	case 1:
		memcpy(&u8, p, 1);
		u = u8;
		break;
	case 2:
		memcpy(&u16, p, 2);
		u = u16;
		break;
	case 4:
		memcpy(&u32, p, 4);
		u = u32;
		break;
	default:
		memcpy(&u, p, 8);
		break;
	}
	if (fl->size < 8 && fl->is_signed && (u >> (fl->size * 8 - 1)))
		u |= ~0ULL << (fl->size * 8);
	*val = u;
	return 0;
}

int tracemap_field_bytes(const struct tracemap_field *fl,
			 const struct tracemap_event *ev, const void **data,
			 uint32_t *len)
{
	const unsigned char *d = ev->data;
	uint64_t off = fl->offset, size = fl->size;

	if (!fl->array)
		return -EINVAL;
	if (fl->array < 0) {
		/* u32 (length << 16 | offset); __rel_loc: from the field's end */
		uint32_t loc;

		if (fl->size != 4 || (uint64_t)fl->offset + 4 > ev->size)
			return -EBADMSG;
		loc = get_u32(d + fl->offset);
		off = loc & 0xffff;
		if (fl->array == TRACEMAP_ARRAY_REL_LOC)
			off += fl->offset + 4;
		size = loc >> 16;
	}
	if (off + size > ev->size)
		return -EBADMSG;
	*data = d + off;
	*len = (uint32_t)size;
	return 0;
}

/* A growing output string that counts what it would need, like snprintf. */
struct out {
	char *buf;
	size_t len, used;
};

static void put(struct out *o, const char *fmt, ...)
{
	size_t room = o->used < o->len ? o->len - o->used : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->used : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->used += (size_t)n;
}

/* Bytes up to the first NUL (or n), escaping what is not printable. */
static void put_str(struct out *o, const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\' && s[i] != '"')
			put(o, "%c", s[i]);
		else
			put(o, "\\x%02x", s[i]);
	}
}

int tracemap_format_payload(const struct tracemap_format *f,
			    const struct tracemap_event *ev, char *buf,
			    size_t len)
{
	struct out o = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	if (!strcmp(f->system, "ftrace") && !strcmp(f->name, "print")) {
		const struct tracemap_field *fl =
			tracemap_format_field(f, "buf");

		if (fl && fl->offset <= ev->size) {
			const unsigned char *s =
				(const unsigned char *)ev->data + fl->offset;
			size_t n =
				strnlen((const char *)s, ev->size - fl->offset);

			/* trace_marker appends one newline; drop it. */
			if (n && s[n - 1] == '\n')
				n--;
			put_str(&o, s, n);
			return (int)o.used;
		}
	}
	for (int i = 0; i < f->nr_fields; i++) {
		const struct tracemap_field *fl = &f->fields[i];
		const unsigned char *p;
		const void *data;
		uint32_t size;
		uint64_t u;

		if (!strncmp(fl->name, "common_", 7))
			continue;
		put(&o, "%s%s=", o.used ? " " : "", fl->name);
		if (fl->array) {
			if (tracemap_field_bytes(fl, ev, &data, &size)) {
				put(&o, "?");
			} else if (strstr(fl->type, "char")) {
				put(&o, "\"");
				put_str(&o, data, size);
				put(&o, "\"");
			} else {
				p = data;
				for (uint32_t j = 0; j < size; j++)
					put(&o, "%s%02x", j ? "" : "0x", p[j]);
			}
		} else if (tracemap_field_value(fl, ev, &u) == -EINVAL) {
			/* an odd-sized scalar: its bytes */
			if ((uint64_t)fl->offset + fl->size > ev->size) {
				put(&o, "?");
				continue;
			}
			p = (const unsigned char *)ev->data + fl->offset;
			for (uint32_t j = 0; j < fl->size; j++)
				put(&o, "%s%02x", j ? "" : "0x", p[j]);
		} else if ((uint64_t)fl->offset + fl->size > ev->size) {
			put(&o, "?");
		} else if (strchr(fl->type, '*')) {
			put(&o, "0x%llx", (unsigned long long)u);
		} else if (fl->is_signed) {
			put(&o, "%lld", (long long)(int64_t)u);
		} else {
			put(&o, "%llu", (unsigned long long)u);
		}
	}
	return (int)o.used;
}
