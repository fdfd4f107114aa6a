// SPDX-License-Identifier: MIT
/*
 * Print the values the examples' compat headers define, one "name value"
 * line each. Built twice by compat-headers.test.sh: with COMPAT against the
 * system's (older) headers, so our own definitions are used, and without it
 * against the 6.12 uapi headers, the reference; the two outputs must match.
 */
#include <stddef.h>
#include <stdio.h>

#ifdef COMPAT
#include "landlock_compat.h"
#include "mseal_compat.h"
#define RULESET_ATTR struct landlock_ruleset_attr_v6
#else
#include <asm/unistd.h>
#include <linux/landlock.h>
#define RULESET_ATTR struct landlock_ruleset_attr
#endif

#define SHOW_AS(name, x) printf("%s %llu\n", name, (unsigned long long)(x))
#define SHOW(x) SHOW_AS(#x, x)

int main(void)
{
	SHOW(__NR_mseal);
	SHOW(__NR_landlock_create_ruleset);
	SHOW(__NR_landlock_add_rule);
	SHOW(__NR_landlock_restrict_self);
	SHOW(LANDLOCK_CREATE_RULESET_VERSION);
	SHOW(LANDLOCK_RULE_PATH_BENEATH);
	SHOW(LANDLOCK_ACCESS_FS_MAKE_SYM);
	SHOW(LANDLOCK_ACCESS_FS_REFER);
	SHOW(LANDLOCK_ACCESS_FS_TRUNCATE);
	SHOW(LANDLOCK_ACCESS_FS_IOCTL_DEV);
	SHOW(LANDLOCK_ACCESS_NET_BIND_TCP);
	SHOW(LANDLOCK_ACCESS_NET_CONNECT_TCP);
	SHOW(LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET);
	SHOW(LANDLOCK_SCOPE_SIGNAL);
	SHOW_AS("ruleset_attr-size", sizeof(RULESET_ATTR));
	SHOW_AS("ruleset_attr-handled_access_fs-offset",
		offsetof(RULESET_ATTR, handled_access_fs));
	SHOW_AS("ruleset_attr-handled_access_net-offset",
		offsetof(RULESET_ATTR, handled_access_net));
	SHOW_AS("ruleset_attr-scoped-offset", offsetof(RULESET_ATTR, scoped));
	SHOW_AS("path_beneath_attr-size",
		sizeof(struct landlock_path_beneath_attr));
	return 0;
}
