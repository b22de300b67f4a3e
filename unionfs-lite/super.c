// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: registration of the filesystem type (placeholder until the
 * mount code lands: every mount attempt fails with -EINVAL).
 */

#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/module.h>

static int ul_get_tree(struct fs_context *fc)
{
	return invalfc(fc, "unionlite: mounting is not implemented yet");
}

static const struct fs_context_operations ul_context_ops = {
	.get_tree	= ul_get_tree,
};

static int ul_init_fs_context(struct fs_context *fc)
{
	fc->ops = &ul_context_ops;
	return 0;
}

static struct file_system_type ul_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "unionlite",
	.init_fs_context	= ul_init_fs_context,
	.kill_sb		= kill_anon_super,
};
MODULE_ALIAS_FS("unionlite");

static int __init ul_init(void)
{
	return register_filesystem(&ul_fs_type);
}

static void __exit ul_exit(void)
{
	unregister_filesystem(&ul_fs_type);
}

module_init(ul_init);
module_exit(ul_exit);

MODULE_DESCRIPTION("unionlite: a small union filesystem with atomic whiteouts");
MODULE_LICENSE("GPL");
