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

#include "tracemap.h"

/* Record types (type_len of the event header) and commit-word flags. */
enum {
	TM_TYPE_DATA_MAX = 28,
	TM_TYPE_PADDING = 29,
	TM_TYPE_TIME_EXTEND = 30,
	TM_TYPE_TIME_STAMP = 31,
};
#define TM_TS_SHIFT 27
#define TM_TS_MSB (0x1fULL << 59) /* bits an absolute time stamp lacks */
#define TM_MISSED_EVENTS (1U << 31)
#define TM_MISSED_STORED (1U << 30)
#define TM_COMMIT_MASK (TM_MISSED_STORED - 1)

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * The commit word is a local_t (a long). The kernel adds the flags as int
 * constants, so on 64-bit the upper half is sign-extended garbage: only the
 * low 32 bits mean anything. Live pages change under us: load it once.
 */
static uint32_t read_commit(const struct tm_subbuf *sb)
{
	const unsigned char *p = sb->base + 8;
	unsigned long v;

	if (sb->live)
		v = __atomic_load_n((const unsigned long *)(const void *)p,
				    __ATOMIC_ACQUIRE);
	else
		memcpy(&v, p, sizeof(v));
	return (uint32_t)v;
}

int tm_subbuf_load(struct tm_subbuf *sb, const void *subbuf, size_t size,
		   bool live)
{
	uint32_t word;

	memset(sb, 0, sizeof(*sb));
	if (!subbuf || size <= TM_SUBBUF_HEADER || size > UINT32_MAX)
		return -EINVAL;
	sb->base = subbuf;
	sb->cap = (uint32_t)(size - TM_SUBBUF_HEADER);
	sb->live = live;
	memcpy(&sb->ts, sb->base, sizeof(sb->ts));
	word = read_commit(sb);
	sb->commit = word & TM_COMMIT_MASK;
	if (sb->commit > sb->cap)
		return -EINVAL;
	if (word & TM_MISSED_EVENTS) {
		unsigned long n;

		/* Stored right after the data, when there was room for it. */
		if ((word & TM_MISSED_STORED) &&
		    sb->cap - sb->commit >= sizeof(n)) {
			memcpy(&n, sb->base + TM_SUBBUF_HEADER + sb->commit,
			       sizeof(n));
			sb->missed = n > INT64_MAX ? TM_MISSED_UNKNOWN :
						     (int64_t)n;
		} else {
			sb->missed = TM_MISSED_UNKNOWN;
		}
	}
	return 0;
}

/* A 59-bit absolute time stamp takes its top bits from the previous one. */
static uint64_t fix_abs_ts(uint64_t abs, uint64_t prev)
{
	abs |= prev & TM_TS_MSB;
	if (abs < prev && (prev & TM_TS_MSB))
		abs += 1ULL << 59; /* the low 59 bits wrapped since prev */
	return abs;
}

