// SPDX-License-Identifier: MIT
/*
 * reader_swap: watch the meta-page move as TRACE_MMAP_IOCTL_GET_READER
 * swaps reader sub-buffers. "reader_swap --help" prints the options.
 * Per call it prints:
 *   before N reader.id=I reader.read=R entries=E overrun=O read=D
 *   after  N reader.id=I reader.read=R entries=E overrun=O read=D events=K missed=M
 * where K is the number of events then decoded from the reader sub-buffer
 * and M the loss reported before them: 0, a count, or its kind when there
 * is no count ("unknown", "reset", "other reader").
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "tracemap.h"

static const char usage_text[] =
	"usage: reader_swap [--cpu N] [--tracefs DIR] [--count N] [--block]\n"
	"Call TRACE_MMAP_IOCTL_GET_READER COUNT times on one CPU's mapped ring\n"
	"buffer and print the meta-page before and after each call.\n"
	"  --cpu N        the CPU (default 0)\n"
	"  --tracefs DIR  the tracefs mount (default: /sys/kernel/tracing)\n"
	"  --count N      calls (default 4)\n"
	"  --block        let the calls wait for buffer_percent\n"
	"  --help         print this and exit\n";

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
		CLI_OPT_CPU,
		CLI_OPT_TRACEFS,
		{ "count", required_argument, NULL, 'n' },
		{ "block", no_argument, NULL, 'b' },
		CLI_OPT_HELP,
		CLI_OPT_END
	};
	const char *tracefs = NULL;
	long cpu = 0, count = 4;
	int flags = TRACEMAP_NONBLOCK, opt, ret = 0;
	struct tracemap tm;

	cli_start("reader_swap");
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (cli_number("--cpu", optarg, 0, 4095, &cpu))
				return 2;
			break;
		case 't':
			tracefs = optarg;
			break;
		case 'n':
			if (cli_number("--count", optarg, 1, 1000000, &count))
				return 2;
			break;
		case 'b':
			flags = 0;
			break;
		default:
			return cli_other_option(opt, usage_text, argv, optind);
		}
	}
	if (cli_operands(argc, argv, optind, 0, 0, NULL))
		return 2;
	if (tracemap_open(&tm, tracefs, NULL, (int)cpu, flags)) {
		fprintf(stderr, "reader_swap: %s\n", tracemap_error(&tm));
		return 1;
	}
	for (int i = 1; i <= count; i++) {
		const struct trace_buffer_meta *meta = tracemap_meta(&tm);
		struct tracemap_reader rd;
		struct tracemap_event ev;
		int events = 0, r;

		print_meta("before", i, meta);
		printf("\n");
		r = tracemap_get_reader(&tm, &rd);
		if (r < 0) {
			fprintf(stderr, "reader_swap: %s\n",
				tracemap_error(&tm));
			ret = 1;
			break;
		}
		while ((r = tracemap_next(&tm, &ev)) > 0)
			events++;
		print_meta("after", i, meta);
		if (rd.loss == TRACEMAP_LOSS_COUNTED ||
		    rd.loss == TRACEMAP_LOSS_DROPPED)
			printf(" events=%d missed=%llu\n", events,
			       (unsigned long long)rd.count);
		else if (rd.loss != TRACEMAP_LOSS_NONE)
			printf(" events=%d missed=%s\n", events,
			       tracemap_loss_name(rd.loss));
		else
			printf(" events=%d missed=0\n", events);
		if (r < 0) {
			fprintf(stderr, "reader_swap: %s\n",
				tracemap_error(&tm));
			ret = 1;
			break;
		}
	}
	tracemap_close(&tm);
	return cli_exit(ret);
}
