// SPDX-License-Identifier: MIT
/*
 * allocinfo: read /proc/allocinfo (memory-allocation profiling, Linux 6.10+).
 * "allocinfo --help" (usage_text below) prints the options. Output columns:
 * bytes, calls, site; diff adds the change of each before them.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage_text[] =
	"usage: allocinfo [OPTIONS] [FILE]          top allocation sites\n"
	"       allocinfo [OPTIONS] diff OLD NEW    sites whose bytes or calls changed\n"
	"Read /proc/allocinfo (memory-allocation profiling, Linux 6.10+), or FILE\n"
	"(\"-\": standard input).\n"
	"  -s, --sort bytes|calls  sort by this (default bytes); diff sorts by growth\n"
	"  -n, --lines N           print N lines (default 10, 0 for all)\n"
	"  -m, --module MODULE     only sites in MODULE (\"vmlinux\": the kernel)\n"
	"  -f, --file TEXT         only sites whose file name contains TEXT\n"
	"  -F, --function NAME     only sites in this function\n"
	"  --help                  print this and exit\n";

struct site {
	long long bytes;
	unsigned long long calls;
	long long d_bytes; /* diff: change since the old snapshot */
	long long d_calls;
	char *tag; /* "file:line [module] func:name", as the kernel prints it */
	char *file, *module, *func; /* parts of tag; module NULL: vmlinux */
};

struct snapshot {
	struct site *sites;
	size_t n, cap;
};

static struct {
	bool by_calls;
	long limit;
	const char *module, *file, *func;
} opt = { .limit = 10 };

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "allocinfo: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		die("%s", strerror(errno));
	return p;
}

//! [parse-line]
/*
 * Split one line, "%12lli %8llu file:line [module] func:name ", into s.
 * Returns false when it does not have that shape.
 */
static bool parse_line(char *line, struct site *s)
{
	int tag_at = 0;

	/* The kernel ends each line with " \n": drop trailing white space. */
	for (size_t n = strlen(line); n && strchr(" \t\n", line[n - 1]); n--)
		line[n - 1] = '\0';
	if (sscanf(line, "%lli %llu %n", &s->bytes, &s->calls, &tag_at) != 2 ||
	    !tag_at || !line[tag_at])
		return false;
	s->tag = strdup(line + tag_at);
	s->file = strdup(line + tag_at);
	if (!s->tag || !s->file)
		die("%s", strerror(errno));

	/* file:line, then an optional " [module]", then " func:name". */
	char *func = strstr(s->file, " func:");
	char *colon = strchr(s->file, ':');

	if (!func || !colon || colon > func)
		return false;
	*func = '\0';
	s->func = func + strlen(" func:");
	s->module = strstr(s->file, " [");
	if (s->module) {
		*s->module = '\0';
		s->module += 2;
		char *end = strchr(s->module, ']');

		if (!end || end[1])
			return false;
		*end = '\0';
	}
	*strrchr(s->file, ':') = '\0'; /* drop ":line" */
	return *s->func && *s->file;
}
//! [parse-line]

static bool wanted(const struct site *s)
{
	const char *module = s->module ? s->module : "vmlinux";

	return (!opt.module || strcmp(module, opt.module) == 0) &&
	       (!opt.file || strstr(s->file, opt.file)) &&
	       (!opt.func || strcmp(s->func, opt.func) == 0);
}

/* Read a whole allocinfo file; every line must parse. */
static void read_snapshot(const char *path, struct snapshot *snap)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *line = NULL;
	size_t size = 0;
	long lineno = 0;

	if (!f)
		die("cannot open %s", path);
	while (getline(&line, &size, f) > 0) {
		lineno++;
		if (lineno == 1) {
			if (strncmp(line, "allocinfo - version: 1.", 23) != 0)
				die("%s: not an allocinfo version 1 file",
				    path);
			continue;
		}
		if (line[0] == '#')
			continue;
		if (snap->n == snap->cap) {
			snap->cap = snap->cap ? 2 * snap->cap : 1024;
			snap->sites = realloc(snap->sites,
					      snap->cap * sizeof(*snap->sites));
			if (!snap->sites)
				die("%s", strerror(errno));
		}
		struct site *s = &snap->sites[snap->n];

		memset(s, 0, sizeof(*s));
		if (!parse_line(line, s)) {
			char where[64];

			snprintf(where, sizeof(where), ":%ld", lineno);
			fprintf(stderr,
				"allocinfo: %s%s: not an allocinfo line\n",
				path, where);
			exit(1);
		}
		snap->n++;
	}
	if (ferror(f))
		die("cannot read %s", path);
	if (lineno == 0)
		die("%s: empty", path);
	free(line);
	if (f != stdin)
		fclose(f);
}

