// SPDX-License-Identifier: GPL-2.0
/*
 * leak_sites_many: a module that leaks on purpose from 16 kmalloc() call
 * sites, one function each (func:leak_site_0 to func:leak_site_15), for
 * lab 10's check: a module with more sites than the allocinfo tool shows
 * by default (10), whose name starts with another module's (leak_sites),
 * and whose source path names that other module's folder.
 *   echo 'SITE N' >/sys/module/leak_sites_many/parameters/leak
 *       site SITE (0 to 15) leaks N blocks of 1024 bytes
 * Nothing is freed, not even at unload (the leak).
 */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#define BLOCK 1024

struct block {
	struct list_head node;
};

static LIST_HEAD(blocks_list);
static DEFINE_MUTEX(blocks_lock);

static void keep(struct block *b)
{
	mutex_lock(&blocks_lock);
	list_add(&b->node, &blocks_list);
	mutex_unlock(&blocks_lock);
}

/*
 * One function and one kmalloc() call site per expansion: each is its own
 * line of /proc/allocinfo, told apart by its line and its function.
 */
#define LEAK_SITE(i)                                                  \
	static int leak_site_##i(unsigned int n)                      \
	{                                                             \
		while (n--) {                                         \
			struct block *b = kmalloc(BLOCK, GFP_KERNEL); \
			if (!b)                                       \
				return -ENOMEM;                       \
			keep(b);                                      \
		}                                                     \
		return 0;                                             \
	}

LEAK_SITE(0)
LEAK_SITE(1)
LEAK_SITE(2)
LEAK_SITE(3)
LEAK_SITE(4)
LEAK_SITE(5)
LEAK_SITE(6)
LEAK_SITE(7)
LEAK_SITE(8)
LEAK_SITE(9)
LEAK_SITE(10)
LEAK_SITE(11)
LEAK_SITE(12)
LEAK_SITE(13)
LEAK_SITE(14)
LEAK_SITE(15)

static int (*const sites[])(unsigned int) = {
	leak_site_0,  leak_site_1,  leak_site_2,  leak_site_3,
	leak_site_4,  leak_site_5,  leak_site_6,  leak_site_7,
	leak_site_8,  leak_site_9,  leak_site_10, leak_site_11,
	leak_site_12, leak_site_13, leak_site_14, leak_site_15,
};

static int set_leak(const char *val, const struct kernel_param *kp)
{
	unsigned int site, n;

	if (sscanf(val, "%u %u", &site, &n) != 2 || site >= ARRAY_SIZE(sites))
		return -EINVAL;
	return sites[site](n);
}

static const struct kernel_param_ops leak_ops = { .set = set_leak };
module_param_cb(leak, &leak_ops, NULL, 0200);
MODULE_PARM_DESC(leak, "'SITE N': site SITE (0-15) leaks N 1 KiB blocks");

static int __init leak_sites_many_init(void)
{
	return 0;
}

static void __exit leak_sites_many_exit(void)
{
}

module_init(leak_sites_many_init);
module_exit(leak_sites_many_exit);
MODULE_DESCRIPTION("Leaks kmalloc() blocks from 16 call sites, for lab 10");
MODULE_LICENSE("GPL");
