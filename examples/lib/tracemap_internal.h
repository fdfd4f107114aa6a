/* SPDX-License-Identifier: MIT */
/*
 * The library's private declarations: shared by tracemap.c, tracemerge.c
 * and tracedat.c, not part of the API. Programs include tracemap.h,
 * tracemerge.h and tracedat.h only.
 */
#ifndef TRACEMAP_INTERNAL_H
#define TRACEMAP_INTERNAL_H

#include <stddef.h>

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

#endif /* TRACEMAP_INTERNAL_H */
