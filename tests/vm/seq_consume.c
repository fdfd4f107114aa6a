// SPDX-License-Identifier: MIT
/*
 * seq_consume: consume one CPU's ring buffer while the sequenced producer
 * (examples/modules/seq_producer) writes into it, through
 * read(), splice() or the mapping (examples/lib/tracemap.c), and account for
 * every sequence number. Used by tests/vm/accounting.test.sh (is every
 * event delivered or reported lost?) and tests/vm/bench-run.sh (how fast,
 * at what CPU cost?).
 *
 *   seq_consume --mode read|splice|mmap|none|busy|floor [--cpu N] [--on N]
 *               [--start] [--slow-us US] [--interval MS] [--wait W]
 *               [--quick] [--probe] [--latency] [--bytes N] [--gaps]
 *
 * --cpu: the buffer to consume (default 0); --on: the CPU to run on
 * (default: the other of CPUs 0 and 1); --start: write 1 to the producer's
 * "run" parameter once the consumer is ready (else a run must be under
 * way or over); --slow-us: sleep that long after each sub-buffer, a slow
 * consumer; --interval: poll() timeout while waiting (default 20 ms; 0:
 * poll() returns at once, a busy loop); --wait: how the consumer waits
 * for events: "poll" (the default, poll() with --interval's timeout),
 * "forever" (poll() with no timeout: woken only at buffer_percent, as
 * trace_stream --interval 0) or "block" (mmap only: the library's own
 * wait, tracemap_get_reader() without TRACEMAP_NONBLOCK); forever and
 * block need --start: a child process, told once we have started the
 * producer, looks at it every 50 ms and, once the run has ended, sends
 * SIGUSR1 every 10 ms (signals= counts them), to end a wait that
 * buffer_percent would not; --latency: how long after its time stamp each event reached the
 * consumer (needs trace_clock mono, the clock of CLOCK_MONOTONIC);
 * --quick: check sequence numbers but not payload bytes (benchmarks);
 * --probe: also time each transport call and each poll() (benchmarks);
 * --gaps: one line on stderr for each gap in the sequence numbers and each
 * loss report before an event, "gap: seq=S events=N reported=R" (S: the
 * event after it; N: the events missing before S, 0 when a report came
 * with no gap; R: the count the library reported since the event before,
 * and "from=" its source (the sub-buffer, the meta-page's
 * reader.lost_events or its overrun since the last swap...), "unknown"
 * for a loss of unknown size, "none"); and before the gap line of a loss
 * of unknown size, "unknown: WHY" (the library's reason, tracemap_error()).
 * Two more modes for the benchmarks: "none" attaches no consumer while the
 * producer runs, then reads what is left with read() (the producer's own
 * rate, from the timestamps); "busy" is "none" spinning on its CPU
 * meanwhile (what a busy CPU 1 alone costs the producer); "floor" reads the buffer's sub-buffers into
 * memory (not timed), then decodes that image again and again, as the
 * read() consumer decodes, until --bytes payload bytes are decoded: what
 * the decoding alone costs, the floor under every consumer.
 * The consumer drains the buffer until the producer's run has ended and
 * nothing is left, then prints one line of key=value pairs:
 *
 *   produced   events the run wrote (its "produced" parameter)
 *   delivered  events consumed, each in sequence
 *   missed     overwritten events the library reported with a count
 *              (from the sub-buffer, the meta-page or its overrun)
 *   missed_meta    the part of missed whose count came from the
 *              meta-page's reader.lost_events (kernel-patches/0001)
 *   unknown    losses the library reported without a count
 *   unknown_room   of those, in read() and splice() modes, on a sub-buffer
 *              with room after its events for the kernel's count (a long):
 *              the kernel stores it whenever it fits, so this must be 0
 *   unknown_gaps, unknown_events   the holes in the sequence numbers that
 *              came after a loss without a count, and the events in them
 *   dropped    events dropped with options/overwrite 0, as the library
 *              reported them (per_cpu/cpuN/stats; mmap only)
 *   resets, other_reader   losses of those kinds (mmap only)
 *   meta_lost  sum of the meta-page's reader.lost_events after each swap
 *              (mmap only; non-zero needs kernel-patches/0001)
 *   gaps, gap_events   holes in the sequence numbers, and events in them
 *   matched    gaps whose size is the sum of the counts reported since
 *              the event before them (one count, unless a count came with
 *              a sub-buffer that held no event)
 *   merged     counts reported with no event since the one before
 *   trailing   events missing after the last one delivered
 *   bad        events out of order, repeated, of another type or with a
 *              wrong payload
 *   bytes      payload bytes delivered; subbufs: sub-buffers consumed
 *   wall_ns, cpu_ns    elapsed time and the consumer's CPU time (user +
 *              system, CLOCK_PROCESS_CPUTIME_ID), from the start of the run
 *              to the end of the drain
 *   utime_ns, stime_ns   the same CPU time split into user and system by
 *              getrusage() (tick-sampled: a ratio, not an exact count)
 *   minflt     minor page faults in that time (first touches)
 *   calls      transport calls: read() and splice() system calls, or
 *              tracemap_get_reader() calls (each one or two GET_READERs)
 *   empty      those that found nothing new
 *   call_ns    wall time inside them (--probe only, else 0)
 *   decode_ns  wall time decoding and checking the events (--probe only)
 *   polls, poll_ns   poll() calls and the wall time blocked in them
 *              (poll_ns with --probe only)
 *   max_poll_ns, max_gap_ns   --probe: the longest poll(), and the longest
 *              time from the end of one transport call to the start of
 *              the next
 *   floor_min_ns, floor_max_ns   floor: cpu_ns is the median of FLOOR_TRIALS
 *              decodings of --bytes, these the fastest and slowest
 *   seq_first, seq_last, ts_span_ns   first and last sequence number
 *              delivered, and the time between their timestamps: the
 *              producer's rate, whatever the consumer's own timing
 *   sleeps     voluntary context switches of the consumer (getrusage()):
 *              each a wait that ended, by the buffer's wake-up, a poll()
 *              timeout or a signal (signals=)
 *   signals    --wait forever or block: the SIGUSR1 the watcher sent after
 *              the run ended (0: the last drain needed none); else 0
 *   lat_med_ns, lat_p99_ns, lat_max_ns   --latency: median, 99th
 *              percentile and largest of (CLOCK_MONOTONIC when the
 *              consumer had decoded the batch of events holding the event)
 *              - (the event's time stamp), over the events delivered; 0
 *              without --latency
 *
 * Exit status: 0, 1 on an error (one line on stderr), 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "tracemap.h"

#define PARAMS "/sys/module/seq_producer/parameters/"
#define BATCH 64 /* sub-buffers per splice() */

