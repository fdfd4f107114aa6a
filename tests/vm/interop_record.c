// SPDX-License-Identifier: MIT
/*
 * interop_record: read every CPU of a buffer through the mapping, merged
 * in time order (examples/tracemerge.h) or one CPU after the other
 * (--per-cpu), print the events in trace_stream's format, and with
 * --output record the same sub-buffers into a trace.dat
 * (examples/tracedat.h). For the interop guest tests.
 *
 *   interop_record [--instance NAME] [--per-cpu] [--output FILE]
 *                  [--watermark MS] [--for MS]
 *
 * --for MS: read live (waiting with poll()) for MS ms first; then, or at
 * once without it, print what the buffers hold and exit.
 * Lines: "CPU S.NS SYSTEM/EVENT PAYLOAD" and for losses
 * "CPU S.NS missed N|missed N dropped|missed unknown|reset|other-reader".
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tracedat.h"
#include "tracemerge.h"

static struct tm_formats formats;
static struct tracedat td;
static bool recording;
static uint64_t last_ts[4096];

static void print_ts(int cpu, uint64_t ts)
{
	printf("%d %llu.%09llu ", cpu, (unsigned long long)(ts / 1000000000),
	       (unsigned long long)(ts % 1000000000));
}

static void print_event(int cpu, const struct tm_event *ev)
{
	const struct tm_format *f =
		tm_formats_find(&formats, tm_event_type(ev));
	static char text[65536];

	print_ts(cpu, ev->ts);
	last_ts[cpu] = ev->ts;
	if (!f) {
		printf("unknown/%d size=%u\n", tm_event_type(ev), ev->size);
		return;
	}
	tm_format_payload(f, ev, text, sizeof(text));
	printf("%s/%s %s\n", f->system, f->name, text);
}

static void print_loss(int cpu, uint64_t ts, const struct tm_reader *rd)
{
	print_ts(cpu, ts);
	switch (rd->loss) {
	case TM_LOSS_COUNTED:
		printf("missed %llu\n", (unsigned long long)rd->count);
		break;
	case TM_LOSS_DROPPED:
		printf("missed %llu dropped\n", (unsigned long long)rd->count);
		break;
	case TM_LOSS_RESET:
		printf("reset\n");
		break;
	case TM_LOSS_OTHER_READER:
		printf("other-reader\n");
		break;
	default:
		printf("missed unknown\n");
		break;
	}
}

static int hook(void *arg, int idx, const struct tracemap *tm,
		const struct tm_reader *rd)
{
	(void)arg;
	(void)idx;
	if (!recording)
		return 0;
	if (!rd)
		return tracedat_map_before(&td, tracemap_cpu(tm), tm);
	return tracedat_map_after(&td, tracemap_cpu(tm), tm, rd);
}

static int die(const char *what, const char *why)
{
	fprintf(stderr, "interop_record: %s: %s\n", what, why);
	return 1;
}

static uint64_t ms_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* One CPU after the other, as trace_stream --per-cpu. */
static int per_cpu(struct tm_merge *m)
{
	for (int i = 0; i < tm_merge_count(m); i++) {
		struct tracemap *tm = tm_merge_map(m, i);
		int cpu = tracemap_cpu(tm), r;
		struct tm_reader rd;
		struct tm_event ev;

		for (;;) {
			while ((r = tracemap_next(tm, &ev)) > 0)
				print_event(cpu, &ev);
			if (r < 0)
				return die("next", tracemap_error(tm));
			if (hook(NULL, i, tm, NULL))
				return die("trace.dat", tracedat_error(&td));
			r = tracemap_get_reader(tm, &rd);
			if (r >= 0 && hook(NULL, i, tm, &rd))
				return die("trace.dat", tracedat_error(&td));
			if (rd.loss != TM_LOSS_NONE)
				print_loss(cpu,
					   rd.new_subbuf ? rd.ts : last_ts[cpu],
					   &rd);
			if (r < 0)
				return die("get_reader", tracemap_error(tm));
			if (r == 0)
				break;
		}
	}
	return 0;
}

static int merged(struct tm_merge *m, int for_ms)
{
	uint64_t end = ms_now() + (uint64_t)for_ms;
	struct tm_merge_item it;
	int r;

	for (;;) {
		if (!m->draining && (for_ms <= 0 || ms_now() >= end))
			tm_merge_drain(m);
		r = tm_merge_next(m, &it, 50);
		if (r < 0)
			return die("merge", tm_merge_error(m));
		if (r == 0) {
			if (m->draining)
				return 0;
			continue;
		}
		if (it.is_loss)
			print_loss(it.cpu, it.ts, &it.loss);
		else
			print_event(it.cpu, &it.ev);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "instance", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "per-cpu", no_argument, NULL, 'p' },
		{ "watermark", required_argument, NULL, 'w' },
		{ "for", required_argument, NULL, 'f' },
		{ 0 }
	};
	const char *instance = NULL, *output = NULL, *tracefs;
	int opt, for_ms = 0, max_cpu = 0, watermark = TM_MERGE_WATERMARK_MS, r;
	bool by_cpu = false;
	struct tm_merge m;
	char dir[4096];

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			instance = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'p':
			by_cpu = true;
			break;
		case 'w':
			watermark = atoi(optarg);
			break;
		case 'f':
			for_ms = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	tracefs = tracemap_tracefs();
	if (!tracefs)
		return die("tracefs", "not mounted");
	snprintf(dir, sizeof(dir), "%s%s%s", tracefs,
		 instance ? "/instances/" : "", instance ? instance : "");
	r = tm_merge_open(&m, tracefs, instance, NULL, 0, 0);
	if (r < 0)
		return die("open", tm_merge_error(&m));
	tm_merge_set_watermark(&m, watermark);
	if (tm_formats_load(&formats, dir) <= 0)
		return die(dir, "no event formats");
	for (int i = 0; i < tm_merge_count(&m); i++)
		if (tracemap_cpu(tm_merge_map(&m, i)) > max_cpu)
			max_cpu = tracemap_cpu(tm_merge_map(&m, i));
	if (output) {
		r = tracedat_create(&td, output, dir, max_cpu + 1,
				    tracemap_subbuf_size(tm_merge_map(&m, 0)));
		if (r)
			return die(output, tracedat_error(&td));
		recording = true;
		tm_merge_set_hook(&m, hook, NULL);
	}
	r = by_cpu ? per_cpu(&m) : merged(&m, for_ms);
	for (int i = 0; !r && recording && i < tm_merge_count(&m); i++) {
		struct tracemap *tm = tm_merge_map(&m, i);

		if (tracedat_map_end(&td, tracemap_cpu(tm), tm))
			r = die(output, tracedat_error(&td));
	}
	if (recording && !r && tracedat_finish(&td, 0))
		r = die(output, tracedat_error(&td));
	tm_merge_close(&m);
	tm_formats_free(&formats);
	if (fflush(stdout))
		return die("stdout", strerror(errno));
	return r;
}
