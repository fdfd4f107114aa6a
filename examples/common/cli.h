/* SPDX-License-Identifier: MIT */
/*
 * The command-line conventions every example program follows:
 *  - getopt_long options, the same names everywhere: --cpu N, --tracefs DIR,
 *    --help (the usage, on stdout, exit 0);
 *  - bad usage: one line on stderr naming what is wrong, exit 2;
 *  - an error: one line on stderr, exit 1;
 *  - stdout is checked before exiting: a failed write is an error, never a
 *    silent success.
 * Each program calls cli_start() with its name first.
 */
#ifndef CLI_H
#define CLI_H

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *cli_prog = "example";

/* The options every program spells the same way, for its option table. */
/* clang-format off */
#define CLI_OPT_CPU { "cpu", required_argument, NULL, 'c' }
#define CLI_OPT_TRACEFS { "tracefs", required_argument, NULL, 't' }
#define CLI_OPT_HELP { "help", no_argument, NULL, 'h' }
#define CLI_OPT_END { 0 }
/* clang-format on */

/* First thing in main(): the name for messages; getopt itself stays quiet. */
static inline void cli_start(const char *prog)
{
	cli_prog = prog;
	opterr = 0;
}

/* Bad usage: one line on stderr; returns the exit status 2. */
static inline int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s --help lists the options)\n", cli_prog);
	return 2;
}

/* An unknown option or a missing value, after getopt_long returned '?'. */
static inline int cli_bad_option(char **argv, int optind_now)
{
	return cli_usage_error("unknown option or missing value: %s",
			       argv[optind_now - 1]);
}

/*
 * The decimal number arg of option opt, in [min, max], into *v. Returns 0,
 * or the exit status 2 after saying what is wrong.
 */
static inline int cli_number(const char *opt, const char *arg, long min,
			     long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(arg, &end, 10);
	/* strtol() skips leading blanks and takes a sign: digits only here */
	if (!errno && !*end && end != arg && *v >= min && *v <= max &&
	    (isdigit((unsigned char)arg[0]) || (arg[0] == '-' && min < 0)))
		return 0;
	if (max == LONG_MAX)
		return cli_usage_error(
			"%s: '%s' is not a number of %ld or more", opt, arg,
			min);
	return cli_usage_error("%s: '%s' is not a number from %ld to %ld", opt,
			       arg, min, max);
}

/*
 * Flush stdout and return status, or 1 after one line on stderr when
 * anything written to stdout was lost. Every example returns through it.
 */
static inline int cli_exit(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: writing to stdout: %s\n", cli_prog,
			strerror(errno ? errno : EIO));
		return 1;
	}
	return status;
}

/* --help: the usage text on stdout. */
static inline int cli_help(const char *usage)
{
	fputs(usage, stdout);
	return cli_exit(0);
}

/*
 * The last arm of every option loop: --help (opt 'h') prints usage and
 * exits 0, anything else is bad usage. Returns the exit status.
 */
static inline int cli_other_option(int opt, const char *usage, char **argv,
				   int optind_now)
{
	if (opt == 'h')
		return cli_help(usage);
	return cli_bad_option(argv, optind_now);
}

/*
 * The operands after the options: from min to max of them; missing names
 * the first one that is missing. Returns 0, or the exit status 2 after
 * saying what is wrong.
 */
static inline int cli_operands(int argc, char **argv, int optind_now, int min,
			       int max, const char *missing)
{
	if (argc - optind_now > max)
		return cli_usage_error("unexpected argument '%s'",
				       argv[optind_now + max]);
	if (argc - optind_now < min)
		return cli_usage_error("%s is missing", missing);
	return 0;
}

#endif /* CLI_H */
