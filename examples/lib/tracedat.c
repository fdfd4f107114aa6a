// SPDX-License-Identifier: MIT
/*
 * tracedat: trace-cmd's trace.dat, version 6, written from ring-buffer
 * sub-buffers. See tracedat.h. The file, in order (numbers in the
 * machine's byte order, which the file names):
 *   "\x17\x08\x44" "tracing" "6\0", endian (0 little), long size, u32 page
 *   "header_page\0" u64 size, text; "header_event\0" u64 size, text
 *   u32 count, then (u64 size, text) per events/ftrace/<event>/format
 *   u32 systems, then per system: name\0, u32 count, (u64 size, text)...
 *   u32 size, /proc/kallsyms; u32 size, printk_formats;
 *   u64 size, saved_cmdlines; u32 CPUs
 *   "flyrecord\0", then (u64 offset, u64 size) per CPU
 *   per CPU, from an offset aligned to page_size: its sub-buffers.
 */
#include "tracedat.h"
#include "tracemap_internal.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Set the handle's error text; returns code (a negative errno). */
#define fail(h, code, ...) \
	tracemap_error_set((h)->err, sizeof((h)->err), code, __VA_ARGS__)

const char *tracemap_dat_error(const struct tracemap_dat *td)
{
	return td->err;
}

static bool power_of_two(uint32_t v)
{
	return v && !(v & (v - 1));
}

int tracemap_dat_create(struct tracemap_dat *td, const char *path,
			const char *dir, int nr_cpus, uint32_t subbuf_size)
{
	int r;

	memset(td, 0, sizeof(*td));
	if (nr_cpus <= 0 || nr_cpus > 4096)
		return fail(td, -EINVAL, "%s: %d CPUs: need 1 to 4096", path,
			    nr_cpus);
	/* trace-cmd steps through the CPU data in page_size units. */
	if (!power_of_two(subbuf_size) || subbuf_size < 64)
		return fail(td, -EINVAL,
			    "%s: sub-buffer size %u is not a power of two",
			    path, subbuf_size);
	if (strlen(path) >= sizeof(td->path) || strlen(dir) >= sizeof(td->dir))
		return fail(td, -ENAMETOOLONG, "%s: path too long", path);
	strcpy(td->path, path);
	strcpy(td->dir, dir);
	r = tracemap_layout_load(&td->layout, dir);
	if (r)
		return fail(td, r, "%s/events/header_page: %s", dir,
			    r == -EBADMSG ?
				    "not a sub-buffer header description" :
				    strerror(-r));
	if (subbuf_size <= td->layout.data_offset)
		return fail(td, -EINVAL, "sub-buffer size %u holds no data",
			    subbuf_size);
	td->cpus = calloc((size_t)nr_cpus, sizeof(*td->cpus));
	if (!td->cpus)
		return fail(td, -ENOMEM, "out of memory");
	td->nr_cpus = nr_cpus;
	td->subbuf_size = subbuf_size;
	return 0;
}

void tracemap_dat_discard(struct tracemap_dat *td)
{
	for (int i = 0; td->cpus && i < td->nr_cpus; i++) {
		if (td->cpus[i].data)
			fclose(td->cpus[i].data);
		free(td->cpus[i].copy);
	}
	free(td->cpus);
	td->cpus = NULL;
	td->nr_cpus = 0;
}

/* Check that a sub-buffer decodes to its end: trace-cmd stops at a bad one. */
static int check_subbuf(struct tracemap_dat *td, const void *subbuf,
			int *events)
{
	struct tracemap_subbuf sb;
	struct tracemap_event ev;
	int r = tracemap_subbuf_load(&sb, &td->layout, subbuf, td->subbuf_size,
				     false);

	*events = 0;
	if (r)
		return r;
	while ((r = tracemap_subbuf_next(&sb, &ev)) > 0)
		(*events)++;
	return r;
}

static int add(struct tracemap_dat *td, int cpu, const void *subbuf)
{
	struct tracemap_dat_cpu *c;
	int events;

	if (cpu < 0 || cpu >= td->nr_cpus)
		return fail(td, -EINVAL, "cpu%d: not in this file (0..%d)", cpu,
			    td->nr_cpus - 1);
	c = &td->cpus[cpu];
	if (check_subbuf(td, subbuf, &events))
		return fail(
			td, -EBADMSG,
			"cpu%d: sub-buffer %llu: a commit or record that cannot be right",
			cpu, (unsigned long long)c->subbufs);
	if (!c->data && !(c->data = tmpfile()))
		return fail(td, -errno, "temporary file: %s", strerror(errno));
	if (fwrite(subbuf, td->subbuf_size, 1, c->data) != 1)
		return fail(td, -EIO, "temporary file: cannot write");
	c->subbufs++;
	return 0;
}

