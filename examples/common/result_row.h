/* SPDX-License-Identifier: MIT */
/*
 * One line of a demo's result table: "operation | result | errno", with
 * errno as its name (EPERM), empty when err is 0. The guide shows these
 * tables and the guest tests read them back.
 */
#ifndef RESULT_ROW_H
#define RESULT_ROW_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define RESULT_ROW_FORMAT "%-52s | %-7s | %s\n"

static inline void result_header(void)
{
	printf(RESULT_ROW_FORMAT, "operation", "result", "errno");
}

static inline void result_row(const char *op, const char *result, int err)
{
	printf(RESULT_ROW_FORMAT, op, result, err ? strerrorname_np(err) : "");
}

/*
 * CALL_ROW(op, ok): a row for a call whose success is the expression ok,
 * evaluated before errno is read: "ok", or "refused" with errno's name.
 */
#define CALL_ROW(op, ok)                                                 \
	do {                                                             \
		int ok_ = (ok);                                          \
		result_row(op, ok_ ? "ok" : "refused", ok_ ? 0 : errno); \
	} while (0)

#endif /* RESULT_ROW_H */
