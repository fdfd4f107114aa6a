// SPDX-License-Identifier: MIT
/*
 * trace_stream: like "cat trace_pipe", through the ring-buffer mapping.
 * "trace_stream --help" prints the options; the output is described here.
 *
 * Output, one line per event, fields separated by one space:
 *   CPU SECONDS.NANOSECONDS SYSTEM/EVENT PAYLOAD
 * and one line per loss, before the events that follow it:
 *   CPU SECONDS.NANOSECONDS missed COUNT            overwritten by the writer
 *   CPU SECONDS.NANOSECONDS missed COUNT dropped    dropped (options/overwrite 0)
 *   CPU SECONDS.NANOSECONDS missed unknown (WHY)
 *   CPU SECONDS.NANOSECONDS reset (WHAT)            the buffer was reset
 *   CPU SECONDS.NANOSECONDS other-reader (WHAT)     another reader took events
 * The time is the trace clock; for a loss, the time of the sub-buffer that
 * follows it, or of the last event printed before it (before the first,
 * the clock when the loss was found). Events dropped before the start
 * come first: "missed COUNT dropped". PAYLOAD is the text
 * of an ftrace/print event, or name=value pairs in format order ("..."
 * around strings). Events of an unknown type print as "unknown/ID size=N".
 * Lines of several CPUs come merged in time order (examples/lib/tracemerge.h:
 * an event waits until --watermark ms after it was written for idle CPUs);
 * --per-cpu prints each CPU's in turn, in time order per CPU only.
 * --output FILE also writes the sub-buffers read into FILE, a trace-cmd
 * trace.dat (examples/lib/tracedat.h), losses included: live, those the
 * mapping gave; with --offline, the capture's.
 * Errors and warnings go to stderr, one line each, starting "trace_stream:".
 * Exit status: 0; 1 on an error (after printing whatever could be decoded);
 * 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tracedat.h"
#include "tracemap.h"
#include "tracemerge.h"

/*
 * --interval's default: at the kernel's buffer_percent (50), of the poll()
 * timeouts that lost no event and cost about the least CPU in make
 * bench-wait, the one with the lowest latency (the rule and the figures:
 * docs/ringbuffer/perf/wait-summary.txt). tests/host/cli.test.sh checks
 * that it, the usage below and that page agree.
 */
#define INTERVAL_MS 100

static const char usage_text[] =
	"usage: trace_stream [--cpu N] [--instance NAME] [--tracefs DIR]\n"
	"                    [--nonblock] [--interval MS] [--per-cpu]\n"
	"                    [--watermark MS] [--output FILE]\n"
	"       trace_stream --offline FILE [--subbuf-size BYTES] [--cpu N]\n"
	"                    [--tracefs DIR] [--output FILE]\n"
	"Print the events of the tracing ring buffer, read through its memory\n"
	"mapping (Linux 6.10+; read() of trace_pipe_raw where it cannot be\n"
	"mapped), one line each: CPU TIME SYSTEM/EVENT PAYLOAD, and a line for\n"
	"every loss: missed, reset, other-reader.\n"
	"  --cpu N          only CPU N (default: every online CPU)\n"
	"  --instance NAME  the buffer of instances/NAME (default: top level)\n"
	"  --tracefs DIR    the tracefs mount (default: /sys/kernel/tracing);\n"
	"                   event formats and the sub-buffer header come from\n"
	"                   DIR/events (a folder of copies works too)\n"
	"  --nonblock       print what the buffers hold now, then exit\n"
	"  --interval MS    look at least every MS ms (default 100); 0: only\n"
	"                   when the kernel wakes us (buffer_percent reached)\n"
	"  --offline FILE   decode FILE, the bytes read() of trace_pipe_raw\n"
	"                   returned, as CPU --cpu (default 0); a bad sub-buffer\n"
	"                   is named, the others decoded, and the exit status 1\n"
	"  --subbuf-size B  FILE's sub-buffer size (default: detected)\n"
	"  --per-cpu        each CPU's lines in turn, not merged by time\n"
	"  --watermark MS   merged: how long after it was written an event\n"
	"                   waits for idle CPUs (default 10); how many came\n"
	"                   out of time order is printed on stderr at exit\n"
	"  --output FILE    also write what is read to FILE, a trace-cmd\n"
	"                   trace.dat (trace-cmd report FILE, kernelshark FILE)\n"
	"  --help           print this and exit\n"
	"Runs until SIGINT, SIGTERM or SIGHUP, then prints what the buffers\n"
	"hold (a second signal: at once).\n";

