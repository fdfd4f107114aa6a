// SPDX-License-Identifier: MIT
/*
 * meta_page: map the meta-page of one CPU's ring buffer and print it, one
 * "field value" line per meta-page field. "meta_page --help" prints the
 * options.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "trace_mmap_compat.h"

static const char usage_text[] =
	"usage: meta_page [--cpu N] [--tracefs DIR]\n"
	"       meta_page [CPU [TRACEFS]]\n"
	"Map the meta-page of CPU N's ring buffer and print its fields.\n"
	"  --cpu N        the CPU (default 0)\n"
	"  --tracefs DIR  the tracefs mount (default: /sys/kernel/tracing)\n"
	"  --help         print this and exit\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = { CLI_OPT_CPU, CLI_OPT_TRACEFS,
					      CLI_OPT_HELP, CLI_OPT_END };
	const char *tracefs = "/sys/kernel/tracing", *cpu_arg = "0";
	char path[4096];
	long cpu;
	int opt;

	cli_start("meta_page");
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'c')
			cpu_arg = optarg;
		else if (opt == 't')
			tracefs = optarg;
		else
			return cli_other_option(opt, usage_text, argv, optind);
	}
	/* The positional form, which the labs use: meta_page [CPU [TRACEFS]] */
	if (cli_operands(argc, argv, optind, 0, 2, NULL))
		return 2;
	if (optind < argc)
		cpu_arg = argv[optind++];
	if (optind < argc)
		tracefs = argv[optind];
	if (cli_number("CPU", cpu_arg, 0, 4095, &cpu))
		return 2;
	int n = snprintf(path, sizeof(path), "%s/per_cpu/cpu%ld/trace_pipe_raw",
			 tracefs, cpu);

	if (n < 0 || (size_t)n >= sizeof(path)) {
		fprintf(stderr, "meta_page: path too long\n");
		return 1;
	}
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0) {
		fprintf(stderr, "meta_page: open %s: %s\n", path,
			strerror(errno));
		return 1;
	}

	//! [map-meta-page]
	/* Map one page first: the meta-page says how big it really is. */
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	struct trace_buffer_meta *meta =
		mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);

	if (meta != MAP_FAILED && meta->meta_page_size > len) {
		size_t full = meta->meta_page_size;

		munmap(meta, len);
		len = full;
		meta = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	}
	//! [map-meta-page]
	if (meta == MAP_FAILED) {
		fprintf(stderr, "meta_page: mmap %s: %s\n", path,
			strerror(errno));
		close(fd);
		return 1;
	}

	printf("meta_page_size %u\n", meta->meta_page_size);
	printf("meta_struct_len %u\n", meta->meta_struct_len);
	printf("subbuf_size %u\n", meta->subbuf_size);
	printf("nr_subbufs %u\n", meta->nr_subbufs);
	printf("reader.lost_events %llu\n",
	       (unsigned long long)meta->reader.lost_events);
	printf("reader.id %u\n", meta->reader.id);
	printf("reader.read %u\n", meta->reader.read);
	printf("flags %llu\n", (unsigned long long)meta->flags);
	printf("entries %llu\n", (unsigned long long)meta->entries);
	printf("overrun %llu\n", (unsigned long long)meta->overrun);
	printf("read %llu\n", (unsigned long long)meta->read);

	//! [unmap]
	/* Unmap exactly what was mapped: len, not meta_struct_len. */
	munmap(meta, len);
	close(fd);
	//! [unmap]
	return cli_exit(0);
}