int tm_subbuf_next(struct tm_subbuf *sb, struct tm_event *ev)
{
	if (sb->live && sb->commit < sb->cap) {
		uint32_t c = read_commit(sb) & TM_COMMIT_MASK;

		if (c > sb->cap || c < sb->commit)
			return -EINVAL;
		sb->commit = c;
	}
	while (sb->pos < sb->commit) {
		const unsigned char *p = sb->base + TM_SUBBUF_HEADER + sb->pos;
		uint32_t left = sb->commit - sb->pos;
		uint32_t hdr, type, delta, arg = 0, len;

		if (left < 4)
			return -EINVAL;
		hdr = get_u32(p);
		type = hdr & 0x1f;
		delta = hdr >> 5;
		if (type == TM_TYPE_PADDING && delta == 0)
			return 0; /* the rest of the sub-buffer is empty */
		if (type == 0 || type > TM_TYPE_DATA_MAX) {
			if (left < 8)
				return -EINVAL;
			arg = get_u32(p + 4);
		}
		switch (type) {
		case TM_TYPE_PADDING:
			/* A discarded event: array[0] is its size past the header. */
			len = 4 + arg;
			/*
			 * The writer computed the next delta from this event's
			 * time, so count it (as libtraceevent does; the kernel's
			 * own reader skips it, see tests/host/decode.c).
			 */
			sb->ts += delta;
			break;
		case TM_TYPE_TIME_EXTEND:
			len = 8;
			sb->ts += ((uint64_t)arg << TM_TS_SHIFT) | delta;
			break;
		case TM_TYPE_TIME_STAMP:
			len = 8;
			sb->ts = fix_abs_ts(
				((uint64_t)arg << TM_TS_SHIFT) | delta, sb->ts);
			break;
		case 0: /* large: array[0] counts itself and the payload */
			len = 4 + arg;
			if (arg < 4)
				return -EINVAL;
			sb->ts += delta;
			break;
		default: /* small: the payload is type_len words */
			len = 4 + type * 4;
			sb->ts += delta;
			break;
		}
		if (len < 8 || len % 4 || len > left)
			return -EINVAL;
		if (type > TM_TYPE_DATA_MAX || sb->pos < sb->skip_to) {
			sb->pos += len;
			continue;
		}
		ev->ts = sb->ts;
		ev->offset = sb->pos;
		ev->data = type ? p + 4 : p + 8;
		ev->size = type ? len - 4 : len - 8;
		sb->pos += len;
		return 1;
	}
	return 0;
}

/* --- mapping ----------------------------------------------------------- */

static int fail(struct tracemap *tm, int code, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tm->err, sizeof(tm->err), fmt, ap);
	va_end(ap);
	errno = saved;
	return code;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *tracemap_tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	char path[64];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/per_cpu", dirs[i]);
		if (is_dir(path))
			return dirs[i];
	}
	return NULL;
}

/* Turn the errno of an open/mmap/ioctl into a specific tm_error. */
static int sys_error(struct tracemap *tm, const char *what, const char *path)
{
	int e = errno;

	if (e == EACCES || e == EPERM)
		return fail(tm, TM_ERR_PERM, "%s %s: %s (tracing needs root)",
			    what, path, strerror(e));
	if (e == ENODEV || e == ENOTTY)
		return fail(
			tm, TM_ERR_NO_MMAP,
			"%s %s: %s (this kernel cannot map the ring buffer: needs Linux 6.10+, and not a boot-mapped instance)",
			what, path, strerror(e));
	if (e == EBUSY)
		return fail(tm, TM_ERR_BUSY, "%s %s: %s (a snapshot is armed)",
			    what, path, strerror(e));
	if (e == EINTR)
		return fail(tm, TM_ERR_INTR, "%s %s: interrupted", what, path);
	return fail(tm, TM_ERR_SYS, "%s %s: %s", what, path, strerror(e));
}

