// SPDX-License-Identifier: MIT
/*
 * The mseal chapter's claims beyond mseal_demo's table: MADV_REMOVE on a
 * sealed read-only private anonymous mapping is refused for the seal
 * (EPERM) before madvise looks at the advice, which on its own would fail
 * with EINVAL there (MADV_REMOVE needs a shared file mapping); on a
 * sealed shared mapping it is allowed. docs-claims-mseal.test.sh runs it.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The harness (and its macros in every test) trips these -Wextra warnings. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "mseal_compat.h"

static void *map(int prot, int flags)
{
	void *p = mmap(NULL, (size_t)getpagesize(), prot, flags | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

TEST(madv_remove_unsealed_private_einval)
{
	void *p = map(PROT_READ, MAP_PRIVATE);

	ASSERT_NE(NULL, p);
	EXPECT_EQ(-1, madvise(p, (size_t)getpagesize(), MADV_REMOVE));
	EXPECT_EQ(EINVAL, errno);
	munmap(p, (size_t)getpagesize());
}

TEST(madv_remove_sealed_ro_private_eperm)
{
	void *p = map(PROT_READ, MAP_PRIVATE);

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, sys_mseal(p, (size_t)getpagesize(), 0));
	EXPECT_EQ(-1, madvise(p, (size_t)getpagesize(), MADV_REMOVE));
	EXPECT_EQ(EPERM, errno);
}

TEST(madv_remove_sealed_shared_allowed)
{
	char *p = map(PROT_READ | PROT_WRITE, MAP_SHARED);

	ASSERT_NE(NULL, p);
	strcpy(p, "shared");
	ASSERT_EQ(0, sys_mseal(p, (size_t)getpagesize(), 0));
	EXPECT_EQ(0, madvise(p, (size_t)getpagesize(), MADV_REMOVE));
	EXPECT_EQ(0, p[0]);
}

TEST_HARNESS_MAIN
