// SPDX-License-Identifier: MIT
/*
 * landlock_ioctl: sandbox this process with Landlock so that ioctl() on
 * device files needs LANDLOCK_ACCESS_FS_IOCTL_DEV, granted nowhere except on
 * GRANTED, then try ioctls on descriptors opened before and after.
 *   landlock_ioctl [--abi N] DEVICE [GRANTED]   DEVICE, GRANTED: tty devices
 * Best effort: on a kernel older than Landlock ABI 6 it handles what that
 * ABI knows and says what it dropped; --abi N acts as if the kernel had at
 * most ABI N. Output: "operation | result | errno". "landlock_ioctl --help"
 * prints the options.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"
#include "landlock_compat.h"
#include "result_row.h"

static const char usage_text[] =
	"usage: landlock_ioctl [--abi N] DEVICE [GRANTED]\n"
	"Sandbox this process with Landlock so that ioctl() on device files needs\n"
	"LANDLOCK_ACCESS_FS_IOCTL_DEV, granted only on GRANTED, then try ioctls\n"
	"on DEVICE opened before and after; one line per operation:\n"
	"  operation | result | errno\n"
	"  DEVICE, GRANTED  tty devices (/dev/console, /dev/ttyS0)\n"
	"  --abi N          act as if the kernel had at most Landlock ABI N\n"
	"  --help           print this and exit\n";

//! [abi]
/* The file-system rights a kernel with Landlock ABI version abi knows. */
static __u64 fs_rights(int abi)
{
	__u64 rights = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1 */

	if (abi >= 2)
		rights |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return rights;
}
//! [abi]

static void die(const char *what)
{
	fprintf(stderr, "landlock_ioctl: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void add_path_rule(int ruleset, const char *path, __u64 access)
{
	struct landlock_path_beneath_attr rule = { .allowed_access = access };

	rule.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (rule.parent_fd < 0)
		die(path);
	if (sys_landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule,
				  0))
		die("landlock_add_rule");
	close(rule.parent_fd);
}

//! [sandbox]
/* Restrict this process: everything allowed under /, except ioctl() on
 * devices, which only granted (if not NULL) keeps. Returns the ABI. */
static int sandbox(const char *granted, int max_abi)
{
	int abi = sys_landlock_create_ruleset(NULL, 0,
					      LANDLOCK_CREATE_RULESET_VERSION);

	if (abi > max_abi)
		abi = max_abi;
	if (abi < 0) {
		result_row("landlock (running unsandboxed)", "missing", errno);
		return 0;
	}
	struct landlock_ruleset_attr_v6 attr = {
		.handled_access_fs = fs_rights(abi),
	};
	/* Only ABI 5 and later can restrict ioctl(): say so, go on. */
	if (!(attr.handled_access_fs & LANDLOCK_ACCESS_FS_IOCTL_DEV))
		result_row("LANDLOCK_ACCESS_FS_IOCTL_DEV (needs ABI 5)",
			   "dropped", 0);

	int ruleset = sys_landlock_create_ruleset(&attr, sizeof(attr), 0);

	if (ruleset < 0)
		die("landlock_create_ruleset");
	add_path_rule(ruleset, "/",
		      attr.handled_access_fs & ~LANDLOCK_ACCESS_FS_IOCTL_DEV);
	if (granted)
		add_path_rule(ruleset, granted,
			      attr.handled_access_fs &
				      (LANDLOCK_ACCESS_FS_READ_FILE |
				       LANDLOCK_ACCESS_FS_WRITE_FILE |
				       LANDLOCK_ACCESS_FS_IOCTL_DEV));
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die("prctl(PR_SET_NO_NEW_PRIVS)");
	if (sys_landlock_restrict_self(ruleset, 0))
		die("landlock_restrict_self");
	close(ruleset);
	return abi;
}
//! [sandbox]

static int open_or_die(const char *path)
{
	int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		die(path);
	return fd;
}

/* One row: ioctl(fd, cmd) on what (a description of fd). */
static void try_ioctl(const char *what, int fd, unsigned long cmd,
		      const char *cmd_name)
{
	char op[128];
	struct termios tio;
	int arg = 0;
	void *argp = cmd == TCGETS ? (void *)&tio : (void *)&arg;

	snprintf(op, sizeof(op), "%s: %s", what, cmd_name);
	CALL_ROW(op, ioctl(fd, cmd, argp) == 0);
}

#define TRY_IOCTL(what, fd, cmd) try_ioctl(what, fd, cmd, #cmd)

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "abi", required_argument, NULL,
						'a' },
					      CLI_OPT_HELP,
					      CLI_OPT_END };
	long max_abi = 1000;
	int opt;

	cli_start("landlock_ioctl");
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'a') {
			if (cli_number("--abi", optarg, 1, 1000, &max_abi))
				return 2;
		} else {
			return cli_other_option(opt, usage_text, argv, optind);
		}
	}
	if (cli_operands(argc, argv, optind, 1, 2, "DEVICE"))
		return 2;
	const char *device = argv[optind];
	const char *granted = argc - optind > 1 ? argv[optind + 1] : NULL;
	char path[64], abi_text[16];

	result_header();
	//! [before-after]
	int before = open_or_die(device);
	int abi = sandbox(granted, (int)max_abi);
	int after = open_or_die(device);
	//! [before-after]

	snprintf(abi_text, sizeof(abi_text), "%d", abi);
	result_row("landlock ABI version used", abi_text, 0);

	/* A right the kernel does not know: the whole ruleset is refused. */
	struct landlock_ruleset_attr_v6 unknown = {
		.handled_access_fs = 1ULL << 63,
	};
	int fd = sys_landlock_create_ruleset(&unknown, sizeof(unknown), 0);

	CALL_ROW("ruleset handling an unknown right (bit 63)", fd >= 0);
	if (fd >= 0)
		close(fd);
	TRY_IOCTL("fd opened before", before, TCGETS);
	TRY_IOCTL("fd opened before", before, FIONREAD);
	TRY_IOCTL("dup() of the fd opened before", dup(before), TCGETS);
	TRY_IOCTL("fd opened after", after, TCGETS);
	TRY_IOCTL("fd opened after", after, FIONREAD);
	TRY_IOCTL("fd opened after", after, FIOCLEX);
	TRY_IOCTL("fd opened after", after, FIONCLEX);
	TRY_IOCTL("fd opened after", after, FIONBIO);
	TRY_IOCTL("fd opened after", after, FIOASYNC);
	TRY_IOCTL("fd opened after", after, FIOQSIZE);
	CALL_ROW("fd opened after: write()", write(after, "", 0) == 0);

	snprintf(path, sizeof(path), "/proc/self/fd/%d", before);
	TRY_IOCTL("fd opened before, reopened by /proc/self/fd",
		  open_or_die(path), TCGETS);
	if (granted)
		TRY_IOCTL("granted device, opened after", open_or_die(granted),
			  TCGETS);

	int file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int pipes[2];

	if (file < 0 || pipe(pipes))
		die("open /proc/self/exe or pipe");
	TRY_IOCTL("regular file opened after", file, FIONREAD);
	TRY_IOCTL("regular file opened after", file, FIGETBSZ);
	TRY_IOCTL("pipe created after", pipes[0], FIONREAD);
	return cli_exit(0);
}