int tracemap_open(struct tracemap *tm, const char *tracefs,
		  const char *instance, int cpu, int flags)
{
	char dir[512], path[600];
	struct trace_buffer_meta *meta;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len;
	int fd;

	memset(tm, 0, sizeof(*tm));
	tm->fd = -1;
	tm->cpu = cpu;
	if (!tracefs)
		tracefs = tracemap_tracefs();
	if (!tracefs || !is_dir(tracefs))
		return fail(
			tm, TM_ERR_NO_TRACEFS,
			"tracefs not found (mount -t tracefs nodev /sys/kernel/tracing)");
	if (instance)
		snprintf(dir, sizeof(dir), "%s/instances/%s", tracefs,
			 instance);
	else
		snprintf(dir, sizeof(dir), "%s", tracefs);
	if (access(dir, X_OK) && (errno == EACCES || errno == EPERM))
		return sys_error(tm, "open", dir);
	if (!is_dir(dir))
		return fail(tm, TM_ERR_NO_INSTANCE,
			    "no instance '%s' in %s/instances", instance,
			    tracefs);
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", dir, cpu);
	if (cpu < 0 || !is_dir(path)) {
		if (access(dir, R_OK | X_OK))
			return sys_error(tm, "open", dir);
		return fail(tm, TM_ERR_NO_CPU, "no CPU %d in %s/per_cpu", cpu,
			    dir);
	}
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir,
		 cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC |
				(flags & TM_NONBLOCK ? O_NONBLOCK : 0));
	if (fd < 0)
		return sys_error(tm, "open", path);

	/* The meta-page says how large it is and what follows it. */
	meta = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		int code = sys_error(tm, "mmap", path);

		close(fd);
		return code;
	}
	len = (size_t)meta->meta_page_size +
	      (size_t)meta->subbuf_size * meta->nr_subbufs;
	if (meta->meta_page_size < page || meta->meta_page_size % page ||
	    meta->subbuf_size <= TM_SUBBUF_HEADER || meta->nr_subbufs == 0) {
		munmap(meta, page);
		close(fd);
		return fail(tm, TM_ERR_CORRUPT, "%s: meta-page makes no sense",
			    path);
	}
	munmap(meta, page);
	/* One mapping of everything: sub-buffer i is at meta_page_size + i * subbuf_size. */
	meta = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		int code = sys_error(tm, "mmap", path);

		close(fd);
		return code;
	}
	tm->fd = fd;
	tm->meta = meta;
	tm->map_len = len;
	tm->subbufs = (const unsigned char *)meta + meta->meta_page_size;
	/* Start where earlier read()s of trace_pipe_raw left the reader page. */
	tm->reader_id = meta->reader.id;
	if (tm_subbuf_load(&tm->sb,
			   tm->subbufs +
				   (size_t)tm->reader_id * meta->subbuf_size,
			   meta->subbuf_size, true)) {
		tracemap_close(tm);
		return fail(tm, TM_ERR_CORRUPT,
			    "%s: reader sub-buffer %u corrupt", path,
			    meta->reader.id);
	}
	tm->sb.skip_to = meta->reader.read;
	tm->sb.missed = 0; /* reported by the swap that loaded it, not now */
	return 0;
}

int tracemap_get_reader(struct tracemap *tm, int64_t *missed)
{
	struct trace_buffer_meta *meta = tm->meta;
	uint32_t id, read;
	int tries = 0;

	if (missed)
		*missed = 0;
again:
	read = __atomic_load_n(&meta->reader.read, __ATOMIC_ACQUIRE);
	if (ioctl(tm->fd, TRACE_MMAP_IOCTL_GET_READER) < 0) {
		char what[32];

		snprintf(what, sizeof(what), "GET_READER cpu%d", tm->cpu);
		return sys_error(tm, what, "");
	}
	id = __atomic_load_n(&meta->reader.id, __ATOMIC_ACQUIRE);
	if (id >= meta->nr_subbufs)
		return fail(tm, TM_ERR_CORRUPT, "reader id %u out of range",
			    id);
	if (id == tm->reader_id) {
		/*
		 * Same page: the kernel only moved reader.read to what it
		 * assumes we consumed. Events appended after we last looked
		 * are still there: keep our own position.
		 */
		struct tm_event ev;
		struct tm_subbuf probe = tm->sb;

		if (tm_subbuf_next(&probe, &ev) != 0)
			return 1;
		/*
		 * We had read those events live already. A call that only
		 * moves reader.read does not swap, even when other
		 * sub-buffers are full: ask once more.
		 */
		if (meta->reader.read != read && !tries++)
			goto again;
		return 0;
	}
	tm->reader_id = id;
	if (tm_subbuf_load(&tm->sb,
			   tm->subbufs + (size_t)id * meta->subbuf_size,
			   meta->subbuf_size, true))
		return fail(tm, TM_ERR_CORRUPT,
			    "cpu%d: sub-buffer %u: bad commit", tm->cpu, id);
	if (missed)
		*missed = tm->sb.missed;
	return 1;
}

int tracemap_next(struct tracemap *tm, struct tm_event *ev)
{
	int r = tm_subbuf_next(&tm->sb, ev);

	if (r < 0)
		return fail(tm, TM_ERR_CORRUPT,
			    "cpu%d: sub-buffer %u: bad record at %u", tm->cpu,
			    tm->reader_id, tm->sb.pos);
	return r;
}