static volatile sig_atomic_t stop;
static struct tracemap_formats formats;
/* The time of the last line printed, per CPU. */
static uint64_t last_ts[TRACEMAP_MERGE_MAX_CPUS];

/* Output: every write is checked; a failure stops the program. */
static int out_errno; /* the first write error, 0 while all went well */
static unsigned long long unflushed; /* events printed since the last flush */
/* --offline FILE: where the events come from (NULL: the ring buffer) */
static const char *offline_file;

/* The first signal stops after the final drain, a second one at once. */
static void on_signal(int sig)
{
	(void)sig;
	stop = stop + 1;
}

static void warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

static void out(const char *fmt, ...)
{
	va_list ap;

	if (out_errno)
		return;
	va_start(ap, fmt);
	if (vprintf(fmt, ap) < 0)
		out_errno = errno ? errno : EIO;
	va_end(ap);
}

/*
 * Push the buffered lines out. Returns 0, or 1 after saying on stderr that
 * stdout failed and how many events taken from the ring may not have made it.
 */
static int out_flush(void)
{
	if (!out_errno && fflush(stdout))
		out_errno = errno ? errno : EIO;
	if (!out_errno) {
		unflushed = 0;
		return 0;
	}
	if (offline_file)
		fprintf(stderr,
			"trace_stream: writing to stdout: %s; stopped, and up to %llu events decoded from %s were not written\n",
			strerror(out_errno), unflushed, offline_file);
	else
		fprintf(stderr,
			"trace_stream: writing to stdout: %s; stopped, and up to %llu events taken from the ring buffer were not written\n",
			strerror(out_errno), unflushed);
	return 1;
}

static void print_time(int cpu, uint64_t ts)
{
	if (cpu >= 0 && cpu < TRACEMAP_MERGE_MAX_CPUS)
		last_ts[cpu] = ts;
	out("%d %llu.%09llu ", cpu, (unsigned long long)(ts / 1000000000),
	    (unsigned long long)(ts % 1000000000));
}

/* The count a sub-buffer stores (offline mode, where it is all there is). */
static void print_missed(int cpu, uint64_t ts, int64_t missed)
{
	if (!missed)
		return;
	print_time(cpu, ts);
	if (missed == TRACEMAP_MISSED_UNKNOWN)
		out("missed unknown (the sub-buffer had no room for the count)\n");
	else
		out("missed %lld\n", (long long)missed);
}

/* A loss tracemap_get_reader() reported, in the stream where it happened. */
static void print_loss(const struct tracemap *tm,
		       const struct tracemap_reader *rd)
{
	int cpu = tracemap_cpu(tm);
	const char *why = tracemap_error(tm);
	uint64_t last = last_ts[cpu % TRACEMAP_MERGE_MAX_CPUS];

	if (rd->loss == TRACEMAP_LOSS_NONE)
		return;
	/* in the stream where it happened: after the last event printed */
	print_time(cpu, rd->new_subbuf || !last ? rd->ts : last);
	switch (rd->loss) {
	case TRACEMAP_LOSS_COUNTED:
		out("missed %llu\n", (unsigned long long)rd->count);
		break;
	case TRACEMAP_LOSS_DROPPED:
		out("missed %llu dropped\n", (unsigned long long)rd->count);
		break;
	case TRACEMAP_LOSS_UNKNOWN:
		out("missed unknown (%s)\n", why);
		break;
	case TRACEMAP_LOSS_RESET:
		out("reset (%s)\n", why);
		break;
	case TRACEMAP_LOSS_OTHER_READER:
		out("other-reader (%s)\n", why);
		break;
	default:
		out("missed unknown (%s)\n", tracemap_loss_name(rd->loss));
		break;
	}
}