enum mode { M_READ, M_SPLICE, M_MMAP, M_NONE, M_BUSY, M_FLOOR };

static struct {
	int type; /* event ID of seq_producer:seq_event */
	struct tracemap_field seq, len, payload; /* its fields */
} fmt;

static struct tracemap_layout layout; /* of the sub-buffers read() returns */

static struct {
	uint64_t next; /* sequence number expected next */
	uint64_t delivered, missed, missed_meta, unknown, dropped, resets;
	uint64_t other_reader;
	uint64_t meta_lost, gaps, gap_events;
	uint64_t unknown_room, unknown_gaps, unknown_events;
	uint64_t matched, merged, bad, bytes, subbufs;
	uint64_t seq_first, ts_first, ts_last; /* of the events delivered */
	int64_t pending; /* missed reported since the last event */
	bool pending_set;
	bool unknown_set; /* a loss of unknown size since the last event */
	/* where the last count came from */
	enum tracemap_loss_source pending_src;
} st;

static unsigned int slow_us;
static bool quick; /* --quick: do not check payload bytes */
static bool probe; /* --probe: time transport calls and poll() */
static bool latency; /* --latency: each event's delay */
static bool gaps_out; /* --gaps: each gap and loss report on stderr */

/* --latency: time stamps of the events delivered, then their delays. */
static struct {
	uint64_t *v;
	size_t n, done, cap; /* [0, done): delays; [done, n): time stamps */
} lat;

static volatile sig_atomic_t ended; /* SIGUSR1: the producer's run ended */

/* Transport calls and waits (--probe: their wall time too). */
static struct {
	uint64_t calls, empty, call_ns, polls, poll_ns, decode_ns;
	uint64_t last_ns, max_gap_ns, max_poll_ns; /* last call's end */
} pr;

static int die(const char *fmt_str, const char *arg)
{
	fprintf(stderr, "seq_consume: ");
	fprintf(stderr, fmt_str, arg);
	fprintf(stderr, "\n");
	exit(1);
}

