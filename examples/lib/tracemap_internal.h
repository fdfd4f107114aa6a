/* SPDX-License-Identifier: MIT */
/*
 * The library's private declarations: shared by tracemap.c, tracemerge.c
 * and tracedat.c, not part of the API. Programs include tracemap.h,
 * tracemerge.h and tracedat.h only.
 */
#ifndef TRACEMAP_INTERNAL_H
#define TRACEMAP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/**
 * tracemap_error_set() - write one line of error text and return a code
 * @buf: the error buffer
 * @size: its size in bytes; a longer message is cut to fit
 * @code: what to return: a negative errno value (0 from msg() in tracemap.c)
 * @fmt: printf format of the message
 * @...: its arguments
 *
 * Return: @code.
 */
int tracemap_error_set(char *buf, size_t size, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

struct tracemap;

/**
 * tracemap_clock_ns() - the buffer's trace clock now
 * @tm: an open CPU
 *
 * Reads "now ts" of per_cpu/cpuN/stats: the buffer's trace_clock read by
 * the kernel during the read(), on the CPU that reads (which is why it
 * tells the clock of every CPU where the trace clock is in sync), to the
 * nearest microsecond (the kernel's ns2usecs() adds 500 ns): up to 500 ns
 * ahead of the clock.
 *
 * Return: the clock in ns; 0 when the clock does not count time (counter,
 * x86-tsc) or the file could not be read.
 */
uint64_t tracemap_clock_ns(struct tracemap *tm);

#endif /* TRACEMAP_INTERNAL_H */