static void print_event(int cpu, const struct tracemap_event *ev)
{
	const struct tracemap_format *f =
		tracemap_formats_find(&formats, tracemap_event_type(ev));
	char text[4096];
	int n;

	print_time(cpu, ev->ts);
	unflushed++;
	if (!f) {
		static bool told;

		/* Say once why, if some format files could not be loaded. */
		if (!told && tracemap_formats_failed(&formats) &&
		    tracemap_formats_count(&formats)) {
			warn("event type %d has no format, it prints as unknown/ID; %d format files could not be loaded, the first: %s",
			     tracemap_event_type(ev),
			     tracemap_formats_failed(&formats),
			     tracemap_formats_error(&formats));
			told = true;
		}
		out("unknown/%d size=%u\n", tracemap_event_type(ev), ev->size);
		return;
	}
	n = tracemap_format_payload(f, ev, text, sizeof(text));
	if (n >= (int)sizeof(text)) {
		/* Never cut short: format it again into a buffer that fits. */
		char *big = malloc((size_t)n + 1);

		if (big) {
			tracemap_format_payload(f, ev, big, (size_t)n + 1);
			out("%s/%s %s\n", f->system, f->name, big);
			free(big);
			return;
		}
		out_errno = ENOMEM;
		return;
	}
	out("%s/%s %s\n", f->system, f->name, text);
}

/* The directory of the buffer: tracefs, or its instances/NAME. */
static const char *buffer_dir(char *dir, size_t size, const char *tracefs,
			      const char *instance)
{
	snprintf(dir, size, "%s%s%s", tracefs, instance ? "/instances/" : "",
		 instance ? instance : "");
	return dir;
}

/* Load the event formats of the buffer; warn when there are none. */
static void load_formats(const char *tracefs, const char *instance)
{
	char dir[600];
	int r = -ENOENT;

	if (tracefs) {
		r = tracemap_formats_load(&formats,
					  buffer_dir(dir, sizeof(dir), tracefs,
						     instance));
	}
	if (r <= 0)
		warn("no event format could be loaded from %s/events%s%s: events print as unknown/ID",
		     tracefs ? dir : "(no tracefs found)", r < 0 ? ": " : "",
		     r < 0 ? strerror(-r) : "");
	/* Some files that failed: print_event() says so if it matters. */
}

/* --- --output: a trace.dat of what is read ---------------------------- */

static const char *output; /* --output FILE, or NULL */
static struct tracemap_dat dat;
static bool recording; /* dat is open and nothing failed */
static bool dat_failed;

static void dat_fail(void)
{
	warn("%s: %s; it is not written", output, tracemap_dat_error(&dat));
	tracemap_dat_discard(&dat);
	recording = false;
	dat_failed = true;
}

/* Around every GET_READER (rd NULL before it): keep the sub-buffers read. */
static int record(void *arg, struct tracemap *tm,
		  const struct tracemap_reader *rd)
{
	(void)arg;
	if (recording && tracemap_dat_hook(&dat, tm, rd))
		dat_fail();
	return 0; /* reading goes on: the events still reach stdout */
}

/* Start the file for the CPUs of m, the buffer in dir. */
static void output_start(const char *dir, struct tracemap_merge *m)
{
	int cpus = 0;

	for (int i = 0; i < tracemap_merge_count(m); i++)
		if (tracemap_cpu(tracemap_merge_map(m, i)) >= cpus)
			cpus = tracemap_cpu(tracemap_merge_map(m, i)) + 1;
	recording = !tracemap_dat_create(
		&dat, output, dir, cpus,
		tracemap_subbuf_size(tracemap_merge_map(m, 0)));
	if (!recording)
		dat_fail();
}

/* The last sub-buffer of each CPU of m, then the file. 0, or 1 on failure. */
static int output_finish(struct tracemap_merge *m)
{
	for (int i = 0; i < tracemap_merge_count(m) && recording; i++) {
		const struct tracemap *tm = tracemap_merge_map(m, i);

		if (tracemap_dat_map_end(&dat, tracemap_cpu(tm), tm))
			dat_fail();
	}
	if (recording && tracemap_dat_finish(&dat, 0)) {
		warn("%s: %s", output, tracemap_dat_error(&dat));
		dat_failed = true;
	}
	recording = false;
	return output && dat_failed;
}