int tracemap_dat_add(struct tracemap_dat *td, int cpu, const void *subbuf)
{
	return add(td, cpu, subbuf);
}

long tracemap_dat_add_capture(struct tracemap_dat *td, int cpu,
			      const char *file)
{
	FILE *in = fopen(file, "rb");
	unsigned char *buf = malloc(td->subbuf_size);
	long n = 0;
	size_t got;
	int r = 0;

	if (!in || !buf) {
		r = fail(td, in ? -ENOMEM : -errno, "%s: %s", file,
			 in ? "out of memory" : strerror(errno));
		goto out;
	}
	while ((got = fread(buf, 1, td->subbuf_size, in)) > 0) {
		if (got != td->subbuf_size) {
			r = fail(
				td, -EBADMSG,
				"%s: ends with %zu bytes, not a whole sub-buffer of %u",
				file, got, td->subbuf_size);
			goto out;
		}
		r = add(td, cpu, buf);
		if (r) {
			fail(td, r,
			     "%s: sub-buffer %ld (byte %ld): commit or record that cannot be right",
			     file, n, n * (long)td->subbuf_size);
			goto out;
		}
		n++;
	}
	if (ferror(in))
		r = fail(td, -EIO, "%s: read error", file);
out:
	if (in)
		fclose(in);
	free(buf);
	return r ? r : n;
}

/* --- a mapped reader ------------------------------------------------------ */

static int map_check(struct tracemap_dat *td, int cpu,
		     const struct tracemap *tm)
{
	if (cpu < 0 || cpu >= td->nr_cpus)
		return fail(td, -EINVAL, "cpu%d: not in this file", cpu);
	if (tracemap_mode(tm) != TRACEMAP_MODE_MMAP)
		return fail(
			td, -EOPNOTSUPP,
			"cpu%d: read with read(), not mapped: add its sub-buffers with tracemap_dat_add()",
			cpu);
	if (tracemap_subbuf_size(tm) != td->subbuf_size)
		return fail(td, -EINVAL,
			    "cpu%d: sub-buffers of %u bytes, the file has %u",
			    cpu, tracemap_subbuf_size(tm), td->subbuf_size);
	return 0;
}

int tracemap_dat_map_before(struct tracemap_dat *td, int cpu,
			    const struct tracemap *tm)
{
	struct tracemap_dat_cpu *c;
	const unsigned char *sb;
	uint32_t head = td->layout.data_offset;
	int r = map_check(td, cpu, tm);

	if (r)
		return r;
	c = &td->cpus[cpu];
	if (!c->on_subbuf)
		return 0;
	sb = tracemap_subbuf_at(tm, c->id);
	if (!sb)
		return fail(td, -EBADMSG, "cpu%d: sub-buffer %u not mapped",
			    cpu, c->id);
	if (!c->copy && !(c->copy = malloc(td->subbuf_size)))
		return fail(td, -ENOMEM, "out of memory");
	/*
	 * The header (commit) first, then the data: a record the writer
	 * adds meanwhile is past the commit we copied.
	 */
	memcpy(c->copy, sb, head);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	memcpy(c->copy + head, sb + head, td->subbuf_size - head);
	c->have_copy = true;
	return 0;
}

/* Store the copy of the sub-buffer the reader left, unless it is empty. */
static int flush_copy(struct tracemap_dat *td, int cpu)
{
	struct tracemap_dat_cpu *c = &td->cpus[cpu];
	struct tracemap_subbuf sb;

	if (!c->have_copy)
		return 0;
	c->have_copy = false;
	if (!tracemap_subbuf_load(&sb, &td->layout, c->copy, td->subbuf_size,
				  false) &&
	    !sb.commit && !sb.missed)
		return 0;
	return add(td, cpu, c->copy);
}

int tracemap_dat_map_after(struct tracemap_dat *td, int cpu,
			   const struct tracemap *tm,
			   const struct tracemap_reader *rd)
{
	struct tracemap_dat_cpu *c;
	int r = map_check(td, cpu, tm);

	if (r)
		return r;
	c = &td->cpus[cpu];
	/* A reset or another reader: what we had read of the page stays. */
	if (rd->new_subbuf || rd->loss == TRACEMAP_LOSS_RESET ||
	    rd->loss == TRACEMAP_LOSS_OTHER_READER) {
		r = flush_copy(td, cpu);
		if (r)
			return r;
	}
	c->on_subbuf = true;
	c->id = rd->id;
	return 0;
}