void tracemap_close(struct tracemap *tm)
{
	if (tm->meta)
		munmap(tm->meta, tm->map_len);
	if (tm->fd >= 0)
		close(tm->fd);
	tm->meta = NULL;
	tm->fd = -1;
}

/* --- event formats ----------------------------------------------------- */

/* Copy at most size-1 bytes of [s, e) into dst, trimmed of blanks. */
static void copy_trim(char *dst, size_t size, const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	size_t n = (size_t)(e - s) < size - 1 ? (size_t)(e - s) : size - 1;

	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* "field:TYPE NAME[N];\toffset:O;\tsize:S;\tsigned:G;" */
static int parse_field(struct tm_field *fl, const char *line)
{
	const char *decl = strstr(line, "field:"), *semi, *name, *br;
	const char *o = strstr(line, "offset:"), *s = strstr(line, "size:"),
		   *g = strstr(line, "signed:");

	if (!decl || !o || !s)
		return -EINVAL;
	decl += 6;
	semi = strchr(decl, ';');
	if (!semi)
		return -EINVAL;
	memset(fl, 0, sizeof(*fl));
	/* The name is the last word; "[N]" may follow it. */
	name = semi;
	br = NULL;
	if (name > decl && name[-1] == ']') {
		while (name > decl && *name != '[')
			name--;
		br = name;
	}
	while (name > decl && name[-1] != ' ' && name[-1] != '\t' &&
	       name[-1] != '*')
		name--;
	copy_trim(fl->name, sizeof(fl->name), name, br ? br : semi);
	copy_trim(fl->type, sizeof(fl->type), decl, name);
	if (br)
		fl->array = atoi(br + 1) > 0 ? atoi(br + 1) : -1;
	if (!strncmp(fl->type, "__data_loc", 10))
		fl->array = -1;
	fl->offset = (uint32_t)strtoul(o + 7, NULL, 10);
	fl->size = (uint32_t)strtoul(s + 5, NULL, 10);
	fl->is_signed = g && atoi(g + 7) == 1;
	return fl->name[0] ? 0 : -EINVAL;
}

int tm_format_parse(struct tm_format *f, const char *system, const char *text)
{
	const char *line = text, *p;
	int cap = 0;

	memset(f, 0, sizeof(*f));
	f->id = -1;
	snprintf(f->system, sizeof(f->system), "%s", system);
	for (; line && *line; line = p ? p + 1 : NULL) {
		p = strchr(line, '\n');
		if (!strncmp(line, "name: ", 6))
			copy_trim(f->name, sizeof(f->name), line + 6,
				  p ? p : line + strlen(line));
		else if (!strncmp(line, "ID: ", 4))
			f->id = atoi(line + 4);
		else if (strstr(line, "field:") &&
			 (!p || strstr(line, "field:") < p)) {
			char one[512];

			copy_trim(one, sizeof(one), line,
				  p ? p : line + strlen(line));
			if (f->nr_fields == cap) {
				struct tm_field *n;

				cap = cap ? 2 * cap : 8;
				n = realloc(f->fields,
					    (size_t)cap * sizeof(*n));
				if (!n)
					return -ENOMEM;
				f->fields = n;
			}
			if (parse_field(&f->fields[f->nr_fields], one) == 0)
				f->nr_fields++;
		}
	}
	if (f->id < 0 || !f->name[0]) {
		free(f->fields);
		f->fields = NULL;
		return -EINVAL;
	}
	return 0;
}

static char *slurp(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (!buf || fd < 0)
		goto err;
	/* tracefs files report size 0: read until EOF. */
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
	free(buf);
	if (fd >= 0)
		close(fd);
	return NULL;
}

int tm_formats_load(struct tm_formats *fs, const char *dir)
{
	char path[1024];
	struct dirent *s, *e;
	DIR *top, *sys;
	size_t cap = 0;

	memset(fs, 0, sizeof(*fs));
	snprintf(path, sizeof(path), "%s/events", dir);
	top = opendir(path);
	if (!top)
		return -errno;
	while ((s = readdir(top))) {
		if (s->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, s->d_name);
		sys = opendir(path);
		if (!sys)
			continue;
		while ((e = readdir(sys))) {
			struct tm_format f;
			char *text;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format",
				 dir, s->d_name, e->d_name);
			text = slurp(path);
			if (!text)
				continue;
			if (tm_format_parse(&f, s->d_name, text) == 0) {
				if (fs->n == cap) {
					struct tm_format *v;

					cap = cap ? 2 * cap : 64;
					v = realloc(fs->v, cap * sizeof(*v));
					if (!v) {
						free(f.fields);
						free(text);
						break;
					}
					fs->v = v;
				}
				fs->v[fs->n++] = f;
			}
			free(text);
		}
		closedir(sys);
	}
	closedir(top);
	return (int)fs->n;
}