/* --offline with --output: the whole capture into the file. */
static int offline_output(const char *file, size_t size, int cpu,
			  const char *tracefs)
{
	int r = tracemap_dat_create(&dat, output, tracefs ? tracefs : ".",
				    cpu + 1, (uint32_t)size);

	if (!r && tracemap_dat_add_capture(&dat, cpu, file) < 0)
		r = -1;
	if (r) {
		warn("%s: %s; it is not written", output,
		     tracemap_dat_error(&dat));
		tracemap_dat_discard(&dat);
		return 1;
	}
	if (tracemap_dat_finish(&dat, 0)) {
		warn("%s: %s", output, tracemap_dat_error(&dat));
		return 1;
	}
	return 0;
}

/* --- offline: a file of sub-buffers --------------------------------- */

/* A capture mapped into memory. */
struct capture {
	const char *name;
	const unsigned char *buf;
	size_t len;
	struct tracemap_layout layout; /* from events/header_page, else native */
};

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * Whether the size bytes at p look like one sub-buffer as read() of
 * trace_pipe_raw returns it: not empty, every record decodes, and the
 * kernel zeroed everything after the data (and after the stored count of
 * lost events).
 */
static bool subbuf_fits(const struct capture *c, const unsigned char *p,
			size_t size)
{
	struct tracemap_subbuf sb;
	struct tracemap_event ev;
	size_t used;
	int r;

	if (tracemap_subbuf_load(&sb, &c->layout, p, size, false))
		return false;
	if (tracemap_subbuf_commit(&sb) == 0 &&
	    tracemap_subbuf_missed(&sb) == 0)
		return false;
	while ((r = tracemap_subbuf_next(&sb, &ev)) > 0)
		;
	if (r < 0)
		return false;
	used = tracemap_subbuf_end(&sb);
	return used <= size && all_zero(p + used, size - used);
}

/*
 * How many of the whole sub-buffers of size bytes at the start of the
 * capture (the first 1024) fit, of the *whole of them that are not all
 * zero (damage, which says nothing about the size).
 */
static size_t count_fits(const struct capture *c, size_t size, size_t *whole)
{
	size_t n = 0, total = c->len / size < 1024 ? c->len / size : 1024;

	*whole = 0;
	for (size_t i = 0; i < total; i++) {
		const unsigned char *p = c->buf + i * size;

		if (all_zero(p, size))
			continue;
		++*whole;
		n += subbuf_fits(c, p, size);
	}
	return n;
}

/*
 * The sub-buffer size (a power of two from 4 KiB) that the most sub-buffers
 * of the capture fit, by share (the smallest of equal shares); 0 when none
 * fits at all.
 */
static size_t guess_subbuf_size(const struct capture *c, double *share)
{
	size_t best = 0, whole;

	*share = 0;
	for (size_t size = 4096; size && size <= c->len; size *= 2) {
		size_t fits = count_fits(c, size, &whole);
		double s = whole ? (double)fits / (double)whole : 0;

		if (s > *share) {
			*share = s;
			best = size;
		}
	}
	return best;
}

/*
 * Decode sub-buffer idx (avail of its size bytes are in the file; the rest
 * is zero in p). Returns 0, or 1 after one line on stderr naming it.
 */