static int by_tag(const void *a, const void *b)
{
	return strcmp(((const struct site *)a)->tag,
		      ((const struct site *)b)->tag);
}

static int cmp_ll(long long a, long long b)
{
	return a < b ? 1 : a > b ? -1 : 0; /* descending */
}

static int by_key(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	int c = opt.by_calls ?
			cmp_ll((long long)x->calls, (long long)y->calls) :
			cmp_ll(x->bytes, y->bytes);

	return c ? c : by_tag(a, b);
}

static int by_growth(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	int c = opt.by_calls ? cmp_ll(x->d_calls, y->d_calls) :
			       cmp_ll(x->d_bytes, y->d_bytes);

	return c ? c : by_key(a, b);
}

static void print(struct site *sites, size_t n, bool diff)
{
	size_t shown = 0;

	if (diff)
		printf("%12s %9s ", "+bytes", "+calls");
	printf("%12s %8s %s\n", "bytes", "calls", "site");
	for (size_t i = 0; i < n && (opt.limit == 0 || (long)shown < opt.limit);
	     i++) {
		if (!wanted(&sites[i]))
			continue;
		if (diff)
			printf("%+12lld %+9lld ", sites[i].d_bytes,
			       sites[i].d_calls);
		printf("%12lld %8llu %s\n", sites[i].bytes, sites[i].calls,
		       sites[i].tag);
		shown++;
	}
}

//! [diff]
/*
 * The sites of new whose counters differ from old: a site only in old (its
 * module was unloaded) counts as dropping to 0, one only in new as growing
 * from 0.
 */
static size_t diff(struct snapshot *old, struct snapshot *new, struct site *out)
{
	size_t i = 0, j = 0, n = 0;

	qsort(old->sites, old->n, sizeof(*old->sites), by_tag);
	qsort(new->sites, new->n, sizeof(*new->sites), by_tag);
	while (i < old->n || j < new->n) {
		int c = i == old->n ? 1 :
			j == new->n ? -1 :
				      by_tag(&old->sites[i], &new->sites[j]);
		struct site s = c < 0 ? old->sites[i] : new->sites[j];

		s.d_bytes = s.bytes;
		s.d_calls = (long long)s.calls;
		if (c < 0) { /* gone: now 0 */
			s.d_bytes = -s.bytes;
			s.d_calls = -(long long)s.calls;
			s.bytes = 0;
			s.calls = 0;
		} else if (c == 0) {
			s.d_bytes -= old->sites[i].bytes;
			s.d_calls -= (long long)old->sites[i].calls;
		}
		i += c <= 0;
		j += c >= 0;
		if (s.d_bytes || s.d_calls)
			out[n++] = s;
	}
	return n;
}
//! [diff]

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sort", required_argument, NULL, 's' },
		{ "lines", required_argument, NULL, 'n' },
		{ "module", required_argument, NULL, 'm' },
		{ "file", required_argument, NULL, 'f' },
		{ "function", required_argument, NULL, 'F' },
		CLI_OPT_HELP,
		CLI_OPT_END
	};
	struct snapshot old = { 0 }, new = { 0 };
	int c;

	cli_start("allocinfo");
	while ((c = getopt_long(argc, argv, "s:n:m:f:F:", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (strcmp(optarg, "bytes") && strcmp(optarg, "calls"))
				return cli_usage_error(
					"--sort: '%s' is neither bytes nor calls",
					optarg);
			opt.by_calls = strcmp(optarg, "calls") == 0;
			break;
		case 'n':
			if (cli_number("--lines", optarg, 0, LONG_MAX,
				       &opt.limit))
				return 2;
			break;
		case 'm':
			opt.module = optarg;
			break;
		case 'f':
			opt.file = optarg;
			break;
		case 'F':
			opt.func = optarg;
			break;
		default:
			return cli_other_option(c, usage_text, argv, optind);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc >= 1 && strcmp(argv[0], "diff") == 0) {
		if (argc != 3)
			return cli_usage_error("diff wants OLD NEW%s", "");
		read_snapshot(argv[1], &old);
		read_snapshot(argv[2], &new);
		struct site *changed =
			xmalloc((old.n + new.n + 1) * sizeof(*changed));
		size_t n = diff(&old, &new, changed);

		qsort(changed, n, sizeof(*changed), by_growth);
		print(changed, n, true);
		return cli_exit(0);
	}
	if (argc > 1)
		return cli_usage_error("unexpected argument '%s'", argv[1]);
	read_snapshot(argc ? argv[0] : "/proc/allocinfo", &new);
	qsort(new.sites, new.n, sizeof(*new.sites), by_key);
	print(new.sites, new.n, false);
	return cli_exit(0);
}
