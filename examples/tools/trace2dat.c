// SPDX-License-Identifier: MIT
/*
 * trace2dat: convert raw captures of trace_pipe_raw into a trace-cmd
 * trace.dat file (tracedat.h), for trace-cmd report and KernelShark.
 *
 *   trace2dat DIR SUBBUF_SIZE OUTPUT CAPTURE0 [CAPTURE1 ...]
 *
 * DIR: a directory laid out like tracefs holding at least
 * events/header_page, events/header_event and events/<sys>/<ev>/format
 * (printk_formats and saved_cmdlines are added when present).
 * SUBBUF_SIZE: the sub-buffer size in bytes (buffer_subbuf_size_kb * 1024).
 * CAPTUREn: what read() of per_cpu/cpuN/trace_pipe_raw returned, whole
 * sub-buffers; "-" for a CPU without data.
 * Prints "trace2dat: N sub-buffers of CPUs 0..M into OUTPUT".
 * Exit status: 0, 1 on an error (one line on stderr), 2 on bad usage
 * (examples/common/cli.h).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tracedat.h"

static const char usage_text[] =
	"usage: trace2dat DIR SUBBUF_SIZE OUTPUT CAPTURE0 [CAPTURE1 ...]\n"
	"Write raw captures of per_cpu/cpuN/trace_pipe_raw (whole sub-buffers of\n"
	"SUBBUF_SIZE bytes; \"-\" for a CPU without data) into OUTPUT, a trace-cmd\n"
	"trace.dat (trace-cmd report OUTPUT, kernelshark OUTPUT). DIR is laid out\n"
	"like tracefs: events/header_page, events/header_event and the\n"
	"events/<system>/<event>/format files.\n"
	"  --help  print this and exit\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = { CLI_OPT_HELP, CLI_OPT_END };
	struct tracemap_dat td;
	long size, total = 0;
	int opt, r, nr;

	cli_start("trace2dat");
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1)
		return cli_other_option(opt, usage_text, argv, optind);
	if (cli_operands(argc, argv, optind, 4, INT_MAX - 1,
			 "a CAPTURE (DIR SUBBUF_SIZE OUTPUT CAPTURE0)"))
		return 2;
	argv += optind;
	nr = argc - optind - 3;
	if (cli_number("SUBBUF_SIZE", argv[1], 64, 1L << 30, &size))
		return 2;
	r = tracemap_dat_create(&td, argv[2], argv[0], nr, (uint32_t)size);
	for (int cpu = 0; !r && cpu < nr; cpu++) {
		long n = 0;

		if (strcmp(argv[3 + cpu], "-"))
			n = tracemap_dat_add_capture(&td, cpu, argv[3 + cpu]);
		if (n < 0)
			r = (int)n;
		else
			total += n;
	}
	if (r) {
		fprintf(stderr, "trace2dat: %s\n", tracemap_dat_error(&td));
		tracemap_dat_discard(&td);
		return 1;
	}
	r = tracemap_dat_finish(&td, 0);
	if (r) {
		fprintf(stderr, "trace2dat: %s\n", tracemap_dat_error(&td));
		return 1;
	}
	printf("trace2dat: %ld sub-buffers of CPUs 0..%d into %s\n", total,
	       nr - 1, argv[2]);
	return cli_exit(0);
}
