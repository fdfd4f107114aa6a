// SPDX-License-Identifier: MIT
/*
 * landlock_stack: restrict this process with N Landlock domains, then exec
 * COMMAND, which inherits them. Each domain handles only
 * LANDLOCK_ACCESS_FS_MAKE_BLOCK (ABI 1) and has no rule, so all it denies
 * is creating block device nodes. A process has at most 16 domains
 * (LANDLOCK_MAX_NUM_LAYERS), so under 16 the command's own
 * landlock_restrict_self() fails with E2BIG: lab 09's check runs
 * ./sandbox that way.
 *   landlock_stack N COMMAND [ARG...]
 * Run as root (CAP_SYS_ADMIN), or it sets no_new_privs first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "landlock_compat.h"

int main(int argc, char **argv)
{
	struct landlock_ruleset_attr attr = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_BLOCK,
	};
	char *end;
	long n = argc > 2 ? strtol(argv[1], &end, 10) : -1;

	if (argc < 3 || *end || n < 0 || n > 16) {
		fprintf(stderr,
			"usage: landlock_stack N COMMAND [ARG...]   (N: 0 to 16)\n");
		return 2;
	}
	if (geteuid() && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		perror("landlock_stack: prctl(PR_SET_NO_NEW_PRIVS)");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		int fd = sys_landlock_create_ruleset(&attr, sizeof(attr), 0);

		if (fd < 0 || sys_landlock_restrict_self(fd, 0)) {
			fprintf(stderr, "landlock_stack: domain %ld: %s\n",
				i + 1, strerror(errno));
			return 1;
		}
		close(fd);
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "landlock_stack: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
