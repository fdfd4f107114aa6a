// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_leak: a module that leaks on purpose, to watch in /proc/allocinfo.
 * Every block is LEAK_BLOCK_SIZE bytes from one kmalloc() call site, so the
 * module has exactly one allocinfo line, "... [alloc_leak] func:leak_blocks".
 *   insmod alloc_leak.ko blocks=N      allocate N blocks at load
 *   echo N >/sys/module/alloc_leak/parameters/leak      N more blocks
 *   echo N >/sys/module/alloc_leak/parameters/release   free N of them
 * Unloading keeps the blocks allocated (the leak), so the kernel warns,
 * unless free_on_exit=1 was given at load.
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#define LEAK_BLOCK_SIZE 4096

struct block {
	struct list_head node;
	char data[LEAK_BLOCK_SIZE - sizeof(struct list_head)];
};

static LIST_HEAD(blocks_list);
static DEFINE_MUTEX(blocks_lock);

//! [leak]
static int leak_blocks(unsigned int n)
{
	while (n--) {
		struct block *b = kmalloc(sizeof(*b), GFP_KERNEL);

		if (!b)
			return -ENOMEM;
		mutex_lock(&blocks_lock);
		list_add(&b->node, &blocks_list);
		mutex_unlock(&blocks_lock);
	}
	return 0;
}
//! [leak]

static void release_blocks(unsigned int n)
{
	mutex_lock(&blocks_lock);
	while (n-- && !list_empty(&blocks_list)) {
		struct block *b =
			list_first_entry(&blocks_list, struct block, node);

		list_del(&b->node);
		kfree(b);
	}
	mutex_unlock(&blocks_lock);
}

static int set_leak(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	return ret ? ret : leak_blocks(n);
}

static int set_release(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (!ret)
		release_blocks(n);
	return ret;
}

static const struct kernel_param_ops leak_ops = { .set = set_leak };
static const struct kernel_param_ops release_ops = { .set = set_release };
module_param_cb(leak, &leak_ops, NULL, 0200);
MODULE_PARM_DESC(leak, "write N: allocate N more blocks");
module_param_cb(release, &release_ops, NULL, 0200);
MODULE_PARM_DESC(release, "write N: free N blocks");

static unsigned int blocks;
module_param(blocks, uint, 0444);
MODULE_PARM_DESC(blocks, "blocks to allocate at load");

static bool free_on_exit;
module_param(free_on_exit, bool, 0444);
MODULE_PARM_DESC(free_on_exit, "free every block at unload (no leak)");

static int __init alloc_leak_init(void)
{
	int ret = leak_blocks(blocks);

	if (ret)
		release_blocks(UINT_MAX);
	return ret;
}

static void __exit alloc_leak_exit(void)
{
	if (free_on_exit)
		release_blocks(UINT_MAX);
}

module_init(alloc_leak_init);
module_exit(alloc_leak_exit);
MODULE_DESCRIPTION("Leaks kmalloc() blocks on purpose, for /proc/allocinfo");
MODULE_LICENSE("GPL");