static int offline_subbuf(const struct capture *c, size_t idx,
			  const unsigned char *p, size_t size, size_t avail,
			  int cpu)
{
	size_t off = idx * size;
	struct tracemap_subbuf sb;
	struct tracemap_event ev;
	int r;

	if (tracemap_subbuf_load(&sb, &c->layout, p, size, false)) {
		warn("%s: sub-buffer %zu (byte %zu): %s", c->name, idx, off,
		     avail < size ?
			     "cut short by the end of the file" :
			     "its commit is past its end (wrong --subbuf-size?)");
		return 1;
	}
	/* read() never returns a sub-buffer with nothing in it: damage */
	if (avail == size && tracemap_subbuf_commit(&sb) == 0 &&
	    tracemap_subbuf_missed(&sb) == 0) {
		warn("%s: sub-buffer %zu (byte %zu): %s", c->name, idx, off,
		     all_zero(p, size) ?
			     "all zero, which read() never returns: the capture is damaged here" :
			     "no data, which read() never returns: the capture is damaged here");
		return 1;
	}
	print_missed(cpu, tracemap_subbuf_ts(&sb), tracemap_subbuf_missed(&sb));
	while ((r = tracemap_subbuf_next(&sb, &ev)) > 0) {
		if ((const unsigned char *)ev.data + ev.size > p + avail)
			break; /* the file ends inside this event */
		print_event(cpu, &ev);
	}
	if (avail < size) {
		warn("%s: sub-buffer %zu (byte %zu): the file ends %zu bytes into it; the events after byte %zu are lost",
		     c->name, idx, off, avail, c->len);
		return 1;
	}
	if (r < 0) {
		warn("%s: sub-buffer %zu (byte %zu): bad record at byte %zu; the rest of this sub-buffer is skipped",
		     c->name, idx, off,
		     off + c->layout.data_offset + tracemap_subbuf_pos(&sb));
		return 1;
	}
	return 0;
}

static int offline(const char *file, size_t size, int cpu, const char *tracefs)
{
	struct capture c = { .name = file };
	size_t page = (size_t)sysconf(_SC_PAGESIZE), guess, whole, fits;
	unsigned char *last = NULL;
	struct stat st;
	double share;
	void *map;
	int fd, ret = 0;

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		warn("%s: %s", file, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0) {
		warn("%s: %s", file,
		     S_ISREG(st.st_mode) ? "empty: no sub-buffers" :
					   "not a regular file");
		close(fd);
		return 1;
	}
	c.len = (size_t)st.st_size;
	map = mmap(NULL, c.len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		warn("%s: mmap: %s", file, strerror(errno));
		return 1;
	}
	c.buf = map;
	load_formats(tracefs, NULL);
	tracemap_layout_native(&c.layout);
	if (tracefs) {
		int r = tracemap_layout_load(&c.layout, tracefs);

		if (r == -EBADMSG)
			warn("%s/events/header_page: not understood; decoding with this machine's sub-buffer header",
			     tracefs);
		if (r)
			tracemap_layout_native(&c.layout);
	}

	if (all_zero(c.buf, c.len)) {
		warn("%s: all zero: no sub-buffers", file);
		munmap(map, c.len);
		return 1;
	}
	guess = guess_subbuf_size(&c, &share);
	if (!size) {
		size = guess ? guess : page;
		if (size != page)
			warn("%s: sub-buffers of %zu bytes (detected; --subbuf-size overrides)",
			     file, size);
	} else if (guess && guess != size && size <= c.len &&
		   (fits = count_fits(&c, size, &whole),
		    (whole ? (double)fits / (double)whole : 0) < share)) {
		warn("%s: %zu of the first %zu sub-buffers of %zu bytes do not look like what read() returns; it looks like sub-buffers of %zu bytes: try --subbuf-size %zu",
		     file, whole - fits, whole, size, guess, guess);
		munmap(map, c.len);
		return 1;
	}

	for (size_t idx = 0; idx * size < c.len && !out_errno; idx++) {
		size_t off = idx * size, avail = c.len - off;
		const unsigned char *p = c.buf + off;

		if (avail < size) {
			/* The last one is cut short: decode what is there. */
			last = calloc(1, size);
			if (!last) {
				warn("%s: out of memory", file);
				ret = 1;
				break;
			}
			memcpy(last, p, avail);
			p = last;
		} else {
			avail = size;
		}
		ret |= offline_subbuf(&c, idx, p, size, avail, cpu);
	}
	free(last);
	munmap(map, c.len);
	if (output)
		ret |= offline_output(file, size, cpu, tracefs);
	return out_flush() | ret;
}

/* --- live: the mapped buffers ---------------------------------------- */

