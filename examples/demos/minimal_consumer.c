// SPDX-License-Identifier: MIT
/* minimal_consumer: read one CPU's mapped ring buffer without the library. */
#include <err.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cli.h"
#include "ring_buffer_format.h"
#include "trace_mmap_compat.h"

static const char usage[] = "usage: minimal_consumer [--cpu N] [--count N]\n";
static const struct option opts[] = { CLI_OPT_CPU,
				      CLI_OPT_HELP,
				      { "count", required_argument, NULL, 'n' },
				      CLI_OPT_END };
static long count = LONG_MAX, printed;

//! [subbuf]
/* Print the events of sub-buffer sb from byte pos of its data to byte end. */
static void read_subbuf(const char *sb, uint32_t pos, uint32_t end)
{
	const char *data = sb + RB_SUBBUF_HEADER_64; /* a 64-bit kernel's */
	unsigned long long ts, word, missed = -1; /* -1: count not stored */

	memcpy(&word, sb + RB_COMMIT_OFFSET, 8); /* the flags: its low half */
	if (!pos && (word & RB_MISSED_STORED)) /* the count follows the data */
		memcpy(&missed, data + (word & RB_COMMIT_MASK), 8);
	if (!pos && (word & RB_MISSED_EVENTS)) /* lost before this sub-buffer */
		printf("missed %lld\n", (long long)missed);
	memcpy(&ts, sb + RB_TIME_STAMP_OFFSET, 8); /* deltas start from it */
	for (uint32_t off = 0, len, ev[2]; end - off >= 8; off += len) {
		memcpy(ev, data + off, sizeof(ev)); /* header, array[0] */
		uint32_t type = rb_type_len(ev[0]); /* bit-fields: */
		uint64_t delta = rb_time_delta(ev[0]); /* byte order */
		uint64_t wide = (uint64_t)ev[1] << RB_TS_SHIFT | delta;
		uint32_t size = type ? type * 4 : ev[1] - 4; /* of data */
		const char *p = data + off + (type ? 4 : 8), *text = p + 16;
		uint16_t id; /* the payload's first field: 5 is ftrace/print */

		len = !type || type == RB_TYPE_PADDING ? 4 + ev[1] :
		      type < RB_TYPE_PADDING	       ? 4 + size :
							 8;
		if ((type == RB_TYPE_PADDING && !delta) ||
		    (!type && ev[1] < 8) || len > end - off)
			break; /* the rest is empty, or not an event: stop */
		if (type == RB_TYPE_TIME_STAMP) /* 59 bits, the top from ts */
			ts = ts >> RB_TS_ABS_BITS << RB_TS_ABS_BITS | wide;
		else /* a time extend adds wide, any other event its delta */
			ts += type == RB_TYPE_TIME_EXTEND ? wide : delta;
		if (type > RB_TYPE_DATA_MAX || off < pos || printed == count)
			continue;
		memcpy(&id, p, sizeof(id));
		int n = id == 5 && size > 16 ? strnlen(text, size - 16) : 0;
		n -= n && text[n - 1] == '\n'; /* the text ends "\n\0" */
		printf("%llu.%09llu size %u id %u%s%.*s\n", ts / 1000000000,
		       ts % 1000000000, size, id, n ? " " : "", n, text);
		printed++;
	}
}
//! [subbuf]

int main(int argc, char **argv)
{
	long cpu = 0, page = sysconf(_SC_PAGESIZE);
	char path[64];
	int opt;

	cli_start("minimal_consumer");
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'c' && cli_number("--cpu", optarg, 0, 4095, &cpu))
			return 2;
		if (opt == 'n' && cli_number("--count", optarg, 1, 1e9, &count))
			return 2;
		if (opt != 'c' && opt != 'n')
			return cli_other_option(opt, usage, argv, optind);
	}
	if (cli_operands(argc, argv, optind, 0, 0, NULL))
		return 2;
	//! [map]
	snprintf(path, sizeof(path),
		 "/sys/kernel/tracing/per_cpu/cpu%ld/trace_pipe_raw", cpu);
	int fd = open(path, O_RDONLY | O_NONBLOCK); /* GET_READER never waits */
	if (fd < 0)
		err(1, "%s", path);
	/* One page holds the sizes; it stays mapped until the whole is. */
	struct trace_buffer_meta *probe =
		mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (probe == MAP_FAILED)
		err(1, "mmap");
	size_t len = rb_map_len(probe->meta_page_size, probe->subbuf_size,
				probe->nr_subbufs);
	struct trace_buffer_meta *m =
		mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		err(1, "mmap");
	munmap(probe, page);
	//! [map]
	//! [loop]
	uint32_t id = m->reader.id, pos = m->reader.read; /* where we are */

	while (printed < count) {
		if (ioctl(fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
			err(1, "TRACE_MMAP_IOCTL_GET_READER");
		uint32_t end = m->reader.read; /* what the call handed over */
		if (m->reader.id == id && end == pos)
			break; /* nothing new: done */
		pos = m->reader.id == id && pos < end ? pos : 0; /* 0: new */
		id = m->reader.id;
		read_subbuf((char *)m + rb_subbuf_offset(m->meta_page_size,
							 m->subbuf_size, id),
			    pos, end);
		pos = end;
	}
	//! [loop]
	munmap(m, len);
	close(fd);
	return cli_exit(0);
}