static int read_param(const char *name, char *buf, size_t len)
{
	char path[128];
	int fd, n;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = (int)read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static bool producer_running(void)
{
	char buf[16];

	if (read_param("run", buf, sizeof(buf)))
		die("cannot read %s (is seq_producer loaded?)", PARAMS "run");
	return buf[0] == '1';
}

static uint64_t produced(void)
{
	char buf[32];

	if (read_param("produced", buf, sizeof(buf)))
		die("cannot read %s", PARAMS "produced");
	return strtoull(buf, NULL, 10);
}

/* seq_event and its fields, from its format file; the sub-buffer layout. */
static void load_format(const char *tracefs)
{
	static const char *const names[] = { "seq", "len", "payload" };
	struct tracemap_field *dst[] = { &fmt.seq, &fmt.len, &fmt.payload };
	const struct tracemap_format *f;
	struct tracemap_formats fs;
	int r;

	r = tracemap_formats_load(&fs, tracefs);
	if (r < 0)
		die("%s", tracemap_formats_error(&fs));
	f = tracemap_formats_find_name(&fs, "seq_producer", "seq_event");
	if (!f)
		die("no seq_producer/seq_event in %s/events (load seq_producer.ko)",
		    tracefs);
	fmt.type = f->id;
	for (int i = 0; i < 3; i++) {
		const struct tracemap_field *fl =
			tracemap_format_field(f, names[i]);

		if (!fl)
			die("seq_event's format has no field %s", names[i]);
		*dst[i] = *fl;
	}
	tracemap_formats_free(&fs);
	r = tracemap_layout_load(&layout, tracefs);
	if (r)
		die("cannot read %s/events/header_page", tracefs);
}

static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec;
}

/* The scheduler's count, in ns; getrusage() has only tick resolution. */
static uint64_t cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return ns_of(&t);
}

/* a - b, two getrusage() times, in ns */
static uint64_t tv_ns(const struct timeval *a, const struct timeval *b)
{
	return (uint64_t)(a->tv_sec - b->tv_sec) * 1000000000ULL +
	       (uint64_t)((int64_t)a->tv_usec - b->tv_usec) * 1000ULL;
}

/* --probe: the monotonic clock, else 0 (no clock read at all). */
static uint64_t probe_ns(void)
{
	struct timespec t;

	if (!probe)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return ns_of(&t);
}

/*
 * One transport call that began at t0 (probe_ns()) has returned. --probe:
 * its time, and the longest time from the end of one call to the start of
 * the next (decoding, waiting, or not running at all).
 */
static void call_done(uint64_t t0, bool empty)
{
	uint64_t t1 = probe_ns();

	pr.calls++;
	pr.empty += empty;
	if (!probe)
		return;
	pr.call_ns += t1 - t0;
	if (pr.last_ns && t0 - pr.last_ns > pr.max_gap_ns)
		pr.max_gap_ns = t0 - pr.last_ns;
	pr.last_ns = t1;
}

/* A loss the library reported: count it by kind. */
static void loss(const struct tracemap_reader *rd)
{
	switch (rd->loss) {
	case TRACEMAP_LOSS_NONE:
		return;
	case TRACEMAP_LOSS_COUNTED:
		st.missed += rd->count;
		if (rd->source == TRACEMAP_SRC_META)
			st.missed_meta += rd->count;
		st.merged += st.pending_set;
		st.pending =
			(st.pending_set ? st.pending : 0) + (int64_t)rd->count;
		st.pending_set = true;
		st.pending_src = rd->source;
		return;
	case TRACEMAP_LOSS_UNKNOWN:
		st.unknown++;
		st.unknown_set = true;
		break;
	case TRACEMAP_LOSS_DROPPED:
		st.dropped += rd->count;
		break;
	case TRACEMAP_LOSS_RESET:
		st.resets++;
		break;
	case TRACEMAP_LOSS_OTHER_READER:
		st.other_reader++;
		break;
	}
	st.pending_set = false;
}

/*
 * A sub-buffer read() or splice() returned: what it reported as lost, and
 * room, the bytes after its events, where the kernel stores the count.
 */
static void subbuf_start(int64_t missed, uint32_t room)
{
	struct tracemap_reader rd = { .loss = TRACEMAP_LOSS_NONE };

	st.subbufs++;
	if (missed > 0) {
		rd.loss = TRACEMAP_LOSS_COUNTED;
		rd.count = (uint64_t)missed;
	} else if (missed == TRACEMAP_MISSED_UNKNOWN) {
		rd.loss = TRACEMAP_LOSS_UNKNOWN;
		st.unknown_room += room >= layout.commit_size;
	}
	loss(&rd);
}

/* Is the payload of event seq what the producer wrote? */
static bool payload_ok(const struct tracemap_event *ev, uint64_t seq)
{
	const unsigned char *p;
	const void *data;
	uint64_t len;
	uint32_t n;

	if (tracemap_field_value(&fmt.len, ev, &len) ||
	    tracemap_field_bytes(&fmt.payload, ev, &data, &n) || n != len)
		return false;
	p = data;
	for (uint32_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(seq + i))
			return false;
	return true;
}

