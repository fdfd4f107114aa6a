// SPDX-License-Identifier: GPL-2.0
/*
 * leak_sites: a module that leaks on purpose from two kmalloc() call sites,
 * for lab 10's check: a module whose allocinfo lines must be added up, and
 * a second module name beside alloc_leak.
 *   echo N >/sys/module/leak_sites/parameters/big     N blocks of 4096 bytes
 *   echo N >/sys/module/leak_sites/parameters/small   N blocks of 512 bytes
 * Nothing is freed, not even at unload (the leak).
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

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

static int leak_big(unsigned int n)
{
	while (n--) {
		struct block *b = kmalloc(4096, GFP_KERNEL);

		if (!b)
			return -ENOMEM;
		keep(b);
	}
	return 0;
}

static int leak_small(unsigned int n)
{
	while (n--) {
		struct block *b = kmalloc(512, GFP_KERNEL);

		if (!b)
			return -ENOMEM;
		keep(b);
	}
	return 0;
}

static int set_big(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	return ret ? ret : leak_big(n);
}

static int set_small(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	return ret ? ret : leak_small(n);
}

static const struct kernel_param_ops big_ops = { .set = set_big };
static const struct kernel_param_ops small_ops = { .set = set_small };
module_param_cb(big, &big_ops, NULL, 0200);
MODULE_PARM_DESC(big, "write N: leak N blocks of 4096 bytes");
module_param_cb(small, &small_ops, NULL, 0200);
MODULE_PARM_DESC(small, "write N: leak N blocks of 512 bytes");

static int __init leak_sites_init(void)
{
	return 0;
}

static void __exit leak_sites_exit(void)
{
}

module_init(leak_sites_init);
module_exit(leak_sites_exit);
MODULE_DESCRIPTION("Leaks kmalloc() blocks from two call sites, for lab 10");
MODULE_LICENSE("GPL");
