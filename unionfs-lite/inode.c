// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: union inodes: one per real object, found by the topmost
 * real inode; their attributes follow the real object's; the numbers of
 * a directory's listings are renumbered through them.
 */

#include <linux/fs.h>
#include <linux/fs_stack.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "ops.h"

/* Real inode flags the VFS must see on the union inode too. */
#define UL_COPY_I_FLAGS	(S_SYNC | S_APPEND | S_IMMUTABLE)

/**
 * ul_copyattr - copy the attributes of the topmost real inode
 * @inode: the union inode
 *
 * The VFS checks permissions, ownership and the append-only and immutable
 * flags on the union inode, so these follow the real object after every
 * change. Of the real inode's flags only S_SYNC, S_APPEND and S_IMMUTABLE
 * are copied (an upper object's protection flags are the union's own,
 * ul_inode->prot); the others describe the real inode to its own
 * filesystem (S_AUTOMOUNT would send a path walk to d_automount(), which
 * the union has not) or are the union inode's (S_NOATIME and S_NOCMTIME:
 * the real file keeps the times; S_DEAD of a removed directory).
 */
void ul_copyattr(struct inode *inode)
{
	struct ul_inode *ui = UL_I(inode);
	struct inode *real = ul_real_inode(inode);
	unsigned int flags;

	if (!real)
		return;
	inode->i_mode = real->i_mode;
	inode->i_uid = real->i_uid;
	inode->i_gid = real->i_gid;
	inode->i_rdev = real->i_rdev;
	inode_set_atime_to_ts(inode, inode_get_atime(real));
	inode_set_mtime_to_ts(inode, inode_get_mtime(real));
	inode_set_ctime_to_ts(inode, inode_get_ctime(real));
	inode->i_blkbits = real->i_blkbits;
	set_nlink(inode, real->i_nlink);
	fsstack_copy_inode_size(inode, real);
	flags = real->i_flags & UL_COPY_I_FLAGS;
	if (ul_upper(ui))
		flags |= READ_ONCE(ui->prot);
	inode_set_flags(inode, flags, UL_COPY_I_FLAGS);
}

/*
 * The protection flags an upper object carries in
 * trusted.overlay.protattr ("a" append-only, "i" immutable; overlayfs's
 * format). Called with the mounter's credentials.
 */
static unsigned int ul_read_protattr(struct ul_fs *ufs, struct dentry *upper)
{
	unsigned int prot = 0;
	char buf[4];
	ssize_t len, i;

	len = vfs_getxattr(ul_upper_idmap(ufs), upper, UL_XATTR_PROTATTR,
			   buf, sizeof(buf));
	for (i = 0; i < len; i++) {
		if (buf[i] == 'a')
			prot |= S_APPEND;
		else if (buf[i] == 'i')
			prot |= S_IMMUTABLE;
	}
	return prot;
}

/**
 * ul_write_protattr - record protection flags on an upper object
 * @ufs: the union
 * @upper: the upper (or work) object
 * @prot: S_APPEND and S_IMMUTABLE bits; 0 removes the record
 *
 * The upper inode itself never carries the flags: an append-only or
 * immutable object could not be renamed or linked into place by a
 * recipe or copy-up, nor removed from the work dir. The union enforces them.
 * Called with the mounter's credentials.
 *
 * Return: 0 or a negative errno.
 */
int ul_write_protattr(struct ul_fs *ufs, struct dentry *upper,
		      unsigned int prot)
{
	char buf[2];
	int len = 0, err;

	if (prot & S_APPEND)
		buf[len++] = 'a';
	if (prot & S_IMMUTABLE)
		buf[len++] = 'i';
	if (len)
		return ul_do_setxattr(ufs, upper, UL_XATTR_PROTATTR, buf, len,
				      0);
	err = ul_do_removexattr(ufs, upper, UL_XATTR_PROTATTR);
	return err == -ENODATA ? 0 : err;
}

/**
 * ul_write_redirect - give an upper directory a redirect
 * @ufs: the union
 * @upper: the directory, in the work dir or in the upper layer
 * @redirect: the value (docs/unionlite.md)
 *
 * Mounter's credentials.
 *
 * Return: a copy of @redirect for the union inode (kmalloc()ed), or an
 * ERR_PTR: -ENOMEM, or -EXDEV when it cannot be set (the rename then
 * fails with EXDEV, and mv copies, as on overlayfs).
 */