/* --gaps: the line of a gap or a loss report before the event seq. */
static void gap_line(uint64_t seq)
{
	static const char *const from[] = { "none",	"subbuf", "meta",
					    "overrun",	"stats",  "read-count",
					    "last-look" };
	char said[48] = "none";

	if (st.unknown_set)
		snprintf(said, sizeof(said), "unknown");
	else if (st.pending_set)
		snprintf(said, sizeof(said), "%lld from=%s",
			 (long long)st.pending,
			 (size_t)st.pending_src < sizeof(from) / sizeof(*from) ?
				 from[st.pending_src] :
				 "?");
	fprintf(stderr, "gap: seq=%llu events=%llu reported=%s\n",
		(unsigned long long)seq, (unsigned long long)(seq - st.next),
		said);
}

static void event(const struct tracemap_event *ev)
{
	uint64_t seq;

	if (tracemap_event_type(ev) != fmt.type ||
	    tracemap_field_value(&fmt.seq, ev, &seq)) {
		st.bad++;
		return;
	}
	if (seq < st.next || (!quick && !payload_ok(ev, seq))) {
		st.bad++;
		return;
	}
	if (gaps_out && (seq > st.next || st.pending_set || st.unknown_set))
		gap_line(seq);
	if (seq > st.next) {
		st.gaps++;
		st.gap_events += seq - st.next;
		if (st.unknown_set) {
			st.unknown_gaps++;
			st.unknown_events += seq - st.next;
		}
		if (st.pending_set && st.pending == (int64_t)(seq - st.next))
			st.matched++;
	}
	st.pending_set = false;
	st.unknown_set = false;
	st.next = seq + 1;
	if (!st.delivered++) {
		st.seq_first = seq;
		st.ts_first = ev->ts;
	}
	st.ts_last = ev->ts;
	st.bytes += ev->size;
	if (latency) {
		if (lat.n == lat.cap) {
			size_t cap = lat.cap ? 2 * lat.cap : 65536;
			uint64_t *v = realloc(lat.v, cap * sizeof(*v));

			if (!v)
				die("%s", "out of memory");
			lat.v = v;
			lat.cap = cap;
		}
		lat.v[lat.n++] = ev->ts;
	}
}

/* --latency: the events decoded since the last call reached us now. */
static void lat_flush(void)
{
	struct timespec t;
	uint64_t now;

	if (!latency || lat.done == lat.n)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	now = ns_of(&t);
	for (; lat.done < lat.n; lat.done++)
		lat.v[lat.done] =
			now > lat.v[lat.done] ? now - lat.v[lat.done] : 0;
}

/* Decode a sub-buffer that read() or splice() returned. */
static void subbuf_copy(const unsigned char *buf, size_t size)
{
	uint64_t t0 = probe_ns();
	struct tracemap_subbuf sb;
	struct tracemap_event ev;
	int r;

	if (tracemap_subbuf_load(&sb, &layout, buf, size, false))
		die("%s", "a sub-buffer's commit is past its end");
	subbuf_start(tracemap_subbuf_missed(&sb),
		     (uint32_t)size - layout.data_offset -
			     tracemap_subbuf_commit(&sb));
	while ((r = tracemap_subbuf_next(&sb, &ev)) > 0)
		event(&ev);
	if (r < 0) {
		fprintf(stderr,
			"seq_consume: sub-buffer %llu: bad record at byte %u\n",
			(unsigned long long)st.subbufs - 1,
			tracemap_subbuf_pos(&sb));
		exit(1);
	}
	lat_flush();
	if (probe)
		pr.decode_ns += probe_ns() - t0;
	if (slow_us)
		usleep(slow_us);
}

/* read(): one sub-buffer per call. Returns sub-buffers read, 0 if none. */
static int consume_read(int fd, unsigned char *buf, size_t size)
{
	int n = 0;

	for (;;) {
		uint64_t t0 = probe_ns();
		ssize_t r = read(fd, buf, size);

		call_done(t0, r <= 0);
		if (r < 0 && errno == EAGAIN)
			return n;
		if (r < 0)
			die("read: %s", strerror(errno));
		if (r == 0)
			return n;
		if ((size_t)r != size)
			die("%s", "read returned part of a sub-buffer");
		subbuf_copy(buf, size);
		n++;
	}
}

/*
 * splice(): whole sub-buffers into a pipe, then out of the pipe into buf.
 * The kernel splices only full sub-buffers (not the one being written).
 */