//! [drain]
/*
 * Print the events of one CPU until its buffer has nothing new, or after
 * max_swaps new sub-buffers (a flood never ends), or on a failed write, or
 * on a signal (stop): the first one ends an unbounded drain, the second
 * any. Every loss is printed where it happened. Returns 0 or -errno.
 */
static int drain(struct tracemap *tm, unsigned int max_swaps)
{
	bool bounded = max_swaps != UINT_MAX;
	struct tracemap_item it;
	unsigned int swaps = 0;
	int r = 0;

	while (swaps < max_swaps && !out_errno && stop < (bounded ? 2 : 1)) {
		r = tracemap_read(tm, &it);
		if (r <= 0)
			break;
		swaps += it.new_subbuf;
		if (it.is_loss)
			print_loss(tm, &it.loss);
		else
			print_event(tracemap_cpu(tm), &it.ev);
	}
	return r < 0 ? r : 0;
}
//! [drain]

/* The buffer's directory (tracefs or instances/NAME), for buffer_subbufs() */
static char live_dir[600];

/*
 * One buffer's worth of sub-buffers: the bound of the final drain. Mapped:
 * the meta-page's count (which includes the reader's) plus one. read()
 * mode has no meta-page:
 * per_cpu/cpuN/buffer_size_kb, now (it shows the data the sub-buffers
 * hold, 16 bytes of header each left out, rounded down), plus the
 * reader's and one for the rounding; 4096 when that file cannot be read.
 */
static unsigned int buffer_subbufs(const struct tracemap *tm)
{
	const struct trace_buffer_meta *meta = tracemap_meta(tm);
	uint32_t data = tracemap_subbuf_size(tm) - 16;
	unsigned long long kb = 0;
	char path[700];
	FILE *f;

	if (meta)
		return meta->nr_subbufs + 1;
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/buffer_size_kb",
		 live_dir, tracemap_cpu(tm));
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &kb) != 1)
			kb = 0;
		fclose(f);
	}
	if (!kb || kb > (1ULL << 32) || tracemap_subbuf_size(tm) <= 16)
		return 4096;
	return (unsigned int)(kb * 1024 / data + 2);
}

/* About one buffer's worth of events (the smallest takes 12 bytes). */
static uint64_t buffer_events(const struct tracemap *tm)
{
	return (uint64_t)buffer_subbufs(tm) * tracemap_subbuf_size(tm) / 12;
}

/*
 * Open every online CPU (cpu < 0) or one, say which are offline or read
 * with read(), and start the --output file. 0, or 1 after an error.
 */
static int open_buffer(struct tracemap_merge *m, const char *tracefs,
		       const char *instance, int cpu)
{
	int n = tracemap_merge_open(m, tracefs, instance, cpu < 0 ? NULL : &cpu,
				    cpu < 0 ? 0 : 1, TRACEMAP_FALLBACK_READ);
	int offline = n < 0 ? 0 : tracemap_merge_offline(m);
	char dir[600];

	if (n <= 0) {
		warn("%s",
		     n < 0 ? tracemap_merge_error(m) : "no CPU could be read");
		if (n == 0)
			tracemap_merge_close(m);
		return 1;
	}
	if (offline == 1)
		warn("%s: not read (nor when it comes online later)",
		     tracemap_merge_error(m));
	else if (offline > 1)
		warn("%d CPUs are offline, the last: %s: not read (nor when they come online later)",
		     offline, tracemap_merge_error(m));
	for (int i = 0; i < n; i++) {
		const char *notice = tracemap_notice(tracemap_merge_map(m, i));

		if (notice[0])
			warn("%s", notice);
	}
	load_formats(tracefs, instance);
	if (tracefs)
		buffer_dir(live_dir, sizeof(live_dir), tracefs, instance);
	if (output) {
		output_start(buffer_dir(dir, sizeof(dir), tracefs, instance),
			     m);
		tracemap_merge_set_hook(m, record, NULL);
	}
	return 0;
}

/* The last sub-buffers into the --output file, then close. 0 or 1. */
static int close_buffer(struct tracemap_merge *m)
{
	int ret = output_finish(m);

	tracemap_merge_close(m);
	return ret;
}

