/* SPDX-License-Identifier: MIT */
/* Writing and reading tracefs files from the guest's C tests: one definition. */
#ifndef TRACEFS_WRITE_H
#define TRACEFS_WRITE_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T "/sys/kernel/tracing"

/* Write val to path (truncating). Returns 0 or -errno. */
static inline int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Write the decimal number v to path. Returns 0 or -errno. */
static inline int write_int(const char *path, int v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", v);
	return write_file(path, buf);
}

/* The first number in a tracefs file, or -1. */
static inline long read_number(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

#endif /* TRACEFS_WRITE_H */