int tracemap_dat_hook(void *arg, struct tracemap *tm,
		      const struct tracemap_reader *rd)
{
	struct tracemap_dat *td = arg;
	int cpu = tracemap_cpu(tm);

	return rd ? tracemap_dat_map_after(td, cpu, tm, rd) :
		    tracemap_dat_map_before(td, cpu, tm);
}

int tracemap_dat_map_end(struct tracemap_dat *td, int cpu,
			 const struct tracemap *tm)
{
	int r = tracemap_dat_map_before(td, cpu, tm);

	if (r)
		return r;
	r = flush_copy(td, cpu);
	td->cpus[cpu].on_subbuf = false;
	return r;
}

/* --- the file -------------------------------------------------------------- */

struct out {
	FILE *f;
	int err; /* the errno of the first failed write, 0 while none failed */
};

static void put(struct out *o, const void *p, size_t n)
{
	if (n && fwrite(p, n, 1, o->f) != 1 && !o->err)
		o->err = errno ? errno : EIO;
}

static void put_u32(struct out *o, uint32_t v)
{
	put(o, &v, sizeof(v));
}

static void put_u64(struct out *o, uint64_t v)
{
	put(o, &v, sizeof(v));
}

/* A whole file (tracefs files have no size): malloc'd, *len bytes, or NULL. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf = NULL, *p;

	if (!f)
		return NULL;
	for (;;) {
		p = realloc(buf, cap + 1);
		if (!p)
			goto fail;
		buf = p;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		cap *= 2;
	}
	if (ferror(f))
		goto fail;
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	fclose(f);
	return NULL;
}

/* Put a file's text preceded by its size (size_bytes: 4 or 8); 0 or -errno. */
static int put_file(struct tracemap_dat *td, struct out *o, const char *path,
		    int size_bytes, bool optional)
{
	size_t len = 0;
	char *text = read_all(path, &len);

	if (!text && !optional)
		return fail(td, -errno ? -errno : -EIO, "%s: %s", path,
			    strerror(errno ? errno : EIO));
	if (size_bytes == 4) {
		if (len > UINT32_MAX) {
			free(text);
			return fail(td, -EFBIG, "%s: too large", path);
		}
		put_u32(o, (uint32_t)len);
	} else {
		put_u64(o, len);
	}
	put(o, text, len);
	free(text);
	return 0;
}

/* printf into a path buffer of PATH_MAX bytes; "" when it does not fit. */
static const char *path_of(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX)
		buf[0] = '\0';
	return buf;
}