/* Each CPU in turn (--per-cpu, or --cpu N), in time order per CPU only. */
static int live(const char *tracefs, const char *instance, int cpu,
		bool nonblock, int interval)
{
	static struct pollfd pfds[TRACEMAP_MERGE_MAX_CPUS];
	struct tracemap_merge m;
	int n, ret = 0;

	if (open_buffer(&m, tracefs, instance, cpu))
		return 1;
	n = tracemap_merge_count(&m);
	for (int i = 0; i < n; i++) {
		pfds[i].fd = tracemap_fd(tracemap_merge_map(&m, i));
		pfds[i].events = POLLIN;
	}
	while (!stop && !ret) {
		for (int i = 0; i < n && !ret && !stop; i++) {
			struct tracemap *tm = tracemap_merge_map(&m, i);

			if (drain(tm, UINT_MAX) < 0) {
				warn("%s", tracemap_error(tm));
				ret = 1;
			}
		}
		ret |= out_flush();
		if (nonblock)
			break;
		/* Wakes when a CPU reaches buffer_percent, or after interval. */
		if (!ret && !stop &&
		    poll(pfds, (nfds_t)n, interval ? interval : -1) < 0 &&
		    errno != EINTR) {
			warn("poll: %s", strerror(errno));
			ret = 1;
		}
	}
	/*
	 * Stopped by a signal: print what arrived since the last look, but at
	 * most one buffer's worth per CPU, so that a flood cannot hold us (a
	 * second signal cuts even that short).
	 */
	for (int i = 0; i < n && stop && !ret; i++) {
		struct tracemap *tm = tracemap_merge_map(&m, i);

		if (drain(tm, buffer_subbufs(tm)) < 0) {
			warn("%s", tracemap_error(tm));
			ret = 1;
		}
	}
	if (stop)
		ret |= out_flush();
	return ret | close_buffer(&m);
}

/*
 * Say so when the merged stream went back in time: every event is there, but
 * some came after later ones. Found missing at least the watermark after
 * their stamp, they were slow to become readable; found missing sooner, the
 * merge's bound on when they were written failed.
 */
static void report_late(const struct tracemap_merge_late *late, int watermark)
{
	double behind_ms = late->max_behind / 1e6,
	       hidden_ms = late->max_hidden_ns / 1e6;
	char why[256];

	if (!late->count)
		return;
	if (late->clock_changed)
		snprintf(
			why, sizeof(why),
			": trace_clock was set while reading (which resets the buffers)");
	else if (!late->ns)
		snprintf(
			why, sizeof(why),
			" (by up to %llu clock units): raise --watermark (%d ms), unless trace_clock was set while reading",
			(unsigned long long)late->max_behind, watermark);
	else if (!late->max_hidden_ns)
		snprintf(
			why, sizeof(why),
			" (by up to %.3f ms): raise --watermark (%d ms), unless trace_clock was set while reading",
			behind_ms, watermark);
	else if (hidden_ms >= watermark)
		snprintf(
			why, sizeof(why),
			" (by up to %.3f ms): they became readable at least %.3f ms after their stamp, past --watermark %d ms: raise it above that",
			behind_ms, hidden_ms, watermark);
	else
		snprintf(
			why, sizeof(why),
			" (by up to %.3f ms), though found missing only %.3f ms after their stamp, within --watermark %d ms: is trace_clock in step with CLOCK_MONOTONIC, or was it set while reading?",
			behind_ms, hidden_ms, watermark);
	warn("%llu event(s) printed after an event with a later time stamp%s",
	     (unsigned long long)late->count, why);
}

/*
 * Several CPUs merged in time order (tracemerge.h). Stopped by a signal,
 * it prints what the buffers hold, at most about one buffer's worth.
 */