const struct tm_format *tm_formats_find(const struct tm_formats *fs, int id)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].id == id)
			return &fs->v[i];
	return NULL;
}

void tm_formats_free(struct tm_formats *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->v[i].fields);
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

int tm_event_type(const struct tm_event *ev)
{
	uint16_t t;

	if (ev->size < sizeof(t))
		return -1;
	memcpy(&t, ev->data, sizeof(t));
	return t;
}

/* An unsigned integer of 1, 2, 4 or 8 bytes, in the machine's byte order. */
static uint64_t read_uint(const unsigned char *p, uint32_t size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	default:
		memcpy(&u64, p, 8);
		return u64;
	}
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

int tm_format_payload(const struct tm_format *f, const struct tm_event *ev,
		      char *buf, size_t len)
{
	const unsigned char *d = ev->data;
	struct out o = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	if (!strcmp(f->system, "ftrace") && !strcmp(f->name, "print")) {
		for (int i = 0; i < f->nr_fields; i++) {
			const struct tm_field *fl = &f->fields[i];

			if (strcmp(fl->name, "buf") || fl->offset > ev->size)
				continue;
			size_t n = strnlen((const char *)d + fl->offset,
					   ev->size - fl->offset);

			/* trace_marker appends one newline; drop it. */
			if (n && d[fl->offset + n - 1] == '\n')
				n--;
			put_str(&o, d + fl->offset, n);
			return (int)o.used;
		}
	}
	for (int i = 0; i < f->nr_fields; i++) {
		const struct tm_field *fl = &f->fields[i];
		uint32_t off = fl->offset, size = fl->size;
		bool is_char = strstr(fl->type, "char") != NULL;

		if (!strncmp(fl->name, "common_", 7))
			continue;
		put(&o, "%s%s=", o.used ? " " : "", fl->name);
		if (fl->array < 0 && size == 4 && off + 4 <= ev->size) {
			/* __data_loc: u32 of (length << 16 | offset) */
			uint32_t loc = get_u32(d + off);

			off = loc & 0xffff;
			size = loc >> 16;
		}
		if ((uint64_t)off + size > ev->size) {
			put(&o, "?");
			continue;
		}
		if (fl->array && is_char) {
			put(&o, "\"");
			put_str(&o, d + off, size);
			put(&o, "\"");
		} else if (fl->array ||
			   (size != 1 && size != 2 && size != 4 && size != 8)) {
			for (uint32_t j = 0; j < size; j++)
				put(&o, "%s%02x", j ? "" : "0x", d[off + j]);
		} else {
			uint64_t u = read_uint(d + off, size);
			int64_t s;

			if (size < 8 && fl->is_signed && (u >> (size * 8 - 1)))
				u |= ~0ULL << (size * 8);
			s = (int64_t)u;
			if (strchr(fl->type, '*'))
				put(&o, "0x%llx", (unsigned long long)u);
			else if (fl->is_signed)
				put(&o, "%lld", (long long)s);
			else
				put(&o, "%llu", (unsigned long long)u);
		}
	}
	return (int)o.used;
}
