// SPDX-License-Identifier: MIT
/*
 * mseal_demo: seal anonymous mappings and try every operation that sealing
 * is meant to refuse, and a few it allows. One line per operation:
 *   operation | result | errno
 * result is "ok", "refused", or what was observed ("yes", "changed", ...);
 * errno is the error name, empty when the call succeeded. Rows starting
 * with "->" observe the effect of the row above.
 * Exits 0 when every step could be tried, 1 on a setup failure.
 * "mseal_demo --help" says the same.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "mseal_compat.h"
#include "result_row.h"

static const char usage_text[] =
	"usage: mseal_demo\n"
	"Seal anonymous mappings with mseal() (Linux 6.10+) and try what sealing\n"
	"refuses and a few things it allows; one line per operation:\n"
	"  operation | result | errno\n"
	"  --help  print this and exit\n";

static size_t page;

static char *map_pages(size_t n, int prot, int flags)
{
	void *p = mmap(NULL, n * page, prot, flags | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mseal_demo: mmap");
		exit(1);
	}
	return p;
}

static char *map_anon(size_t n, int prot)
{
	return map_pages(n, prot, MAP_PRIVATE);
}

static void seal(char *p, size_t len)
{
	if (sys_mseal(p, len, 0)) {
		perror("mseal_demo: mseal");
		exit(1);
	}
}

/* The VmFlags line of the smaps entry that starts at p, or "" if none. */
static const char *vmflags(const char *p)
{
	static char line[512];
	char want[32];
	bool in = false;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return "";
	snprintf(want, sizeof(want), "%lx-", (unsigned long)p);
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && strncmp(line, want, strlen(want)) == 0)
			in = true;
		else if (in && strncmp(line, "VmFlags:", 8) == 0)
			break;
	}
	fclose(f);
	return in ? line : "";
}

static bool has_flag(const char *p, const char *flag)
{
	char word[8];

	snprintf(word, sizeof(word), " %s", flag);
	for (const char *s = vmflags(p); (s = strstr(s, word)); s++)
		if (s[strlen(word)] == ' ' || s[strlen(word)] == '\n')
			return true;
	return false;
}

/* The permissions ("rw-p") of the /proc/self/maps entry covering p. */
static const char *perms(const char *p)
{
	static char out[8];
	unsigned long lo, hi, at = (unsigned long)p;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	strcpy(out, "none");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, out) == 3 &&
		    lo <= at && at < hi)
			break;
		strcpy(out, "none");
	}
	if (f)
		fclose(f);
	return out;
}

static void argument_checks(void)
{
	char *p = map_anon(3, PROT_READ | PROT_WRITE);

	errno = 0;
	CALL_ROW("mseal flags=1", sys_mseal(p, page, 1) == 0);
	CALL_ROW("mseal start not page-aligned",
		 sys_mseal(p + 1, page, 0) == 0);
	CALL_ROW("mseal len=0", sys_mseal(p, 0, 0) == 0);
	munmap(p + page, page);
	CALL_ROW("mseal across a hole", sys_mseal(p, 3 * page, 0) == 0);
	CALL_ROW("mseal of unmapped memory", sys_mseal(p + page, page, 0) == 0);
	result_row("-> first page sealed after the refused call",
		   has_flag(p, "sl") ? "yes" : "no", 0);
	CALL_ROW("mseal len=1 (rounded up to a page)", sys_mseal(p, 1, 0) == 0);
	result_row("-> smaps VmFlags of that page has sl",
		   has_flag(p, "sl") ? "yes" : "no", 0);
	CALL_ROW("mseal again (already sealed)", sys_mseal(p, page, 0) == 0);
}

