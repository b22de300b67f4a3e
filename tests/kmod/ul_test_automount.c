// SPDX-License-Identifier: GPL-2.0
/*
 * ul_test_automount: a test-only module that makes a directory for a
 * lower layer holding an automount point, as NFS, FUSE submounts and
 * debugfs's own "tracing" directory do:
 *
 *   debugfs/ul_test_automount/auto    an automount directory (S_AUTOMOUNT)
 *   debugfs/ul_test_automount/plain   a plain file
 *
 * Crossing "auto" calls this module, which mounts nothing (ENODEV). A
 * union must refuse to look through it (EREMOTE), never treat it as a
 * directory of its own.
 */

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/module.h>

static struct dentry *dir;
static u32 plain;

static struct vfsmount *ul_test_automount(struct dentry *dentry, void *data)
{
	return ERR_PTR(-ENODEV);
}

static int __init ul_test_automount_init(void)
{
	struct dentry *d;

	dir = debugfs_create_dir("ul_test_automount", NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	d = debugfs_create_automount("auto", dir, ul_test_automount, NULL);
	if (IS_ERR(d)) {
		debugfs_remove(dir);
		return PTR_ERR(d);
	}
	debugfs_create_u32("plain", 0444, dir, &plain);
	return 0;
}

static void __exit ul_test_automount_exit(void)
{
	debugfs_remove(dir);
}

module_init(ul_test_automount_init);
module_exit(ul_test_automount_exit);

MODULE_DESCRIPTION("unionlite tests: a lower layer with an automount point");
MODULE_LICENSE("GPL");