static int consume_splice(int fd, const int pipefd[2], unsigned char *buf,
			  size_t size)
{
	int n = 0;

	for (;;) {
		uint64_t t0 = probe_ns();
		ssize_t r = splice(fd, NULL, pipefd[1], NULL, BATCH * size,
				   SPLICE_F_NONBLOCK);
		size_t got = 0;

		call_done(t0, r <= 0);
		if (r < 0 && errno == EAGAIN)
			return n;
		if (r < 0)
			die("splice: %s", strerror(errno));
		if (r == 0)
			return n;
		while (got < (size_t)r) {
			ssize_t m;

			t0 = probe_ns();
			m = read(pipefd[0], buf + got, (size_t)r - got);
			call_done(t0, false);
			if (m <= 0)
				die("%s", "read from the pipe failed");
			got += (size_t)m;
		}
		if (got % size)
			die("%s", "splice moved part of a sub-buffer");
		for (size_t off = 0; off < got; off += size, n++)
			subbuf_copy(buf + off, size);
	}
}

//! [mmap-consumer]
/*
 * The mapping: events where the writer put them, one ioctl per swap.
 * Returns the number of get_reader calls that found something.
 */
static int consume_mmap(struct tracemap *tm)
{
	struct tracemap_reader rd;
	struct tracemap_event ev;
	uint64_t t0;
	int n = 0, r;

	for (;;) {
		t0 = probe_ns();
		while ((r = tracemap_next(tm, &ev)) > 0)
			event(&ev);
		lat_flush();
		if (probe)
			pr.decode_ns += probe_ns() - t0;
		if (r < 0)
			die("%s", tracemap_error(tm));
		if (n && slow_us)
			usleep(slow_us);
		t0 = probe_ns();
		r = tracemap_get_reader(tm, &rd);
		call_done(t0, r <= 0);
		if (r == -EINTR && ended)
			return n; /* --wait block: the run's end woke us */
		if (r < 0)
			die("%s", tracemap_error(tm));
		loss(&rd); /* on every return: drops come with 0 */
		if (gaps_out && rd.loss == TRACEMAP_LOSS_UNKNOWN)
			fprintf(stderr, "unknown: %s\n", tracemap_error(tm));
		if (r == 0)
			return n;
		if (rd.new_subbuf) {
			st.subbufs++;
			st.meta_lost += tracemap_meta(tm)->reader.lost_events;
		}
		n++;
	}
}
//! [mmap-consumer]

/*
 * The floor: the sub-buffers the buffer holds now, read into memory with
 * read() (not timed), *n of them. Exits when there are none.
 */