static int skip_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static bool has_format(const char *sysdir, const char *ev)
{
	char p[PATH_MAX];
	struct stat st;

	path_of(p, "%s/%s/format", sysdir, ev);
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* u32 count, then (u64 size, text) per event of events/<sys>: 0 or -errno. */
static int put_system(struct tracemap_dat *td, struct out *o,
		      const char *sysdir)
{
	struct dirent **ev;
	uint32_t count = 0;
	int n = scandir(sysdir, &ev, skip_dot, alphasort), r = 0;

	if (n < 0)
		return fail(td, -errno, "%s: %s", sysdir, strerror(errno));
	for (int i = 0; i < n; i++)
		count += has_format(sysdir, ev[i]->d_name);
	put_u32(o, count);
	for (int i = 0; i < n; i++) {
		char p[PATH_MAX];

		if (!r && has_format(sysdir, ev[i]->d_name)) {
			path_of(p, "%s/%s/format", sysdir, ev[i]->d_name);
			r = put_file(td, o, p, 8, false);
		}
		free(ev[i]);
	}
	free(ev);
	return r;
}

/* Systems under events/ other than ftrace that hold at least one format. */
static int put_systems(struct tracemap_dat *td, struct out *o,
		       const char *events)
{
	struct dirent **sys;
	char p[PATH_MAX];
	int n = scandir(events, &sys, skip_dot, alphasort), r = 0;
	uint32_t count = 0;
	bool *use;

	if (n < 0)
		return fail(td, -errno, "%s: %s", events, strerror(errno));
	use = calloc((size_t)n + 1, sizeof(*use));
	for (int i = 0; use && i < n; i++) {
		struct dirent **ev;
		int m;

		if (!strcmp(sys[i]->d_name, "ftrace"))
			continue;
		path_of(p, "%s/%s", events, sys[i]->d_name);
		m = scandir(p, &ev, skip_dot, alphasort);
		for (int j = 0; j < m; j++) {
			use[i] = use[i] || has_format(p, ev[j]->d_name);
			free(ev[j]);
		}
		if (m >= 0)
			free(ev);
		count += use[i];
	}
	if (!use)
		r = fail(td, -ENOMEM, "out of memory");
	else
		put_u32(o, count);
	for (int i = 0; i < n; i++) {
		if (!r && use[i]) {
			put(o, sys[i]->d_name, strlen(sys[i]->d_name) + 1);
			path_of(p, "%s/%s", events, sys[i]->d_name);
			r = put_system(td, o, p);
		}
		free(sys[i]);
	}
	free(sys);
	free(use);
	return r;
}

static int put_headers(struct tracemap_dat *td, struct out *o, int flags)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a',
					       'c',  'i',  'n',	 'g', '6', 0 };
	const uint16_t one = 1;
	char events[PATH_MAX], p[PATH_MAX];
	const char *top;
	int r, top_len;

	put(o, magic, sizeof(magic));
	put(o, (const char[]){ *(const char *)&one ? 0 : 1 }, 1);
	put(o, (const char[]){ (char)td->layout.commit_size }, 1);
	put_u32(o, td->subbuf_size);

	path_of(events, "%s/events", td->dir);
	put(o, "header_page", 12);
	path_of(p, "%s/header_page", events);
	r = put_file(td, o, p, 8, false);
	if (r)
		return r;
	put(o, "header_event", 13);
	path_of(p, "%s/header_event", events);
	r = put_file(td, o, p, 8, false);
	if (r)
		return r;
	path_of(p, "%s/ftrace", events);
	if (access(p, F_OK) == 0)
		r = put_system(td, o, p);
	else
		put_u32(o, 0);
	if (!r)
		r = put_systems(td, o, events);
	if (r)
		return r;
	if (flags & TRACEMAP_DAT_KALLSYMS)
		r = put_file(td, o, "/proc/kallsyms", 4, false);
	else
		put_u32(o, 0);
	if (r)
		return r;
	/* tracefs has these at its top only, not in instances/<name> */
	top = strstr(td->dir, "/instances/");
	top_len = top && !strchr(top + 11, '/') ? (int)(top - td->dir) :
						  (int)strlen(td->dir);
	path_of(p, "%.*s/printk_formats", top_len, td->dir);
	r = put_file(td, o, p, 4, true);
	if (r)
		return r;
	path_of(p, "%.*s/saved_cmdlines", top_len, td->dir);
	return put_file(td, o, p, 8, true);
}

static int put_cpu_data(struct tracemap_dat *td, struct out *o)
{
	uint64_t pos, page = td->subbuf_size;
	char buf[65536];

	put_u32(o, (uint32_t)td->nr_cpus);
	put(o, "flyrecord", 10);
	pos = (uint64_t)ftell(o->f) + 16 * (uint64_t)td->nr_cpus;
	for (int i = 0; i < td->nr_cpus; i++) {
		uint64_t size = td->cpus[i].subbufs * page;

		pos = (pos + page - 1) / page * page;
		put_u64(o, pos);
		put_u64(o, size);
		pos += size;
	}
	for (int i = 0; i < td->nr_cpus; i++) {
		FILE *d = td->cpus[i].data;
		long at = ftell(o->f);
		size_t n;

		if (at < 0)
			return fail(td, -EIO, "%s: %s", td->path,
				    strerror(errno));
		/* pad to the CPU's page-aligned offset */
		memset(buf, 0, sizeof(buf));
		for (uint64_t pad = ((uint64_t)at + page - 1) / page * page -
				    (uint64_t)at;
		     pad; pad -= n) {
			n = pad < sizeof(buf) ? pad : sizeof(buf);
			put(o, buf, n);
		}
		if (!d)
			continue;
		rewind(d);
		while ((n = fread(buf, 1, sizeof(buf), d)) > 0)
			put(o, buf, n);
		if (ferror(d))
			return fail(td, -EIO,
				    "cpu%d: temporary file: read error", i);
	}
	return 0;
}

int tracemap_dat_finish(struct tracemap_dat *td, int flags)
{
	struct out o = { .f = fopen(td->path, "wb") };
	struct stat st;
	bool regular;
	int r;

	if (!o.f) {
		r = fail(td, -errno, "%s: %s", td->path, strerror(errno));
		tracemap_dat_discard(td);
		return r;
	}
	/* Only a regular file is removed after a failure (not /dev/full). */
	regular = !fstat(fileno(o.f), &st) && S_ISREG(st.st_mode);
	r = put_headers(td, &o, flags);
	if (!r)
		r = put_cpu_data(td, &o);
	if (fclose(o.f) && !o.err)
		o.err = errno ? errno : EIO;
	if (!r && o.err)
		r = fail(td, -o.err, "writing: %s", strerror(o.err));
	if (r && regular)
		unlink(td->path);
	tracemap_dat_discard(td);
	return r;
}
