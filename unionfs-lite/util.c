// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: what every other file uses: the mounter's credentials,
 * write access to the upper layer, whether to sync it, the opaque mark
 * of a real directory and the AUFS form's marks, and the fault-injection
 * points. It calls no other file of the module; each file above uses
 * only the files below it (ops.h lists them bottom up).
 */

#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/fault-inject.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "ops.h"

/**
 * ul_override_creds - run with the mounter's credentials
 * @sb: the union super block
 *
 * Return: the credentials to give back to revert_creds().
 */
const struct cred *ul_override_creds(struct super_block *sb)
{
	return override_creds(UL_FS(sb)->creator_cred);
}

/**
 * ul_want_write - get write access to the upper mount
 * @sb: the union super block
 *
 * Taken before any upper inode lock (it includes the freeze protection).
 *
 * Return: 0, -EROFS in a union without upper layer or without work dir
 * (read-only), or a negative errno from mnt_want_write().
 */
int ul_want_write(struct super_block *sb)
{
	struct ul_fs *ufs = UL_FS(sb);

	return ufs->workdir ? mnt_want_write(ufs->upper_mnt) : -EROFS;
}

/**
 * ul_drop_write - give back what ul_want_write() took
 * @sb: the union super block
 */
void ul_drop_write(struct super_block *sb)
{
	mnt_drop_write(UL_FS(sb)->upper_mnt);
}

/**
 * ul_sync_status - may a sync of the union skip the upper layer?
 * @ufs: the union
 *
 * A "volatile" union (overlayfs's option of that name) never syncs its
 * upper layer: fsync(), syncfs() and the copy-up of a file's data write
 * nothing. What they report is the upper filesystem's writeback error
 * since the mount, so a lost write is still seen.
 *
 * Return: 1 when the upper layer is to be synced; otherwise 0, or the
 * writeback error of the upper filesystem since the mount.
 */
int ul_sync_status(struct ul_fs *ufs)
{
	if (!ufs->config.no_sync)
		return 1;
	return errseq_check(&ufs->upper_mnt->mnt_sb->s_wb_err, ufs->errseq);
}

/**
 * ul_aufs_name - is a name one the AUFS whiteout form reserves?
 * @ufs: the union
 * @name: the name
 * @len: its length
 *
 * Return: true under aufs_whiteouts for a name starting with ".wh.": in
 * a layer it is a mark, never an object of the union.
 */
bool ul_aufs_name(const struct ul_fs *ufs, const char *name, unsigned int len)
{
	return ufs->config.aufs_whiteouts && len >= UL_AUFS_PREFIX_LEN &&
	       !memcmp(name, UL_AUFS_PREFIX, UL_AUFS_PREFIX_LEN);
}

/**
 * ul_aufs_marked - does a directory of a layer hold ".wh.<name>"?
 * @idmap: the idmapping of its layer's mount
 * @dir: a directory of a layer
 * @name: the name after the prefix
 * @len: its length
 *
 * An object of any type counts. Called with the mounter's credentials.
 *
 * Return: 1 if it does, 0 if not, or a negative errno.
 */
int ul_aufs_marked(struct ul_idmap *idmap, struct dentry *dir,
		   const char *name, unsigned int len)
{
	struct dentry *mark;
	char *buf;
	int ret;

	if (len > NAME_MAX - UL_AUFS_PREFIX_LEN)
		return 0;	/* no layer holds a longer name */
	buf = kmalloc(UL_AUFS_PREFIX_LEN + len + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, UL_AUFS_PREFIX, UL_AUFS_PREFIX_LEN);
	memcpy(buf + UL_AUFS_PREFIX_LEN, name, len);
	buf[UL_AUFS_PREFIX_LEN + len] = '\0';
	mark = lookup_one_unlocked(idmap, buf, dir, UL_AUFS_PREFIX_LEN + len);
	kfree(buf);
	if (IS_ERR(mark))
		return PTR_ERR(mark) == -ENOENT ? 0 : PTR_ERR(mark);
	ret = d_really_is_positive(mark);
	dput(mark);
	return ret;
}

