// SPDX-License-Identifier: MIT
/*
 * rb_peek: look at one CPU's mapped ring buffer the way the guide explains
 * it. "rb_peek --help" prints the commands and options.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "ring_buffer_format.h"
#include "trace_mmap_compat.h"

static const char usage_text[] =
	"usage: rb_peek [--cpu N] [--tracefs DIR] COMMAND\n"
	"Look at one CPU's mapped ring buffer, the way the guide explains it.\n"
	"COMMAND:\n"
	"  layout   the mapping: its size, and where some sub-buffer IDs start\n"
	"  steps    run the steps on stdin, one a line, echoing each:\n"
	"             show            the meta-page and the reader sub-buffer header\n"
	"             get             TRACE_MMAP_IOCTL_GET_READER, then show\n"
	"             get-blocking S  the same on a blocking fd, interrupted after S s\n"
	"             write N TEXT    write TEXT to trace_marker N times\n"
	"  limits   try what the kernel refuses on a mapping\n"
	"Options:\n"
	"  --cpu N        the CPU (default 0)\n"
	"  --tracefs DIR  the tracefs mount (default: /sys/kernel/tracing)\n"
	"  --help         print this and exit\n";

static const char *tracefs_dir = "/sys/kernel/tracing";

static const char *tracefs(void)
{
	return tracefs_dir;
}

static int open_cpu(long cpu)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%ld/trace_pipe_raw",
		 tracefs(), cpu);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		fprintf(stderr, "rb_peek: open %s: %s\n", path,
			strerror(errno));
	return fd;
}

struct mapping {
	struct trace_buffer_meta *meta;
	char *base;
	size_t len;
};

static int map_all(int fd, struct mapping *m)
{
	//! [map-all]
	/* One page is always enough to read the sizes. */
	long page = sysconf(_SC_PAGESIZE);
	struct trace_buffer_meta *first =
		mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);

	if (first == MAP_FAILED)
		return -1;
	/* The meta-page, then nr_subbufs sub-buffers, in one mapping. */
	size_t len = rb_map_len(first->meta_page_size, first->subbuf_size,
				first->nr_subbufs);
	/*
	 * The probe stays mapped until the whole buffer is: while anything is
	 * mapped the kernel refuses a resize, so len still holds.
	 */
	char *base = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);

	munmap(first, page);
	if (base == MAP_FAILED)
		return -1;
	//! [map-all]
	m->base = base;
	m->meta = (struct trace_buffer_meta *)base;
	m->len = len;
	return 0;
}

/* Where sub-buffer ID id starts in a mapping made at offset 0. */
static size_t subbuf_offset(const struct trace_buffer_meta *meta, uint32_t id)
{
	return rb_subbuf_offset(meta->meta_page_size, meta->subbuf_size, id);
}

static int cmd_layout(int fd)
{
	struct mapping m;

	if (map_all(fd, &m)) {
		perror("rb_peek: mmap");
		return 1;
	}
	const struct trace_buffer_meta *meta = m.meta;
	uint32_t last = meta->nr_subbufs - 1;

	printf("page size        %ld\n", sysconf(_SC_PAGESIZE));
	printf("meta_page_size   %u\n", meta->meta_page_size);
	printf("subbuf_size      %u\n", meta->subbuf_size);
	printf("nr_subbufs       %u\n", meta->nr_subbufs);
	printf("mapping length   %zu\n", m.len);
	printf("reader.id        %u\n", meta->reader.id);
	for (uint32_t id = 0; id < 3 && id <= last; id++)
		printf("ID %-13u offset %zu\n", id, subbuf_offset(meta, id));
	printf("ID %-13u offset %zu\n", last, subbuf_offset(meta, last));
	munmap(m.base, m.len);
	return 0;
}

static void print_reader(const struct mapping *m)
{
	const struct trace_buffer_meta *meta = m->meta;
	const char *sb = m->base + subbuf_offset(meta, meta->reader.id);

	printf("  meta: reader.id %u reader.read %u reader.lost_events %llu"
	       " entries %llu overrun %llu read %llu\n",
	       meta->reader.id, meta->reader.read,
	       (unsigned long long)meta->reader.lost_events,
	       (unsigned long long)meta->entries,
	       (unsigned long long)meta->overrun,
	       (unsigned long long)meta->read);
	//! [commit-word]
	uint64_t commit_word;

	memcpy(&commit_word, sb + 8, sizeof(commit_word));
	/* Only the low 32 bits count: the flags were added as negative ints. */
	uint32_t commit = (uint32_t)commit_word;
	uint32_t size = commit & ~RB_MISSED_MASK;
	unsigned long missed = 0;

	if (commit & RB_MISSED_STORED)
		memcpy(&missed, sb + RB_SUBBUF_HEADER_64 + size,
		       sizeof(missed));
	//! [commit-word]
	printf("  sub-buffer %u: commit word 0x%016llx: %u bytes of data%s%s",
	       meta->reader.id, (unsigned long long)commit_word, size,
	       commit & RB_MISSED_EVENTS ? ", MISSED_EVENTS" : "",
	       commit & RB_MISSED_STORED ? ", MISSED_STORED" : "");
	if (commit & RB_MISSED_STORED)
		printf(" (%lu missed)", missed);
	printf("\n");
}

