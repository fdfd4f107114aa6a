// SPDX-License-Identifier: MIT
/*
 * Decoder benchmark: our sub-buffer decoder (examples/lib/tracemap.c) against
 * libtraceevent's kbuffer on the same captured sub-buffers.
 *
 *   decoder_bench [--only ours|ours-live|kbuffer --reps R] FILE SUBBUF_SIZE...
 *
 * Each FILE holds whole sub-buffers of SUBBUF_SIZE bytes, as read() of
 * trace_pipe_raw returned them (tests/host/data/). Both decoders walk every
 * event and fold its offset, payload size and timestamp into a digest;
 * the two digests must be equal, or the program says where they part and
 * exits 1. Then it times each decoder: TRIALS trials of enough passes over
 * all the sub-buffers to last about 50 ms of CPU time, and prints one line
 * per decoder:
 *
 *   decoder=ours events=N ns_per_event=MEDIAN min=MIN max=MAX
 *
 * --only NAME --reps R: no check and no timing, just R passes of that
 * decoder inside decode_NAME(), for callgrind --toggle-collect=decode_NAME.
 * NAME ours-live is ours on the same bytes loaded as a live page (as the
 * mapped reader loads the writer's page: the commit word re-read on every
 * call), also inside decode_ours().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <traceevent/kbuffer.h>

#include "tracemap.h"

#define TRIALS 9
#define PAGE 4096

struct subbuf {
	unsigned char *data;
	size_t size;
};

static struct subbuf *subbufs;
static size_t nr_subbufs;
static struct kbuffer *kbuf;
static bool live; /* tracemap_subbuf_load(..., live) in decode_ours() */

/* FNV-1a over one event's offset, size and timestamp */
static uint64_t fold(uint64_t h, uint64_t off, uint64_t size, uint64_t ts)
{
	uint64_t v[3] = { off, size, ts };
	const unsigned char *p = (const unsigned char *)v;

	for (size_t i = 0; i < sizeof(v); i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

struct result {
	uint64_t events, digest;
};

static void load(const char *file, size_t size)
{
	FILE *f = fopen(file, "rb");
	unsigned char *buf;

	if (!f || size <= RB_SUBBUF_HEADER_64 || size % PAGE) {
		fprintf(stderr,
			"decoder_bench: cannot read %s as %zu-byte sub-buffers\n",
			file, size);
		exit(1);
	}
	for (;;) {
		buf = aligned_alloc(PAGE, size);
		if (!buf || fread(buf, 1, size, f) != size)
			break;
		subbufs = realloc(subbufs, (nr_subbufs + 1) * sizeof(*subbufs));
		if (!subbufs)
			break;
		subbufs[nr_subbufs++] = (struct subbuf){ buf, size };
	}
	free(buf);
	fclose(f);
}

__attribute__((noinline)) struct result decode_ours(long reps, bool digest)
{
	struct result r = { 0, 0xcbf29ce484222325ULL };

	for (long i = 0; i < reps; i++) {
		for (size_t s = 0; s < nr_subbufs; s++) {
			struct tracemap_subbuf sb;
			struct tracemap_event ev;

			if (tracemap_subbuf_load(&sb, NULL, subbufs[s].data,
						 subbufs[s].size, live))
				continue;
			while (tracemap_subbuf_next(&sb, &ev) > 0) {
				r.events++;
				if (digest)
					r.digest = fold(
						r.digest,
						(uint64_t)((const unsigned char
								    *)ev.data -
							   subbufs[s].data),
						ev.size, ev.ts);
				else
					r.digest += ev.ts + ev.size;
			}
		}
	}
	return r;
}

__attribute__((noinline)) struct result decode_kbuffer(long reps, bool digest)
{
	struct result r = { 0, 0xcbf29ce484222325ULL };

	for (long i = 0; i < reps; i++) {
		for (size_t s = 0; s < nr_subbufs; s++) {
			unsigned long long ts;
			void *data;

			if (kbuffer_load_subbuffer(kbuf, subbufs[s].data))
				continue;
			for (data = kbuffer_read_event(kbuf, &ts); data;
			     data = kbuffer_next_event(kbuf, &ts)) {
				uint64_t size =
					(uint64_t)kbuffer_event_size(kbuf);

				r.events++;
				if (digest)
					r.digest = fold(
						r.digest,
						(uint64_t)((unsigned char *)
								   data -
							   subbufs[s].data),
						size, ts);
				else
					r.digest += ts + size;
			}
		}
	}
	return r;
}

typedef struct result (*decoder)(long reps, bool digest);

/*
 * The CPU time of this thread: on a shared machine, the time others run
 * in between is not ours (cache effects of their running remain).
 */
static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void time_it(const char *name, decoder fn, uint64_t events)
{
	double t[TRIALS], t0;
	long reps = 1;

	/* Enough passes for about 50 ms a trial. */
	for (;;) {
		t0 = now_ns();
		fn(reps, false);
		if (now_ns() - t0 > 5e7 || reps > (1L << 30))
			break;
		reps *= 2;
	}
	for (int i = 0; i < TRIALS; i++) {
		t0 = now_ns();
		fn(reps, false);
		t[i] = (now_ns() - t0) / ((double)events * (double)reps);
	}
	qsort(t, TRIALS, sizeof(t[0]), cmp_double);
	printf("decoder=%s events=%llu ns_per_event=%.2f min=%.2f max=%.2f trials=%d passes=%ld\n",
	       name, (unsigned long long)events, t[TRIALS / 2], t[0],
	       t[TRIALS - 1], TRIALS, reps);
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	long reps = 0;
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "--only")) {
		only = argv[2];
		i = 3;
		if (argc > 4 && !strcmp(argv[3], "--reps")) {
			reps = strtol(argv[4], NULL, 10);
			i = 5;
		}
		if (reps <= 0 ||
		    (strcmp(only, "ours") && strcmp(only, "kbuffer") &&
		     strcmp(only, "ours-live"))) {
			fprintf(stderr,
				"decoder_bench: --only ours|ours-live|kbuffer --reps N (N > 0)\n");
			return 2;
		}
		live = !strcmp(only, "ours-live");
	}
	if (i >= argc || (argc - i) % 2) {
		fprintf(stderr,
			"usage: decoder_bench [--only ours|ours-live|kbuffer --reps R] FILE SUBBUF_SIZE...\n");
		return 2;
	}
	for (; i + 1 < argc; i += 2)
		load(argv[i], strtoul(argv[i + 1], NULL, 10));
	kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST,
			     KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!kbuf || !nr_subbufs) {
		fprintf(stderr,
			"decoder_bench: no sub-buffers, or no kbuffer\n");
		return 1;
	}
	if (only) {
		struct result r = strcmp(only, "kbuffer") ?
					  decode_ours(reps, false) :
					  decode_kbuffer(reps, false);

		printf("decoder=%s events=%llu\n", only,
		       (unsigned long long)r.events);
		return 0;
	}

	struct result a = decode_ours(1, true), b = decode_kbuffer(1, true);

	if (a.events != b.events || a.digest != b.digest || !a.events) {
		printf("same_events=no ours=%llu kbuffer=%llu\n",
		       (unsigned long long)a.events,
		       (unsigned long long)b.events);
		return 1;
	}
	printf("same_events=yes events=%llu subbufs=%zu digest=%016llx\n",
	       (unsigned long long)a.events, nr_subbufs,
	       (unsigned long long)a.digest);
	time_it("ours", decode_ours, a.events);
	time_it("kbuffer", decode_kbuffer, a.events);
	kbuffer_free(kbuf);
	return 0;
}