//! [blocked]
static void blocked_operations(void)
{
	char *p = map_anon(2, PROT_READ | PROT_WRITE);
	char *other = map_anon(2, PROT_READ | PROT_WRITE);

	strcpy(p, "sealed data");
	seal(p, 2 * page);
	CALL_ROW("mprotect PROT_READ", mprotect(p, 2 * page, PROT_READ) == 0);
	CALL_ROW("mprotect to the same protection",
		 mprotect(p, 2 * page, PROT_READ | PROT_WRITE) == 0);
	CALL_ROW("pkey_mprotect pkey=-1",
		 pkey_mprotect(p, 2 * page, PROT_READ, -1) == 0);
	CALL_ROW("munmap", munmap(p, 2 * page) == 0);
	CALL_ROW("munmap of one page", munmap(p + page, page) == 0);
	CALL_ROW("mremap shrink", mremap(p, 2 * page, page, 0) != MAP_FAILED);
	CALL_ROW("mremap grow",
		 mremap(p, 2 * page, 4 * page, MREMAP_MAYMOVE) != MAP_FAILED);
	CALL_ROW("mremap move",
		 mremap(p, 2 * page, 2 * page, MREMAP_MAYMOVE | MREMAP_FIXED,
			other) != MAP_FAILED);
	CALL_ROW("mremap another mapping onto it",
		 mremap(other, 2 * page, 2 * page,
			MREMAP_MAYMOVE | MREMAP_FIXED, p) != MAP_FAILED);
	CALL_ROW("mmap MAP_FIXED over it",
		 mmap(p, page, PROT_READ,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
		      0) != MAP_FAILED);
	CALL_ROW("madvise MADV_DONTNEED (writable)",
		 madvise(p, page, MADV_DONTNEED) == 0);
	strcpy(p, "sealed data");
	CALL_ROW("madvise MADV_RANDOM", madvise(p, page, MADV_RANDOM) == 0);
	result_row("-> write to the sealed page, then read back",
		   strcmp(p, "sealed data") == 0 ? "ok" : "changed", 0);
	munmap(other, 2 * page);
}
//! [blocked]

//! [madvise-ro]
static void madvise_read_only(void)
{
	static const struct {
		int advice;
		const char *name;
	} advice[] = {
		{ MADV_DONTNEED, "madvise MADV_DONTNEED (read-only)" },
		{ MADV_FREE, "madvise MADV_FREE (read-only)" },
		{ MADV_DONTNEED_LOCKED,
		  "madvise MADV_DONTNEED_LOCKED (read-only)" },
		{ MADV_DONTFORK, "madvise MADV_DONTFORK (read-only)" },
		{ MADV_WIPEONFORK, "madvise MADV_WIPEONFORK (read-only)" },
		{ MADV_RANDOM, "madvise MADV_RANDOM (read-only)" },
	};
	char *p = map_anon(1, PROT_READ | PROT_WRITE);
	char *shared = map_pages(1, PROT_READ, MAP_SHARED);

	strcpy(p, "kept");
	mprotect(p, page, PROT_READ);
	seal(p, page);
	for (size_t i = 0; i < sizeof(advice) / sizeof(advice[0]); i++)
		CALL_ROW(advice[i].name,
			 madvise(p, page, advice[i].advice) == 0);
	result_row("-> contents afterwards",
		   strcmp(p, "kept") == 0 ? "kept" : "lost", 0);
	seal(shared, page);
	CALL_ROW("madvise MADV_DONTNEED (read-only, MAP_SHARED)",
		 madvise(shared, page, MADV_DONTNEED) == 0);
}
//! [madvise-ro]

//! [spanning]
static void spanning_two_mappings(void)
{
	/* Two pages, then different protections make them two mappings. */
	char *p = map_anon(2, PROT_READ | PROT_WRITE);

	mprotect(p + page, page, PROT_READ);
	seal(p + page, page);
	CALL_ROW("mprotect PROT_NONE over unsealed+sealed",
		 mprotect(p, 2 * page, PROT_NONE) == 0);
	result_row("-> unsealed page afterwards",
		   strcmp(perms(p), "rw-p") == 0 ? "kept" : "changed", 0);
	mprotect(p, page, PROT_READ | PROT_WRITE);
	CALL_ROW("munmap over unsealed+sealed", munmap(p, 2 * page) == 0);
	result_row("-> unsealed page afterwards",
		   strcmp(perms(p), "rw-p") == 0 ? "kept" : "changed", 0);
}
//! [spanning]

static void after_fork(void)
{
	char *p = map_anon(1, PROT_READ | PROT_WRITE);
	int status;

	seal(p, page);
	fflush(stdout);
	pid_t pid = fork();

	if (pid == 0)
		_exit(munmap(p, page) == 0 ? 0 : errno);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		perror("mseal_demo: fork");
		exit(1);
	}
	result_row("munmap in a fork()ed child",
		   WEXITSTATUS(status) ? "refused" : "ok", WEXITSTATUS(status));
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { CLI_OPT_HELP, CLI_OPT_END };
	int opt;

	cli_start("mseal_demo");
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1)
		return cli_other_option(opt, usage_text, argv, optind);
	if (cli_operands(argc, argv, optind, 0, 0, NULL))
		return 2;
	page = (size_t)sysconf(_SC_PAGESIZE);
	result_header();
	argument_checks();
	blocked_operations();
	madvise_read_only();
	spanning_two_mappings();
	after_fork();
	return cli_exit(0);
}
