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
 * Exit status: 0, 1 on an error (one line on stderr), 2 on bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat.h"

int main(int argc, char **argv)
{
	struct tracedat td;
	unsigned long size;
	long total = 0;
	char *end;
	int r;

	if (argc < 5) {
		fprintf(stderr,
			"usage: trace2dat DIR SUBBUF_SIZE OUTPUT CAPTURE0 [CAPTURE1 ...]\n");
		return 2;
	}
	errno = 0;
	size = strtoul(argv[2], &end, 10);
	if (errno || *end || !size || size > (1UL << 30)) {
		fprintf(stderr, "trace2dat: bad sub-buffer size '%s'\n",
			argv[2]);
		return 2;
	}
	r = tracedat_create(&td, argv[3], argv[1], argc - 4, (uint32_t)size);
	for (int cpu = 0; !r && cpu < argc - 4; cpu++) {
		long n = 0;

		if (strcmp(argv[4 + cpu], "-"))
			n = tracedat_add_capture(&td, cpu, argv[4 + cpu]);
		if (n < 0)
			r = (int)n;
		else
			total += n;
	}
	if (r) {
		fprintf(stderr, "trace2dat: %s\n", tracedat_error(&td));
		tracedat_discard(&td);
		return 1;
	}
	r = tracedat_finish(&td, 0);
	if (r) {
		fprintf(stderr, "trace2dat: %s\n", tracedat_error(&td));
		return 1;
	}
	printf("trace2dat: %ld sub-buffers of CPUs 0..%d into %s\n", total,
	       argc - 5, argv[3]);
	return 0;
}
