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

/**
 * tracemap_dat_create() - start a trace.dat file
 * @td: the file to set up
 * @path: where tracemap_dat_finish() writes it
 * @dir: where events/header_page and the rest are read (tracefs, an
 *	instance, or a copy); header_page is checked now
 * @nr_cpus: the file holds CPUs 0..nr_cpus-1 (1 to 4096)
 * @subbuf_size: the sub-buffer size in bytes, header included (a power
 *	of two, at least 64)
 *
 * Nothing is written to @path before tracemap_dat_finish().
 *
 * Return: 0, -EINVAL (bad size or CPU count), -EBADMSG (header_page makes
 * no sense), or -errno (-ENAMETOOLONG, -ENOMEM, the read of header_page).
 */
int tracemap_dat_create(struct tracemap_dat *td, const char *path,
			const char *dir, int nr_cpus, uint32_t subbuf_size);
/**
 * tracemap_dat_add() - append one sub-buffer to a CPU's data, as-is
 * @td: the file
 * @cpu: the CPU
 * @subbuf: the sub-buffer, of the file's subbuf_size bytes
 *
 * The sub-buffer is checked first.
 *
 * Return: 0; -EBADMSG when its commit or one of its records cannot be
 * right (trace-cmd would stop reading the CPU there); -EINVAL when @cpu is
 * not in the file; or -errno of the temporary file (-EIO).
 */
int tracemap_dat_add(struct tracemap_dat *td, int cpu, const void *subbuf);
/**
 * tracemap_dat_add_capture() - append every sub-buffer of a capture file
 * @td: the file
 * @cpu: the CPU
 * @file: what read() of trace_pipe_raw returned: whole sub-buffers
 *
 * Return: the number of sub-buffers added, or -errno (-EBADMSG: a partial
 * or corrupt sub-buffer, named in the error text). The sub-buffers before
 * a failure stay added.
 */
long tracemap_dat_add_capture(struct tracemap_dat *td, int cpu,
			      const char *file);
/**
 * tracemap_dat_map_before() - record a mapped reader: before GET_READER
 * @td: the file
 * @cpu: the reader's CPU
 * @tm: a mapped tracemap reader of CPU @cpu
 *
 * Around a mapped tracemap reader of CPU cpu, to record what it consumes:
 *   tracemap_dat_map_before(): before every tracemap_get_reader(tm, &rd);
 *   tracemap_dat_map_after(): after it, with what it filled in rd
 *   (tracemap_dat_hook() below calls both, attached once);
 *   tracemap_dat_map_end(): once, after the last events, before closing tm.
 * A sub-buffer is stored once, when the reader leaves it, with the
 * events it held when the reader last looked (a copy taken before the
 * GET_READER that gave it back to the writer).
 *
 * Return: 0; -EOPNOTSUPP when tm reads with read() (TRACEMAP_MODE_READ):
 * use tracemap_dat_add() on its copies then; -EINVAL when @cpu is not in
 * the file or @tm's sub-buffer size is not the file's; -EBADMSG, -ENOMEM.
 */
int tracemap_dat_map_before(struct tracemap_dat *td, int cpu,
			    const struct tracemap *tm);
/**
 * tracemap_dat_map_after() - record a mapped reader: after GET_READER
 * @td: the file
 * @cpu: the reader's CPU
 * @tm: a mapped tracemap reader of CPU @cpu
 * @rd: what tracemap_get_reader() filled in
 *
 * See tracemap_dat_map_before(). The sub-buffer the reader left is stored
 * now (when it held anything).
 *
 * Return: 0, or what tracemap_dat_map_before() and tracemap_dat_add()
 * return.
 */
int tracemap_dat_map_after(struct tracemap_dat *td, int cpu,
			   const struct tracemap *tm,
			   const struct tracemap_reader *rd);
/**
 * tracemap_dat_map_end() - record a mapped reader: after the last events
 * @td: the file
 * @cpu: the reader's CPU
 * @tm: a mapped tracemap reader of CPU @cpu
 *
 * Once, after the last events, before closing @tm: stores the sub-buffer
 * the reader is on (see tracemap_dat_map_before()).
 *
 * Return: 0, or what tracemap_dat_map_before() and tracemap_dat_add()
 * return.
 */
int tracemap_dat_map_end(struct tracemap_dat *td, int cpu,
			 const struct tracemap *tm);
/**
 * tracemap_dat_hook() - tracemap_dat_map_before() and _after() as a hook
 * @arg: the struct tracemap_dat to record into
 * @tm: the reader
 * @rd: NULL before GET_READER, what it found after
 *
 * The same as a tracemap_hook: before and after, with tm's CPU, into the
 * struct tracemap_dat that arg points to. Attach it once, with
 * tracemap_set_hook(tm, tracemap_dat_hook, td) or tracemap_merge_set_hook(),
 * and every GET_READER is recorded, tracemap_read()'s included.
 *
 * Return: what tracemap_dat_map_before() (@rd NULL) or
 * tracemap_dat_map_after() returns.
 */
int tracemap_dat_hook(void *arg, struct tracemap *tm,
		      const struct tracemap_reader *rd);
/**
 * tracemap_dat_finish() - write the file
 * @td: the file
 * @flags: TRACEMAP_DAT_KALLSYMS, or 0
 *
 * Write the file: the headers and formats read from dir now (so a live
 * recording gets the saved_cmdlines of its tasks), then each CPU's data.
 * Frees everything, also on failure (then the file is removed, if it is a
 * regular file).
 *
 * Return: 0, or -errno (of the failed open or write: -ENOSPC, -EIO, ...).
 */
int tracemap_dat_finish(struct tracemap_dat *td, int flags);
/**
 * tracemap_dat_discard() - free everything; write nothing
 * @td: the file
 */
void tracemap_dat_discard(struct tracemap_dat *td);
/**
 * tracemap_dat_error() - the text of the last failure
 * @td: the file
 *
 * Return: the text of the last failure.
 */
const char *tracemap_dat_error(const struct tracemap_dat *td);

#endif /* TRACEMAP_DAT_H */
