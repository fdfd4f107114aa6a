// SPDX-License-Identifier: MIT
/*
 * trace_stream: like "cat trace_pipe", through the ring-buffer mapping.
 *
 *   trace_stream [--cpu N] [--instance NAME] [--tracefs DIR] [--nonblock]
 *                [--interval MS]
 *   trace_stream --offline FILE [--subbuf-size BYTES] [--cpu N] [--tracefs DIR]
 *
 * Live: maps every CPU (or --cpu N) of the top-level buffer (or of
 * instances/NAME) and prints events as they come, until SIGINT or SIGTERM;
 * it waits with poll() and looks at least every --interval ms (default
 * 1000). --nonblock prints what the buffers hold and exits.
 * Offline: decodes FILE, the bytes that read() of trace_pipe_raw returned
 * (whole sub-buffers of --subbuf-size bytes, default the page size), as
 * CPU --cpu (default 0). Event formats come from DIR/events (default: the
 * tracefs mount); a directory holding copies of events/<sys>/<ev>/format
 * works too.
 *
 * Output, one line per event, fields separated by one space:
 *   CPU SECONDS.NANOSECONDS SYSTEM/EVENT PAYLOAD
 * and one line per gap of lost events, before the events after it:
 *   CPU SECONDS.NANOSECONDS missed COUNT      (COUNT may be "unknown")
 * The time is the trace clock; for a gap, the time of the sub-buffer that
 * follows it. PAYLOAD is the text of an ftrace/print event, or
 * name=value pairs in format order ("..." around strings). Events of an
 * unknown type print as "unknown/ID size=N". Events are in time order per
 * CPU; lines of different CPUs are not merged by time.
 * Exit status: 0, 1 on an error (one line on stderr), 2 on bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracemap.h"

#define MAX_CPUS 1024

static volatile sig_atomic_t stop;
static struct tm_formats formats;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void print_time(int cpu, uint64_t ts)
{
	printf("%d %llu.%09llu ", cpu, (unsigned long long)(ts / 1000000000),
	       (unsigned long long)(ts % 1000000000));
}

static void print_missed(int cpu, uint64_t ts, int64_t missed)
{
	if (!missed)
		return;
	print_time(cpu, ts);
	if (missed == TM_MISSED_UNKNOWN)
		printf("missed unknown\n");
	else
		printf("missed %lld\n", (long long)missed);
}

static void print_event(int cpu, const struct tm_event *ev)
{
	const struct tm_format *f =
		tm_formats_find(&formats, tm_event_type(ev));
	char text[4096];

	print_time(cpu, ev->ts);
	if (!f) {
		printf("unknown/%d size=%u\n", tm_event_type(ev), ev->size);
		return;
	}
	tm_format_payload(f, ev, text, sizeof(text));
	printf("%s/%s %s\n", f->system, f->name, text);
}

static int die(const char *fmt, const char *arg)
{
	fprintf(stderr, "trace_stream: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return 1;
}

static int offline(const char *file, size_t subbuf_size, int cpu)
{
	FILE *in = fopen(file, "rb");
	unsigned char *buf = malloc(subbuf_size);
	size_t n;
	int ret = 0;

	if (!in || !buf) {
		free(buf);
		if (in)
			fclose(in);
		return die("%s: cannot read it", file);
	}
	while ((n = fread(buf, 1, subbuf_size, in)) > 0) {
		struct tm_subbuf sb;
		struct tm_event ev;
		int r;

		if (n != subbuf_size) {
			ret = die(
				"%s: ends with a partial sub-buffer (wrong --subbuf-size?)",
				file);
			break;
		}
		if (tm_subbuf_load(&sb, buf, subbuf_size, false)) {
			ret = die("%s: a sub-buffer's commit is past its end",
				  file);
			break;
		}
		print_missed(cpu, sb.ts, sb.missed);
		while ((r = tm_subbuf_next(&sb, &ev)) > 0)
			print_event(cpu, &ev);
		if (r < 0) {
			ret = die("%s: a sub-buffer holds a corrupt record",
				  file);
			break;
		}
	}
	free(buf);
	fclose(in);
	return ret;
}

//! [drain]
/* Print the events of one CPU until its reader page has nothing new. */
static int drain(struct tracemap *tm)
{
	struct tm_event ev;
	int64_t missed;
	int r;

	for (;;) {
		while ((r = tracemap_next(tm, &ev)) > 0)
			print_event(tm->cpu, &ev);
		if (r < 0)
			return r;
		r = tracemap_get_reader(tm, &missed);
		if (r <= 0)
			return r;
		print_missed(tm->cpu, tm->sb.ts, missed);
	}
}
//! [drain]