static int live_merged(const char *tracefs, const char *instance, bool nonblock,
		       int interval, int watermark)
{
	struct tracemap_merge_item it;
	struct tracemap_merge m;
	uint64_t left = 0; /* events the final drain may still print */
	bool draining = false;
	int r, ret = 0;

	if (open_buffer(&m, tracefs, instance, -1))
		return 1;
	tracemap_merge_set_watermark(&m, watermark);
	while (!out_errno && stop < 2 && (!draining || left--)) {
		if (!draining && (nonblock || stop)) {
			/* the buffers' size now (read() mode: it can change) */
			for (int i = 0; i < tracemap_merge_count(&m); i++)
				left += buffer_events(
					tracemap_merge_map(&m, i));
			tracemap_merge_drain(&m);
			draining = true;
		}
		r = tracemap_merge_next(&m, &it, interval ? interval : -1);
		if (r == -EINTR)
			continue; /* the signal set stop */
		if (r < 0) {
			warn("%s", tracemap_merge_error(&m));
			ret = 1;
			break;
		}
		if (r == 0) {
			ret |= out_flush();
			if (draining || ret)
				break;
		} else if (it.is_loss) {
			print_loss(tracemap_merge_map(&m, it.idx), &it.loss);
		} else {
			print_event(it.cpu, &it.ev);
		}
	}
	ret |= out_flush();
	report_late(tracemap_merge_late(&m), watermark);
	return ret | close_buffer(&m);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPT_CPU,
		{ "instance", required_argument, NULL, 'i' },
		CLI_OPT_TRACEFS,
		{ "nonblock", no_argument, NULL, 'n' },
		{ "interval", required_argument, NULL, 'I' },
		{ "offline", required_argument, NULL, 'o' },
		{ "subbuf-size", required_argument, NULL, 's' },
		CLI_OPT_HELP,
		{ "output", required_argument, NULL, 'O' },
		{ "per-cpu", no_argument, NULL, 'p' },
		{ "watermark", required_argument, NULL, 'w' },
		{ 0 }
	};
	long watermark = TRACEMAP_MERGE_WATERMARK_MS;
	bool per_cpu = false;
	const char *instance = NULL, *tracefs = NULL, *file = NULL;
	long cpu = -1, interval = INTERVAL_MS, subbuf_size = 0;
	bool nonblock = false;
	struct sigaction sa = { .sa_handler = on_signal };
	int opt, ret;

	cli_start("trace_stream");
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (cli_number("--cpu", optarg, 0,
				       TRACEMAP_MERGE_MAX_CPUS - 1, &cpu))
				return 2;
			break;
		case 'i':
			instance = optarg;
			break;
		case 't':
			tracefs = optarg;
			break;
		case 'n':
			nonblock = true;
			break;
		case 'I':
			if (cli_number("--interval", optarg, 0, INT32_MAX,
				       &interval))
				return 2;
			break;
		case 'o':
			file = optarg;
			break;
		case 's':
			if (cli_number("--subbuf-size", optarg, 64, 1L << 30,
				       &subbuf_size))
				return 2;
			break;
		case 'O':
			if (!optarg[0])
				return cli_usage_error(
					"--output: no file name");
			output = optarg;
			break;
		case 'p':
			per_cpu = true;
			break;
		case 'w':
			if (cli_number("--watermark", optarg, 0, 60000,
				       &watermark))
				return 2;
			break;
		default:
			return cli_other_option(opt, usage_text, argv, optind);
		}
	}
	if (cli_operands(argc, argv, optind, 0, 0, NULL))
		return 2;
	if (subbuf_size && !file)
		return cli_usage_error(
			"--subbuf-size only goes with --offline");
	if (!tracefs)
		tracefs = tracemap_tracefs();
	/* A closed pipe is a write error like any other: report it. */
	signal(SIGPIPE, SIG_IGN);
	if (file) {
		offline_file = file;
		ret = offline(file, (size_t)subbuf_size, cpu < 0 ? 0 : (int)cpu,
			      tracefs);
	} else {
		sigaction(SIGINT, &sa, NULL); /* no SA_RESTART: poll returns */
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL); /* a closed terminal: drain too */
		if (cpu < 0 && !per_cpu)
			ret = live_merged(tracefs, instance, nonblock,
					  (int)interval, (int)watermark);
		else
			ret = live(tracefs, instance, (int)cpu, nonblock,
				   (int)interval);
	}
	tracemap_formats_free(&formats);
	return ret;
}