char *ul_write_redirect(struct ul_fs *ufs, struct dentry *upper,
			const char *redirect)
{
	char *copy;
	int err;

	copy = kstrdup(redirect, GFP_KERNEL);
	if (!copy)
		return ERR_PTR(-ENOMEM);
	err = ul_fault_redirect();
	if (!err)
		err = ul_do_setxattr(ufs, upper, UL_XATTR_REDIRECT, redirect,
				     strlen(redirect), 0);
	if (err) {
		kfree(copy);
		pr_warn_ratelimited("unionlite: failed to set redirect (%i)\n",
				    err);
		return ERR_PTR(-EXDEV);
	}
	return copy;
}

static int ul_inode_test(struct inode *inode, void *key)
{
	return UL_I(inode)->key == key;
}

static int ul_inode_set(struct inode *inode, void *key)
{
	UL_I(inode)->key = key;
	return 0;
}

/**
 * ul_rehash_inode - hash a union inode on its new upper inode
 * @inode: the union inode of an object being copied up
 * @key: the upper inode of the copy
 *
 * Until the copy-up it was hashed on the lower inode, or not at all (a
 * lower file with several links); from now on the upper inode is the
 * topmost one, which ul_get_inode() looks it up by.
 */
void ul_rehash_inode(struct inode *inode, struct inode *key)
{
	remove_inode_hash(inode);
	UL_I(inode)->key = key;
	__insert_inode_hash(inode, (unsigned long)key);
}

/**
 * ul_put_lowers - drop the references of an array of lower objects
 * @lowers: the array (may be NULL when @num is 0)
 * @num: how many entries hold a reference
 */
void ul_put_lowers(struct ul_lower *lowers, unsigned int num)
{
	while (num--)
		dput(lowers[num].dentry);
}

/*
 * Lock classes per stacking depth, as overlayfs gives its inodes: a union
 * used as a lower layer of another takes its locks inside the other's,
 * which lockdep would otherwise see as one class taken recursively.
 */
static void ul_lockdep_annotate(struct inode *inode)
{
#ifdef CONFIG_LOCKDEP
	static struct lock_class_key file_key[FILESYSTEM_MAX_STACK_DEPTH];
	static struct lock_class_key dir_key[FILESYSTEM_MAX_STACK_DEPTH];
	static struct lock_class_key lock_key[FILESYSTEM_MAX_STACK_DEPTH];
	int depth = inode->i_sb->s_stack_depth - 1;

	if (WARN_ON_ONCE(depth < 0 || depth >= FILESYSTEM_MAX_STACK_DEPTH))
		depth = 0;
	if (S_ISDIR(inode->i_mode))
		lockdep_set_class(&inode->i_rwsem, &dir_key[depth]);
	else
		lockdep_set_class(&inode->i_rwsem, &file_key[depth]);
	lockdep_set_class(&UL_I(inode)->lock, &lock_key[depth]);
#endif
}

/**
 * ul_get_inode - the union inode of a real object
 * @sb: the union super block
 * @upper: upper object or NULL; the reference is taken over
 * @lowers: the visible lower objects, top-down: one, a merged
 *	directory's lower stack, or a metacopy file's topmost lower object
 *	and its data (an upper file has lower objects only as a metacopy
 *	file); their references are taken over (the array is the caller's)
 * @numlower: how many @lowers (0 for none)
 * @opaque: @upper is an opaque directory
 * @redirect: @upper's trusted.overlay.redirect (kmalloc()ed, taken
 *	over) or NULL
 *
 * One union inode per real object: the inode is looked up by the topmost
 * real inode and made only when there is none yet (the references are
 * then dropped: the existing inode holds its own). A lower-only file with
 * several links gets a new, unhashed inode per name, since copy-up gives
 * each name its own upper object.
 *
 * Return: the inode (a reference) or an ERR_PTR (the references are
 * dropped): -ENOMEM, or -EIO when @upper's origin is of another type.
 */