static int live(const char *tracefs, const char *instance, int cpu,
		bool nonblock, int interval)
{
	static struct tracemap tms[MAX_CPUS];
	static struct pollfd pfds[MAX_CPUS];
	int n = 0, ret = 0;

	for (int c = cpu < 0 ? 0 : cpu; c < MAX_CPUS; c++) {
		int r = tracemap_open(&tms[n], tracefs, instance, c,
				      TM_NONBLOCK);

		if (r == TM_ERR_NO_CPU && cpu < 0 && n > 0)
			break; /* past the last CPU */
		if (r)
			return die("%s", tms[n].err);
		pfds[n].fd = tms[n].fd;
		pfds[n].events = POLLIN;
		n++;
		if (cpu >= 0)
			break;
	}
	while (!stop && !ret) {
		for (int i = 0; i < n && !ret; i++) {
			int r = drain(&tms[i]);

			if (r == TM_ERR_INTR)
				break;
			if (r < 0)
				ret = die("%s", tms[i].err);
		}
		fflush(stdout);
		if (nonblock)
			break;
		/* Wakes when a CPU reaches buffer_percent, or after interval. */
		if (poll(pfds, (nfds_t)n, interval) < 0 && errno != EINTR)
			ret = die("poll: %s", strerror(errno));
	}
	for (int i = 0; i < n; i++)
		tracemap_close(&tms[i]);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "instance", required_argument, NULL, 'i' },
		{ "tracefs", required_argument, NULL, 't' },
		{ "nonblock", no_argument, NULL, 'n' },
		{ "interval", required_argument, NULL, 'I' },
		{ "offline", required_argument, NULL, 'o' },
		{ "subbuf-size", required_argument, NULL, 's' },
		{ 0 }
	};
	const char *instance = NULL, *tracefs = NULL, *file = NULL;
	size_t subbuf_size = (size_t)sysconf(_SC_PAGESIZE);
	int cpu = -1, interval = 1000, opt, ret;
	bool nonblock = false;
	char *end, dir[600];
	struct sigaction sa = { .sa_handler = on_signal };

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		long v = 0;

		if (optarg && opt != 'i' && opt != 't' && opt != 'o') {
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || v < 0 || v > (1L << 30)) {
				fprintf(stderr,
					"trace_stream: bad number '%s'\n",
					optarg);
				return 2;
			}
		}
		switch (opt) {
		case 'c':
			cpu = (int)v;
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
			interval = (int)v;
			break;
		case 'o':
			file = optarg;
			break;
		case 's':
			subbuf_size = (size_t)v;
			break;
		default:
			fprintf(stderr,
				"usage: see the comment at the top of trace_stream.c\n");
			return 2;
		}
	}
	if (optind != argc || subbuf_size <= TM_SUBBUF_HEADER) {
		fprintf(stderr,
			"trace_stream: unexpected argument or bad --subbuf-size\n");
		return 2;
	}
	if (!tracefs)
		tracefs = tracemap_tracefs();
	if (tracefs) {
		snprintf(dir, sizeof(dir), "%s%s%s", tracefs,
			 instance ? "/instances/" : "",
			 instance ? instance : "");
		tm_formats_load(&formats, dir);
	}
	if (file) {
		ret = offline(file, subbuf_size, cpu < 0 ? 0 : cpu);
	} else {
		sigaction(SIGINT, &sa, NULL); /* no SA_RESTART: poll returns */
		sigaction(SIGTERM, &sa, NULL);
		ret = live(tracefs, instance, cpu, nonblock, interval);
	}
	tm_formats_free(&formats);
	return ret;
}