static unsigned char *floor_capture(int fd, size_t size, size_t *n)
{
	unsigned char *img = NULL;

	for (*n = 0;; ++*n) {
		unsigned char *p = realloc(img, (*n + 1) * size);
		ssize_t r;

		if (!p)
			die("%s", "out of memory");
		img = p;
		r = read(fd, img + *n * size, size);
		if (r == 0 || (r < 0 && errno == EAGAIN))
			break;
		if (r < 0)
			die("read: %s", strerror(errno));
		if ((size_t)r != size)
			die("%s", "read returned part of a sub-buffer");
	}
	if (!*n)
		die("%s",
		    "--mode floor: the buffer is empty (run the producer first)");
	return img;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Decode the image as read() delivers it until target payload bytes,
 * FLOOR_TRIALS times: trial[] gets each one's CPU time, sorted.
 */
#define FLOOR_TRIALS 5
static void floor_decode(const unsigned char *img, size_t n, size_t size,
			 uint64_t target, uint64_t trial[FLOOR_TRIALS])
{
	uint64_t first;

	for (size_t i = 0; i < n; i++) /* once, not timed: its first event */
		subbuf_copy(img + i * size, size);
	if (!st.delivered || st.bad)
		die("%s", "--mode floor: the buffer holds no good seq_event");
	first = st.seq_first;
	/* an image of the same bytes, decoded again: each pass in sequence */
	for (int t = 0; t < FLOOR_TRIALS; t++) {
		uint64_t c0 = cpu_ns();

		memset(&st, 0, sizeof(st));
		do {
			st.next = first;
			for (size_t i = 0; i < n; i++)
				subbuf_copy(img + i * size, size);
		} while (st.bytes < target);
		trial[t] = cpu_ns() - c0;
	}
	qsort(trial, FLOOR_TRIALS, sizeof(trial[0]), cmp_u64);
}

/* busy: spin on this CPU for ms milliseconds, touching nothing. */
static void busy(int ms)
{
	struct timespec t;
	uint64_t end;

	clock_gettime(CLOCK_MONOTONIC, &t);
	end = ns_of(&t) + (uint64_t)ms * 1000000ULL;
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while (ns_of(&t) < end);
}

static void on_usr1(int sig)
{
	(void)sig;
	ended = 1;
}

/*
 * --wait forever or block: a child that waits until we have started the
 * producer (a byte on go[0]: "run" reads 0 before that, as after the run),
 * then looks at the producer every 50 ms and, once its run has ended,
 * sends us SIGUSR1 every 10 ms (a signal that comes just before we block
 * is not lost for good) until we kill it. *sent counts the signals (shared
 * memory), printed as signals=.
 */
static pid_t start_watcher(int go[2], volatile unsigned long *sent)
{
	struct sigaction sa = { .sa_handler = on_usr1 }; /* no SA_RESTART */
	pid_t parent = getpid(), pid;
	char c;

	sigaction(SIGUSR1, &sa, NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid) {
		close(go[0]);
		return pid;
	}
	close(go[1]);
	if (read(go[0], &c, 1) != 1)
		_exit(0); /* the parent ended before starting a run */
	while (producer_running())
		usleep(50000);
	while (getppid() == parent) {
		(*sent)++;
		if (kill(parent, SIGUSR1))
			break;
		usleep(10000);
	}
	_exit(0);
}

static void write_run(void)
{
	int fd = open(PARAMS "run", O_WRONLY);

	if (fd < 0 || write(fd, "1", 1) != 1)
		die("cannot start the producer: %s", strerror(errno));
	close(fd);
}

static const char usage_text[] =
	"usage: seq_consume --mode read|splice|mmap|none|busy|floor\n"
	"                   [--cpu N] [--on N] [--start] [--slow-us US]\n"
	"                   [--interval MS] [--wait poll|forever|block]\n"
	"                   [--quick] [--probe] [--latency] [--bytes N] [--gaps]\n"
	"Consume one CPU's buffer while seq_producer writes into it and print\n"
	"one line of counts (see the top of tests/vm/seq_consume.c).\n"
	"  --mode M       read(), splice() or the mapping (examples/lib/tracemap.c);\n"
	"                 none: no consumer until the run ends, then read();\n"
	"                 busy: as none, spinning on the CPU meanwhile;\n"
	"                 floor: decode the buffer's contents in memory\n"
	"  --cpu N        the buffer to consume (default 0)\n"
	"  --on N         the CPU to run on (default: the other of 0 and 1)\n"
	"  --start        start the producer once ready\n"
	"  --slow-us US   sleep that long after each sub-buffer\n"
	"  --interval MS  poll() timeout while waiting (default 20; 0: none,\n"
	"                 a busy loop)\n"
	"  --wait W       poll: poll() with --interval's timeout (default);\n"
	"                 forever: poll() with no timeout; block (mmap): the\n"
	"                 library waits in tracemap_get_reader(); forever and\n"
	"                 block need --start\n"
	"  --quick        check sequence numbers, not payload bytes\n"
	"  --probe        time each transport call and each poll()\n"
	"  --latency      each event's delay from its time stamp to the\n"
	"                 consumer (needs trace_clock mono)\n"
	"  --bytes N      floor: decode at least N payload bytes (default: once)\n"
	"  --gaps         each gap and loss report on stderr, a line each\n"
	"  --help         print this and exit\n";

/* The number of option opt, in [0, 2^30]; exits 2 when it is not one. */
static long number(const char *opt, const char *arg)
{
	long v;

	if (cli_number(opt, arg, 0, 1L << 30, &v))
		exit(2);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' },
		CLI_OPT_CPU,
		{ "on", required_argument, NULL, 'o' },
		{ "start", no_argument, NULL, 's' },
		{ "slow-us", required_argument, NULL, 'u' },
		{ "interval", required_argument, NULL, 'i' },
		{ "quick", no_argument, NULL, 'q' },
		{ "probe", no_argument, NULL, 'p' },
		{ "wait", required_argument, NULL, 'w' },
		{ "latency", no_argument, NULL, 'l' },
		{ "bytes", required_argument, NULL, 'b' },
		{ "gaps", no_argument, NULL, 'g' },
		CLI_OPT_HELP,
		CLI_OPT_END
	};
	static const char *const names[] = { "read", "splice", "mmap",
					     "none", "busy",   "floor" };
	static const char *const waits[] = { "poll", "forever", "block" };
	int mode = -1, cpu = 0, on = -1, interval = 20, opt, fd = -1;
	int wait_how = 0; /* index in waits[] */
	pid_t watcher = -1;
	int go[2] = { -1, -1 }; /* the watcher waits on go[0] for the run */
	volatile unsigned long *sent = NULL; /* signals the watcher sent */
	uint64_t lat_med = 0, lat_p99 = 0, lat_max = 0;
	int pipefd[2] = { -1, -1 };
	bool start = false, done = false;
	const char *tracefs = tracemap_tracefs();
	struct tracemap tm;
	unsigned char *buf = NULL, *img = NULL;
	size_t size = 0, img_n = 0;
	struct timespec t0, t1;
	struct rusage ru0, ru1;
	uint64_t c0, c1, total, target = 0, trial[FLOOR_TRIALS] = { 0 };
	char path[256];
	cpu_set_t set;

	cli_start("seq_consume");
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			for (int i = 0; i < 6; i++)
				if (!strcmp(optarg, names[i]))
					mode = i;
			if (mode < 0)
				return cli_usage_error(
					"--mode: read, splice, mmap, none, busy or floor, not '%s'",
					optarg);
			break;
		case 'c':
			cpu = (int)number("--cpu", optarg);
			break;
		case 'o':
			on = (int)number("--on", optarg);
			break;
		case 's':
			start = true;
			break;
		case 'u':
			slow_us = (unsigned int)number("--slow-us", optarg);
			break;
		case 'i':
			interval = (int)number("--interval", optarg);
			break;
		case 'q':
			quick = true;
			break;
		case 'p':
			probe = true;
			break;
		case 'w':
			wait_how = -1;
			for (int i = 0; i < 3; i++)
				if (!strcmp(optarg, waits[i]))
					wait_how = i;
			if (wait_how < 0)
				return cli_usage_error(
					"--wait: poll, forever or block, not '%s'",
					optarg);
			break;
		case 'l':
			latency = true;
			break;
		case 'b':
			target = (uint64_t)number("--bytes", optarg);
			break;
		case 'g':
			gaps_out = true;
			break;
		case 'h':
			return cli_help(usage_text);
		default:
			return cli_bad_option(argv, optind);
		}
	}
	if (mode < 0)
		return cli_usage_error("--mode is required");
	if (wait_how == 2 && mode != M_MMAP)
		return cli_usage_error("--wait block needs --mode mmap");
	if (wait_how && (mode >= M_NONE))
		return cli_usage_error("--wait %s needs a consumer that reads",
				       waits[wait_how]);
	if (wait_how && !start)
		return cli_usage_error("--wait %s needs --start",
				       waits[wait_how]);
	if (optind != argc)
		return cli_usage_error("unexpected argument '%s'",
				       argv[optind]);
	if (!tracefs)
		die("%s", "tracefs is not mounted");
	load_format(tracefs);
	CPU_ZERO(&set);
	CPU_SET(on < 0 ? !cpu : on, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("cannot run on the chosen CPU: %s", strerror(errno));

	if (mode == M_MMAP) {
		if (tracemap_open(&tm, tracefs, NULL, cpu,
				  wait_how == 2 ? 0 : TRACEMAP_NONBLOCK))
			die("%s", tracemap_error(&tm));
		fd = tracemap_fd(&tm);
	} else {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw",
			 tracefs, cpu);
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			die("cannot open %s", path);
		snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb",
			 tracefs);
		FILE *f = fopen(path, "r");

		/* Before 6.8 there is no such file: a sub-buffer is a page. */
		if (!f && errno == ENOENT) {
			size = (size_t)sysconf(_SC_PAGESIZE) / 1024;
		} else if (!f || fscanf(f, "%zu", &size) != 1) {
			die("cannot read %s", path);
		}
		if (f)
			fclose(f);
		size *= 1024;
		buf = malloc(BATCH * size);
		if (!buf)
			die("%s", "out of memory");
		if (mode == M_SPLICE &&
		    (pipe(pipefd) ||
		     fcntl(pipefd[1], F_SETPIPE_SZ, 1 << 20) < 0))
			die("pipe: %s", strerror(errno));
	}

	if (mode == M_FLOOR)
		img = floor_capture(fd, size, &img_n);
	if (wait_how) {
		sent = mmap(NULL, sizeof(*sent), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (sent == MAP_FAILED || pipe(go))
			die("watcher: %s", strerror(errno));
		*sent = 0;
		watcher = start_watcher(go, sent);
	}
	getrusage(RUSAGE_SELF, &ru0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	c0 = cpu_ns();
	if (start)
		write_run();
	if (watcher > 0) { /* now "run" reads 1 until the run ends */
		if (write(go[1], "g", 1) != 1)
			die("watcher: %s", strerror(errno));
		close(go[1]);
	}
	for (;;) {
		int n;

		if (mode == M_FLOOR) {
			floor_decode(img, img_n, size, target, trial);
			break;
		}
		if (mode == M_MMAP)
			n = consume_mmap(&tm);
		else if ((mode == M_SPLICE || mode >= M_NONE) && !done)
			n = mode >= M_NONE ?
				    0 :
				    consume_splice(fd, pipefd, buf, size);
		else /* splice cannot take the sub-buffer being written */
			n = consume_read(fd, buf, size);
		if (n)
			continue;
		if (done)
			break;
		/* Once "run" reads 0, one more drain takes what it wrote. */
		done = !producer_running();
		if (done && wait_how == 2)
			tracemap_wake(&tm); /* that drain must not wait */
		if (!done && wait_how == 2)
			continue; /* the next tracemap_get_reader() waits */
		if (!done) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			uint64_t w = probe_ns();

			/* none: only sleep, the buffer is read at the end */
			if (mode == M_BUSY)
				busy(interval);
			else
				poll(&p, mode != M_NONE,
				     wait_how ? -1 : interval);
			pr.polls++;
			w = probe_ns() - w;
			pr.poll_ns += w;
			if (w > pr.max_poll_ns)
				pr.max_poll_ns = w;
		}
	}
	c1 = mode == M_FLOOR ? c0 + trial[FLOOR_TRIALS / 2] : cpu_ns();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru1);
	if (watcher > 0) {
		kill(watcher, SIGKILL);
		waitpid(watcher, NULL, 0);
	}
	if (lat.done) {
		qsort(lat.v, lat.done, sizeof(lat.v[0]), cmp_u64);
		lat_med = lat.v[lat.done / 2];
		lat_p99 = lat.v[lat.done * 99 / 100];
		lat_max = lat.v[lat.done - 1];
	}
	total = produced();
	printf("mode=%s cpu=%d produced=%llu delivered=%llu missed=%llu missed_meta=%llu unknown=%llu dropped=%llu resets=%llu other_reader=%llu meta_lost=%llu gaps=%llu gap_events=%llu matched=%llu merged=%llu trailing=%llu bad=%llu bytes=%llu subbufs=%llu wall_ns=%llu cpu_ns=%llu",
	       names[mode], cpu, (unsigned long long)total,
	       (unsigned long long)st.delivered, (unsigned long long)st.missed,
	       (unsigned long long)st.missed_meta,
	       (unsigned long long)st.unknown, (unsigned long long)st.dropped,
	       (unsigned long long)st.resets,
	       (unsigned long long)st.other_reader,
	       (unsigned long long)st.meta_lost, (unsigned long long)st.gaps,
	       (unsigned long long)st.gap_events,
	       (unsigned long long)st.matched, (unsigned long long)st.merged,
	       (unsigned long long)(total > st.next ? total - st.next : 0),
	       (unsigned long long)st.bad, (unsigned long long)st.bytes,
	       (unsigned long long)st.subbufs,
	       (unsigned long long)(ns_of(&t1) - ns_of(&t0)),
	       (unsigned long long)(c1 - c0));
	printf(" utime_ns=%llu stime_ns=%llu minflt=%ld calls=%llu empty=%llu call_ns=%llu polls=%llu poll_ns=%llu max_poll_ns=%llu max_gap_ns=%llu decode_ns=%llu floor_min_ns=%llu floor_max_ns=%llu seq_first=%llu seq_last=%llu ts_span_ns=%llu",
	       (unsigned long long)tv_ns(&ru1.ru_utime, &ru0.ru_utime),
	       (unsigned long long)tv_ns(&ru1.ru_stime, &ru0.ru_stime),
	       ru1.ru_minflt - ru0.ru_minflt, (unsigned long long)pr.calls,
	       (unsigned long long)pr.empty, (unsigned long long)pr.call_ns,
	       (unsigned long long)pr.polls, (unsigned long long)pr.poll_ns,
	       (unsigned long long)pr.max_poll_ns,
	       (unsigned long long)pr.max_gap_ns,
	       (unsigned long long)pr.decode_ns, (unsigned long long)trial[0],
	       (unsigned long long)trial[FLOOR_TRIALS - 1],
	       (unsigned long long)st.seq_first,
	       (unsigned long long)(st.delivered ? st.next - 1 : 0),
	       (unsigned long long)(st.ts_last - st.ts_first));
	printf(" sleeps=%ld lat_med_ns=%llu lat_p99_ns=%llu lat_max_ns=%llu signals=%lu unknown_room=%llu unknown_gaps=%llu unknown_events=%llu\n",
	       ru1.ru_nvcsw - ru0.ru_nvcsw, (unsigned long long)lat_med,
	       (unsigned long long)lat_p99, (unsigned long long)lat_max,
	       watcher > 0 ? *sent : 0UL, (unsigned long long)st.unknown_room,
	       (unsigned long long)st.unknown_gaps,
	       (unsigned long long)st.unknown_events);
	if (mode == M_MMAP)
		tracemap_close(&tm);
	else
		close(fd);
	free(buf);
	free(img);
	free(lat.v);
	return cli_exit(0);
}
