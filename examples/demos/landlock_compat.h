/* SPDX-License-Identifier: MIT */
/*
 * Landlock up to ABI 6 (Linux 6.12) for systems whose headers stop earlier
 * (Debian 12's 6.1 headers know ABI 1 and 2), and the system call wrappers
 * that glibc does not have. tests/host/compat-headers.test.sh checks every
 * definition here against the 6.12 uapi header.
 */
#ifndef LANDLOCK_COMPAT_H
#define LANDLOCK_COMPAT_H

#include <linux/landlock.h>
#include <linux/types.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ABI 3 (6.2) */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
/* ABI 4 (6.7): TCP rights, in landlock_ruleset_attr.handled_access_net */
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
/* ABI 5 (6.10): ioctl() on character and block devices */
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
/* ABI 6 (6.12): scopes, in landlock_ruleset_attr.scoped */
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

/*
 * struct landlock_ruleset_attr as of ABI 6. Older headers define the struct
 * with fewer fields, so this one has its own name; the kernel takes its size
 * as an argument and accepts any version of it.
 */
struct landlock_ruleset_attr_v6 {
	__u64 handled_access_fs;
	__u64 handled_access_net;
	__u64 scoped;
};

static inline int sys_landlock_create_ruleset(const void *attr, size_t size,
					      __u32 flags)
{
	return (int)syscall(__NR_landlock_create_ruleset, attr, size, flags);
}

static inline int sys_landlock_add_rule(int ruleset_fd, int rule_type,
					const void *rule_attr, __u32 flags)
{
	return (int)syscall(__NR_landlock_add_rule, ruleset_fd, rule_type,
			    rule_attr, flags);
}

static inline int sys_landlock_restrict_self(int ruleset_fd, __u32 flags)
{
	return (int)syscall(__NR_landlock_restrict_self, ruleset_fd, flags);
}

#endif /* LANDLOCK_COMPAT_H */