static void write_marker(const char *text)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/trace_marker", tracefs());
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		fprintf(stderr, "rb_peek: write %s: %s\n", path,
			strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* Read the steps (see usage_text) from stdin, one a line, and echo each. */
static int cmd_steps(int fd)
{
	struct mapping m;
	char line[512];

	if (map_all(fd, &m)) {
		perror("rb_peek: mmap");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		int n = 0, secs = 0, off = 0;

		line[strcspn(line, "\n")] = 0;
		if (!*line || *line == '#')
			continue;
		printf("> %s\n", line);
		if (!strcmp(line, "show")) {
			print_reader(&m);
		} else if (!strcmp(line, "get")) {
			//! [get-reader]
			if (ioctl(fd, TRACE_MMAP_IOCTL_GET_READER) < 0) {
				perror("rb_peek: TRACE_MMAP_IOCTL_GET_READER");
				return 1;
			}
			//! [get-reader]
			print_reader(&m);
		} else if (sscanf(line, "get-blocking %d", &secs) == 1) {
			struct sigaction sa = { .sa_handler = on_alarm };
			int flags = fcntl(fd, F_GETFL), rc, err;

			sigaction(SIGALRM, &sa, NULL); /* no SA_RESTART */
			fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
			alarm(secs);
			rc = ioctl(fd, TRACE_MMAP_IOCTL_GET_READER);
			err = errno;
			alarm(0);
			fcntl(fd, F_SETFL, flags);
			printf("  ioctl: %s\n",
			       rc < 0 ? strerrorname_np(err) : "returned 0");
			print_reader(&m);
		} else if (sscanf(line, "write %d %n", &n, &off) == 1 && off) {
			for (int i = 0; i < n; i++)
				write_marker(line + off);
		} else {
			fprintf(stderr, "rb_peek: unknown step '%s'\n", line);
			return 2;
		}
	}
	munmap(m.base, m.len);
	return 0;
}

static void report(const char *what, int ok, int err)
{
	if (ok)
		printf("%-44s ok\n", what);
	else
		printf("%-44s %s\n", what,
		       strerrorname_np(err) ? strerrorname_np(err) :
					      strerror(err));
}

static void try_map(const char *what, int fd, size_t len, int prot, int flags,
		    off_t off)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);
	int err = errno;

	report(what, p != MAP_FAILED, err);
	if (p != MAP_FAILED)
		munmap(p, len);
}

static void try_write(const char *what, const char *file, const char *value)
{
	char path[4096];
	int fd, ok, err;

	snprintf(path, sizeof(path), "%s/%s", tracefs(), file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		report(what, 0, errno);
		return;
	}
	ok = write(fd, value, strlen(value)) >= 0;
	err = errno;
	close(fd);
	report(what, ok, err);
}

static int cmd_limits(int fd)
{
	struct mapping m;
	long page = sysconf(_SC_PAGESIZE);

	if (map_all(fd, &m)) {
		perror("rb_peek: mmap");
		return 1;
	}
	size_t sub = m.meta->subbuf_size, meta_size = m.meta->meta_page_size;

	printf("mapped %zu bytes: meta-page %zu, %u sub-buffers of %zu\n",
	       m.len, meta_size, m.meta->nr_subbufs, sub);
	try_map("mmap MAP_PRIVATE", fd, page, PROT_READ, MAP_PRIVATE, 0);
	try_map("mmap PROT_READ|PROT_WRITE", fd, page, PROT_READ | PROT_WRITE,
		MAP_SHARED, 0);
	try_map("mmap PROT_EXEC", fd, page, PROT_READ | PROT_EXEC, MAP_SHARED,
		0);
	try_map("mmap one page past the end", fd, m.len + page, PROT_READ,
		MAP_SHARED, 0);
	try_map("mmap sub-buffer 1 alone", fd, sub, PROT_READ, MAP_SHARED,
		(off_t)(meta_size + sub));
	if (sub > (size_t)page)
		try_map("mmap at one page (inside the meta-page)", fd, page,
			PROT_READ, MAP_SHARED, (off_t)page);
	int ok = mprotect(m.base, page, PROT_READ | PROT_WRITE) == 0;

	report("mprotect PROT_WRITE", ok, errno);
	ok = munmap(m.base, page) == 0;
	report("munmap of the first page only", ok, errno);
	try_write("write buffer_size_kb while mapped", "buffer_size_kb", "64");
	try_write("write buffer_subbuf_size_kb while mapped",
		  "buffer_subbuf_size_kb", sub == 4096 ? "8" : "4");
	try_write("write snapshot while mapped", "snapshot", "1");
	munmap(m.base, m.len);
	try_write("write buffer_size_kb after munmap", "buffer_size_kb", "64");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { CLI_OPT_CPU, CLI_OPT_TRACEFS,
					      CLI_OPT_HELP, CLI_OPT_END };
	static const struct {
		const char *name;
		int (*run)(int fd);
	} cmds[] = {
		{ "layout", cmd_layout },
		{ "steps", cmd_steps },
		{ "limits", cmd_limits },
	};
	long cpu = 0;
	int opt, fd, rc;

	cli_start("rb_peek");
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'c') {
			if (cli_number("--cpu", optarg, 0, 4095, &cpu))
				return 2;
		} else if (opt == 't') {
			tracefs_dir = optarg;
		} else {
			return cli_other_option(opt, usage_text, argv, optind);
		}
	}
	if (cli_operands(argc, argv, optind, 1, 1, "COMMAND"))
		return 2;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[optind], cmds[i].name))
			continue;
		fd = open_cpu(cpu);
		if (fd < 0)
			return 1;
		rc = cmds[i].run(fd);
		close(fd);
		return cli_exit(rc);
	}
	return cli_usage_error("unknown command '%s'", argv[optind]);
}