/**
 * ul_check_opaque - is a real directory opaque?
 * @idmap: the idmapping of its layer's mount
 * @real: a dentry of the upper or a lower layer
 *
 * Called with the mounter's credentials.
 *
 * Return: 1 if @real is a directory with trusted.overlay.opaque = "y",
 * 0 if not, a negative errno if the attribute could not be read.
 */
int ul_check_opaque(struct ul_idmap *idmap, struct dentry *real)
{
	ssize_t res;
	char val;

	if (!d_is_dir(real))
		return 0;
	res = vfs_getxattr(idmap, real, UL_XATTR_OPAQUE, &val, 1);
	if (res == 1 && val == 'y')
		return 1;
	if (res < 0 && res != -ENODATA && res != -EOPNOTSUPP && res != -ERANGE)
		return res;
	return 0;
}

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
/*
 * The fault-injection points (Documentation/fault-injection): each has
 * the kernel's fault attributes in /sys/kernel/debug/unionlite/fail_NAME
 * (probability, space, times, verbose...), all off until a test sets
 * them (tests/lib/common.sh, ul_fault). They are asked in the calling
 * task's context, so a test may also use /proc/PID/fail-nth.
 */
static DECLARE_FAULT_ATTR(ul_fail_rename);
static DECLARE_FAULT_ATTR(ul_fail_link);
static DECLARE_FAULT_ATTR(ul_fail_redirect);
static DECLARE_FAULT_ATTR(ul_fail_inode);
static DECLARE_FAULT_ATTR(ul_fail_origin);
static struct dentry *ul_fault_dir;

/**
 * ul_fault_rename - fault-injection point of every rename step
 *
 * Return: 0, or -EIO when fail_rename says so.
 */
int ul_fault_rename(void)
{
	return should_fail(&ul_fail_rename, 1) ? -EIO : 0;
}

/**
 * ul_fault_link - fault-injection point of every link step
 *
 * Return: 0, or -EIO when fail_link says so.
 */
int ul_fault_link(void)
{
	return should_fail(&ul_fail_link, 1) ? -EIO : 0;
}

/**
 * ul_fault_redirect - fault-injection point of every redirect written
 *
 * Return: 0, or -EIO when fail_redirect says so.
 */
int ul_fault_redirect(void)
{
	return should_fail(&ul_fail_redirect, 1) ? -EIO : 0;
}

/**
 * ul_fault_inode - fault-injection point of every union inode asked for
 *
 * Return: 0, or -ENOMEM when fail_inode says so.
 */
int ul_fault_inode(void)
{
	return should_fail(&ul_fail_inode, 1) ? -ENOMEM : 0;
}

/**
 * ul_fault_origin - fault-injection point of every origin followed
 *
 * Return: 0, or -ENOMEM when fail_origin says so.
 */
int ul_fault_origin(void)
{
	return should_fail(&ul_fail_origin, 1) ? -ENOMEM : 0;
}

/**
 * ul_fault_init - the fault attributes in debugfs, at module load
 *
 * Without debugfs the points never fail; that is no error.
 */
void ul_fault_init(void)
{
	ul_fault_dir = debugfs_create_dir("unionlite", NULL);
	fault_create_debugfs_attr("fail_rename", ul_fault_dir, &ul_fail_rename);
	fault_create_debugfs_attr("fail_link", ul_fault_dir, &ul_fail_link);
	fault_create_debugfs_attr("fail_redirect", ul_fault_dir,
				  &ul_fail_redirect);
	fault_create_debugfs_attr("fail_inode", ul_fault_dir, &ul_fail_inode);
	fault_create_debugfs_attr("fail_origin", ul_fault_dir, &ul_fail_origin);
}

/**
 * ul_fault_exit - remove what ul_fault_init() made
 */
void ul_fault_exit(void)
{
	debugfs_remove_recursive(ul_fault_dir);
}
#endif