struct inode *ul_get_inode(struct super_block *sb, struct dentry *upper,
			   struct ul_lower *lowers, unsigned int numlower,
			   bool opaque, char *redirect)
{
	struct dentry *lower = numlower ? lowers[0].dentry : NULL;
	struct dentry *real = upper ? upper : lower;
	struct ul_lower *below = NULL;
	struct inode *realinode, *inode;
	const struct cred *old_cred;
	struct ul_inode *ui;
	bool hashed, origin, whiteouts = false;
	umode_t mode;
	u64 ino;
	int err;

	if (WARN_ON(!real)) {
		inode = ERR_PTR(-EIO);
		goto out_put;
	}
	err = ul_fault_inode();
	if (err) {
		inode = ERR_PTR(err);
		goto out_put;
	}
	realinode = d_inode(real);
	hashed = upper || d_is_dir(lower) || realinode->i_nlink == 1;
	if (hashed) {
		inode = iget5_locked(sb, (unsigned long)realinode,
				     ul_inode_test, ul_inode_set, realinode);
	} else {
		inode = new_inode(sb);
		if (inode)
			UL_I(inode)->key = realinode;
	}
	if (!inode) {
		inode = ERR_PTR(-ENOMEM);
		goto out_put;
	}
	if (hashed && !(inode->i_state & I_NEW))
		goto out_put;	/* the existing inode holds its own */

	old_cred = ul_override_creds(sb);
	err = ul_object_ino(sb, upper, numlower ? lowers : NULL, opaque, &ino,
			    &origin);
	/* one lower directory that was merged when it was copied up */
	if (!err && !upper && numlower == 1 && d_is_dir(lower))
		whiteouts = ul_has_origin(ul_layer_idmap(lowers[0].layer),
					  lower);
	revert_creds(old_cred);
	if (!err && numlower > 1) {
		below = kmemdup(lowers + 1, (numlower - 1) * sizeof(*lowers),
				GFP_KERNEL);
		if (!below)
			err = -ENOMEM;
	}
	if (err) {
		if (hashed)
			iget_failed(inode);
		else
			iput(inode);
		inode = ERR_PTR(err);
		goto out_put;
	}

	ui = UL_I(inode);
	ui->__upper = upper;
	ui->lower = numlower ? lowers[0] : (struct ul_lower){ };
	ui->below = below;
	ui->numlower = numlower;
	ui->flags = opaque ? BIT(UL_OPAQUE) : 0;
	ui->redirect = redirect;
	redirect = NULL;
	if (origin)
		set_bit(UL_ORIGIN, &ui->flags);
	if (whiteouts)
		set_bit(UL_WHITEOUTS, &ui->flags);
	/* lookup gives an upper file lower objects only for its data */
	if (upper && S_ISREG(realinode->i_mode) && numlower)
		set_bit(UL_LOWERDATA, &ui->flags);
	if (upper) {
		old_cred = ul_override_creds(sb);
		ui->prot = ul_read_protattr(UL_FS(sb), upper);
		revert_creds(old_cred);
	}
	inode->i_ino = ino;
	mode = realinode->i_mode;
	inode->i_mode = mode;
	inode->i_flags |= S_NOATIME | S_NOCMTIME;
#ifdef CONFIG_FS_POSIX_ACL
	/* the real inode's ACLs are asked for each time (ul_get_inode_acl()) */
	inode->i_acl = ACL_DONT_CACHE;
	inode->i_default_acl = ACL_DONT_CACHE;
#endif
	ul_lockdep_annotate(inode);
	switch (mode & S_IFMT) {
	case S_IFDIR:
		inode->i_op = &ul_dir_iops;
		inode->i_fop = &ul_dir_fops;
		break;
	case S_IFREG:
		inode->i_op = &ul_file_iops;
		inode->i_fop = &ul_file_fops;
		break;
	case S_IFLNK:
		inode->i_op = &ul_symlink_iops;
		break;
	default:
		inode->i_op = &ul_file_iops;	/* nothing file-specific in it */
		init_special_inode(inode, mode, realinode->i_rdev);
		break;
	}
	ul_copyattr(inode);
	if (hashed)
		unlock_new_inode(inode);
	return inode;

out_put:
	kfree(redirect);
	dput(upper);
	ul_put_lowers(lowers, numlower);
	return inode;
}

/**
 * ul_dir_renumbered - the inode number of an entry of a directory changed
 * @dir: the union directory, locked or not (a copy-up locks only the
 *	upper directory)
 *
 * Its readdir list is rebuilt when next started, with the new d_ino.
 */
void ul_dir_renumbered(struct inode *dir)
{
	atomic64_inc(&UL_I(dir)->version);
}
