/* SPDX-License-Identifier: MIT */
/*
 * mseal() for systems whose C library has no wrapper and whose kernel headers
 * predate Linux 6.10 (Debian 12: glibc 2.36, 6.1 headers). The number is our
 * own definition; tests/host/compat-headers.test.sh checks it against the
 * 6.12 uapi headers.
 */
#ifndef MSEAL_COMPAT_H
#define MSEAL_COMPAT_H

#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_mseal
#if defined(__x86_64__) || defined(__aarch64__) || defined(__riscv)
#define __NR_mseal 462
#else
#error "__NR_mseal: add this architecture's number"
#endif
#endif

//! [sys-mseal]
/* Seal [addr, addr + len): no flags are defined yet, pass 0. */
static inline int sys_mseal(void *addr, size_t len, unsigned long flags)
{
	return (int)syscall(__NR_mseal, addr, len, flags);
}
//! [sys-mseal]

#endif /* MSEAL_COMPAT_H */
