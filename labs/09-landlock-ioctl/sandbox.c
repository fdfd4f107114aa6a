// SPDX-License-Identifier: MIT
/*
 * Lab 09: restrict ioctl() on devices with Landlock's
 * LANDLOCK_ACCESS_FS_IOCTL_DEV (ABI 5, Linux 6.10), best effort on older
 * ABIs.
 *   ./sandbox [--abi N] DEVICE [PATH]    DEVICE: a tty, e.g. /dev/console
 * Opens DEVICE, sandboxes itself (everything allowed under PATH, / by
 * default, except ioctl() on devices), opens DEVICE again and tries ioctl()s
 * on both descriptors. --abi N acts as if the kernel had at most Landlock
 * ABI N. Output: one "operation | result | errno" row each
 * (examples/common/result_row.h); when the rule for PATH cannot be made, one
 * line on stderr and exit 1, unsandboxed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <termios.h>
#include <unistd.h>

#include "landlock_compat.h"
#include "result_row.h"

/* die(FORMAT, ...): "sandbox: WHAT: what errno says" on stderr, exit 1. */
__attribute__((format(printf, 1, 2))) static void die(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fputs("sandbox: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err));
	exit(1);
}

/* The file-system rights Landlock ABI abi knows, as handled_access_fs. */
static __u64 handled_rights(int abi)
{
	__u64 rights = 0;
	/* TODO 2: ABI 1 knows EXECUTE..MAKE_SYM (bits 0..12); ABI 2 adds REFER, ABI 3 TRUNCATE, ABI 5 IOCTL_DEV */
	/* WHY 2: each ABI adds rights; a right the kernel's ABI does not know makes landlock_create_ruleset fail, so handled_access_fs is built from the ABI. */
	rights = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;
	if (abi >= 2)
		rights |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	/* END TODO 2 */
	/* SKEL: (void)abi; */
	return rights;
}

/*
 * Sandbox this process: all handled rights under path, but IOCTL_DEV. When
 * the rule cannot be made, say so and exit: restricted without its rule, the
 * process would be denied everything the ruleset handles.
 */
static int sandbox(__u64 handled, const char *path)
{
	int rc = -1;
	/* TODO 3: a ruleset handling handled; a rule for path granting all of it but IOCTL_DEV (if it fails: die, unsandboxed); no_new_privs; restrict self */
	/* WHY 3: a handled right not granted by a rule is denied, so the rule for path grants all but IOCTL_DEV; each call is checked, since a ruleset without its rule denies everything, and no_new_privs is what lets a process without CAP_SYS_ADMIN restrict itself. */
	struct landlock_ruleset_attr_v6 attr = { .handled_access_fs = handled };
	struct landlock_path_beneath_attr rule = {
		.allowed_access = handled & ~LANDLOCK_ACCESS_FS_IOCTL_DEV,
	};
	int ruleset = sys_landlock_create_ruleset(&attr, sizeof(attr), 0);

	if (ruleset < 0)
		die("landlock_create_ruleset");
	rule.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (rule.parent_fd < 0)
		die("%s", path);
	if (sys_landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule,
				  0))
		die("landlock_add_rule for %s", path);
	close(rule.parent_fd);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die("prctl(PR_SET_NO_NEW_PRIVS)");
	rc = sys_landlock_restrict_self(ruleset, 0);
	close(ruleset);
	/* END TODO 3 */
	/* SKEL: (void)handled; */
	/* SKEL: (void)path; */
	return rc;
}

static void try_ioctl(const char *op, int fd, unsigned long cmd)
{
	struct termios tio;
	int arg = 0;

	CALL_ROW(op, ioctl(fd, cmd, cmd == TCGETS ? (void *)&tio : &arg) == 0);
}

int main(int argc, char **argv)
{
	int max_abi = 1000, abi = -1;
	char text[16];

	setvbuf(stdout, NULL, _IOLBF, 0); /* rows and errors in order */
	if (argc >= 3 && !strcmp(argv[1], "--abi")) {
		max_abi = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2 || argc > 3 || max_abi < 1) {
		fprintf(stderr, "usage: sandbox [--abi N] DEVICE [PATH]\n");
		return 2;
	}
	const char *path = argc == 3 ? argv[2] : "/";

	/* TODO 1: ask the kernel for its Landlock ABI version; use at most max_abi */
	/* WHY 1: a ruleset may only name rights the running kernel knows, so the program asks for the ABI version and never uses more than --abi allows. */
	abi = sys_landlock_create_ruleset(NULL, 0,
					  LANDLOCK_CREATE_RULESET_VERSION);
	if (abi > max_abi)
		abi = max_abi;
	/* END TODO 1 */
	result_header();
	snprintf(text, sizeof(text), "%d", abi);
	result_row("landlock ABI", text, abi < 0 ? errno : 0);
	if (abi < 1)
		return 1;
	__u64 handled = handled_rights(abi);

	result_row("LANDLOCK_ACCESS_FS_IOCTL_DEV",
		   handled & LANDLOCK_ACCESS_FS_IOCTL_DEV ? "handled" :
							    "dropped",
		   0);

	int before = open(argv[1], O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (before < 0)
		die("%s", argv[1]);
	CALL_ROW("sandboxed", sandbox(handled, path) == 0);

	int after = open(argv[1], O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (after < 0)
		die("%s", argv[1]);
	try_ioctl("fd opened before: TCGETS", before, TCGETS);
	try_ioctl("fd opened after: TCGETS", after, TCGETS);
	try_ioctl("fd opened after: FIONBIO", after, FIONBIO);
	CALL_ROW("fd opened after: write()", write(after, "", 0) == 0);
	return 0;
}
