// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the loading of a directory of format files by
 * examples/lib/tracemap.c, as trace_stream --offline and tracedat load one:
 * tracemap_formats_load() (every events/<system>/<event>/format, sorted and
 * indexed by ID), tracemap_formats_find(), tracemap_formats_find_name() and
 * tracemap_layout_load() (events/header_page).
 *
 * The input is up to NR_FILES + 1 texts separated by NUL bytes: the first
 * is written to events/header_page, the others to
 * events/s<i % 2>/e<i>/format of a directory made once (a missing text
 * removes its file). Whatever they say, the load must count or describe
 * each file it cannot use, and the index must find every format it loaded
 * by its ID and by its name. Built with clang
 * -fsanitize=fuzzer,address,undefined by tests/fuzz/run.sh; the corpus
 * (corpus/formats_dir/) holds format files and header_page of the 6.12
 * guest.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracemap.h"

#define NR_FILES 8

static char dir[64], paths[NR_FILES + 1][128];
/* What each file holds now (NULL: no file), to write only what changed */
static struct {
	uint8_t *text;
	size_t len;
} files[NR_FILES + 1];

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "formats_dir_fuzz: %s\n", what);
		abort();
	}
}

static void cleanup(void)
{
	char path[128];

	for (int i = 0; i <= NR_FILES; i++) {
		unlink(paths[i]);
		free(files[i].text);
	}
	for (int i = 1; i <= NR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/events/s%d/e%d", dir, i % 2,
			 i);
		rmdir(path);
	}
	for (int s = 0; s < 2; s++) {
		snprintf(path, sizeof(path), "%s/events/s%d", dir, s);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/events", dir);
	rmdir(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[128];

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/formats_dir_fuzz.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	check(mkdtemp(dir) != NULL, "cannot make a temporary directory");
	atexit(cleanup);
	snprintf(path, sizeof(path), "%s/events", dir);
	check(!mkdir(path, 0700), "mkdir events");
	snprintf(paths[0], sizeof(paths[0]), "%s/events/header_page", dir);
	for (int s = 0; s < 2; s++) {
		snprintf(path, sizeof(path), "%s/events/s%d", dir, s);
		check(!mkdir(path, 0700), "mkdir system");
	}
	for (int i = 1; i <= NR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/events/s%d/e%d", dir, i % 2,
			 i);
		check(!mkdir(path, 0700), "mkdir event");
		snprintf(paths[i], sizeof(paths[i]), "%s/format", path);
	}
	return 0;
}

/* File i holds p[0..n), or is removed when p is NULL. */
static void put_file(int i, const uint8_t *p, size_t n)
{
	int fd;

	if (!p && !files[i].text)
		return;
	if (p && files[i].text && files[i].len == n &&
	    !memcmp(files[i].text, p, n))
		return;
	free(files[i].text);
	files[i].text = NULL;
	if (!p) {
		unlink(paths[i]);
		return;
	}
	fd = open(paths[i], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	check(fd >= 0, "cannot write a file");
	check(write(fd, p, n) == (ssize_t)n, "short write");
	close(fd);
	files[i].text = malloc(n ? n : 1);
	check(files[i].text != NULL, "out of memory");
	memcpy(files[i].text, p, n);
	files[i].len = n;
}

static void check_index(const struct tracemap_formats *fs, int n)
{
	size_t count = tracemap_formats_count(fs);
	const struct tracemap_format *last = NULL;

	check(n >= 0 && (size_t)n == count, "load: count is not the formats");
	check(tracemap_formats_failed(fs) >= 0 &&
		      tracemap_formats_failed(fs) <= NR_FILES + 2,
	      "load: more failures than files");
	check(!tracemap_formats_failed(fs) || tracemap_formats_error(fs)[0],
	      "load: a failure without its text");
	for (size_t i = 0; i < count; i++) {
		const struct tracemap_format *f = tracemap_formats_at(fs, i),
					     *g;

		check(f != NULL, "at: a format below the count is missing");
		check(!last || last->id <= f->id, "load: not sorted");
		last = f;
		g = tracemap_formats_find(fs, f->id);
		check(g && g->id == f->id, "find: a loaded ID is not found");
		g = tracemap_formats_find_name(fs, f->system, f->name);
		check(g && !strcmp(g->name, f->name) &&
			      !strcmp(g->system, f->system),
		      "find_name: a loaded name is not found");
	}
	check(!tracemap_formats_at(fs, count), "at: a format past the count");
	check(!tracemap_formats_find(fs, -1) &&
		      !tracemap_formats_find(fs, last ? last->id + 1 : 0) &&
		      !tracemap_formats_find(fs, TRACEMAP_ID_MAX + 1),
	      "find: an ID outside the index is found");
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	const uint8_t *p = in, *end = in + size;
	struct tracemap_formats fs;
	struct tracemap_layout l;
	int n, r;

	for (int i = 0; i <= NR_FILES; i++) {
		const uint8_t *nul = memchr(p, '\0', (size_t)(end - p));
		const uint8_t *e = nul ? nul : end;

		put_file(i, p < end || i == 0 ? p : NULL, (size_t)(e - p));
		p = nul ? nul + 1 : end;
	}
	r = tracemap_layout_load(&l, dir);
	check(r == 0 || r == -EBADMSG || r == -ENOENT,
	      "layout: unexpected return value");
	n = tracemap_formats_load(&fs, dir);
	check(n >= 0 || n == -ENOMEM, "load: unexpected return value");
	if (n >= 0) {
		check_index(&fs, n);
		tracemap_formats_free(&fs);
	} else {
		check(tracemap_formats_error(&fs)[0] != '\0',
		      "load: failed without saying why");
	}
	return 0;
}
