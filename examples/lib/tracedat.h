/* SPDX-License-Identifier: MIT */
/*
 * tracedat: write ring-buffer sub-buffers into a trace-cmd "trace.dat"
 * file (file format version 6, uncompressed, "flyrecord" per-CPU data),
 * which trace-cmd report and KernelShark open.
 * Copy tracedat.c and tracedat.h together with the tracemap files.
 *
 * The sub-buffers are stored as the kernel wrote them: their headers, the
 * missed-events flags of the commit word and the count stored after the
 * data survive, so trace-cmd reports the same losses ("CPU:N [M EVENTS
 * DROPPED]"). The file's page_size field is the sub-buffer size: trace-cmd
 * reads the CPU data in steps of page_size, so sub-buffers larger than
 * the page work when this field says their size (it must be a power of
 * two, as every sub-buffer size the kernel accepts is).
 *
 * The metadata comes from a directory laid out like tracefs (the tracefs
 * mount, an instance, or a copy): events/header_page, events/header_event,
 * events/<system>/<event>/format, and when present printk_formats and
 * saved_cmdlines. A copy needs only the first two and the formats.
 *
 * Use:
 *   tracemap_dat_create(&td, "trace.dat", dir, nr_cpus, subbuf_size);
 *   tracemap_dat_add(&td, cpu, subbuf) for each sub-buffer, in the order the
 *     CPU's reader got them (or tracemap_dat_add_capture(), or the
 *     tracemap_dat_map_*() calls around a tracemap reader);
 *   tracemap_dat_finish(&td, flags) writes the file, or tracemap_dat_discard().
 * Errors are negative errno values; tracemap_dat_error() has one line.
 */
#ifndef TRACEMAP_DAT_H
#define TRACEMAP_DAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tracemap.h"

/* tracemap_dat_finish() flags */
#define TRACEMAP_DAT_KALLSYMS 1 /* add /proc/kallsyms (function names) */

/* What one CPU of the file holds. The fields are private to tracedat.c. */
struct tracemap_dat_cpu {
	FILE *data; /* temporary file: the CPU's sub-buffers in order */
	uint64_t subbufs; /* how many */
	unsigned char *copy; /* mapped reader: last copy of its sub-buffer */
	bool have_copy;
	bool on_subbuf; /* the reader is on a sub-buffer (id) */
	uint32_t id;
};

/* A trace.dat being written. The fields are private to tracedat.c. */
struct tracemap_dat {
	char path[4096], dir[4096];
	int nr_cpus;
	uint32_t subbuf_size;
	struct tracemap_layout layout;
	struct tracemap_dat_cpu *cpus;
	char err[512];
};

/*
 * Start a file for CPUs 0..nr_cpus-1 and sub-buffers of subbuf_size bytes
 * (header included). dir: where events/header_page and the rest are read
 * (tracefs, an instance, or a copy); header_page is checked now. Nothing
 * is written to path before tracemap_dat_finish(). Returns 0, -EINVAL (bad
 * size or CPU count), -EBADMSG (header_page makes no sense), or -errno.
 */
int tracemap_dat_create(struct tracemap_dat *td, const char *path,
			const char *dir, int nr_cpus, uint32_t subbuf_size);
/*
 * Append one sub-buffer of subbuf_size bytes to CPU cpu's data, as-is. It
 * is checked first: -EBADMSG when its commit or one of its records cannot
 * be right (trace-cmd would stop reading the CPU there).
 */
int tracemap_dat_add(struct tracemap_dat *td, int cpu, const void *subbuf);
/*
 * Append every sub-buffer of file (what read() of trace_pipe_raw returned:
 * whole sub-buffers) to CPU cpu. Returns the number of sub-buffers added
 * or -errno (-EBADMSG: a partial or corrupt sub-buffer, named in the
 * error text).
 */
long tracemap_dat_add_capture(struct tracemap_dat *td, int cpu,
			      const char *file);
/*
 * Around a mapped tracemap reader of CPU cpu, to record what it consumes:
 *   tracemap_dat_map_before(): before every tracemap_get_reader(tm, &rd);
 *   tracemap_dat_map_after(): after it, with what it filled in rd
 *   (tracemap_dat_hook() below calls both, attached once);
 *   tracemap_dat_map_end(): once, after the last events, before closing tm.
 * A sub-buffer is stored once, when the reader leaves it, with the
 * events it held when the reader last looked (a copy taken before the
 * GET_READER that gave it back to the writer). -EOPNOTSUPP when tm reads
 * with read() (TRACEMAP_MODE_READ): use tracemap_dat_add() on its copies then.
 */
int tracemap_dat_map_before(struct tracemap_dat *td, int cpu,
			    const struct tracemap *tm);
int tracemap_dat_map_after(struct tracemap_dat *td, int cpu,
			   const struct tracemap *tm,
			   const struct tracemap_reader *rd);
int tracemap_dat_map_end(struct tracemap_dat *td, int cpu,
			 const struct tracemap *tm);
/*
 * The same as a tracemap_hook: before and after, with tm's CPU, into the
 * struct tracemap_dat that arg points to. Attach it once, with
 * tracemap_set_hook(tm, tracemap_dat_hook, td) or tracemap_merge_set_hook(),
 * and every GET_READER is recorded, tracemap_read()'s included.
 */
int tracemap_dat_hook(void *arg, struct tracemap *tm,
		      const struct tracemap_reader *rd);
/*
 * Write the file: the headers and formats read from dir now (so a live
 * recording gets the saved_cmdlines of its tasks), then each CPU's data.
 * Frees everything, also on failure (then the file is removed).
 */
int tracemap_dat_finish(struct tracemap_dat *td, int flags);
/* Free everything; write nothing. */
void tracemap_dat_discard(struct tracemap_dat *td);
/* The text of the last failure. */
const char *tracemap_dat_error(const struct tracemap_dat *td);

#endif /* TRACEMAP_DAT_H */
