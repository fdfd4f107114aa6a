// SPDX-License-Identifier: MIT
/*
 * reader_swap: watch the meta-page move as TRACE_MMAP_IOCTL_GET_READER
 * swaps reader sub-buffers.
 *   reader_swap [--cpu N] [--count N] [--block]
 * Calls GET_READER COUNT times (default 4; non-blocking unless --block) on
 * CPU N (default 0) of the top-level buffer and prints, per call:
 *   before N reader.id=I reader.read=R entries=E overrun=O read=D
 *   after  N reader.id=I reader.read=R entries=E overrun=O read=D events=K missed=M
 * where K is the number of events then decoded from the reader sub-buffer
 * and M the lost events reported before it (0, a count or "unknown").
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "tracemap.h"

static void print_meta(const char *when, int n,
		       const struct trace_buffer_meta *m)
{
	printf("%-6s %d reader.id=%u reader.read=%u entries=%llu overrun=%llu read=%llu",
	       when, n, m->reader.id, m->reader.read,
	       (unsigned long long)m->entries, (unsigned long long)m->overrun,
	       (unsigned long long)m->read);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "count", required_argument, NULL, 'n' },
		{ "block", no_argument, NULL, 'b' },
		{ 0 }
	};
	int cpu = 0, count = 4, flags = TM_NONBLOCK, opt;
	struct tracemap tm;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 'n')
			count = atoi(optarg);
		else if (opt == 'b')
			flags = 0;
		else
			return 2;
	}
	if (optind != argc || count < 1) {
		fprintf(stderr,
			"usage: reader_swap [--cpu N] [--count N] [--block]\n");
		return 2;
	}
	if (tracemap_open(&tm, NULL, NULL, cpu, flags)) {
		fprintf(stderr, "reader_swap: %s\n", tm.err);
		return 1;
	}
	for (int i = 1; i <= count; i++) {
		struct tm_event ev;
		int64_t missed;
		int events = 0, r;

		print_meta("before", i, tm.meta);
		printf("\n");
		r = tracemap_get_reader(&tm, &missed);
		if (r < 0) {
			fprintf(stderr, "reader_swap: %s\n", tm.err);
			break;
		}
		while ((r = tracemap_next(&tm, &ev)) > 0)
			events++;
		print_meta("after", i, tm.meta);
		if (missed == TM_MISSED_UNKNOWN)
			printf(" events=%d missed=unknown\n", events);
		else
			printf(" events=%d missed=%lld\n", events,
			       (long long)missed);
	}
	tracemap_close(&tm);
	return 0;
}
