// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: copy-up.
 *
 * Before anything changes a lower-only object, the object is copied to the
 * upper layer: parents first, then the object. Each copy is built as
 * work/#<hex> (data, holes kept, user.*, security.* and ACL xattrs, owner,
 * mode, times; the target of a symlink; the number of a device) and then
 * renamed to its place in the upper layer in one step, so the upper layer
 * never holds a half-made copy. Two processes copying the same object are serialized
 * by the object's ul_inode->lock; the second finds the copy made.
 */

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/posix_acl_xattr.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "ops.h"

/*
 * xattrs that travel with a copy: user.*, security.* and the POSIX ACLs
 * (never ours). A copy that cannot take one of them fails: an object
 * must not lose an ACL or a security label on its way up.
 */
static bool ul_copy_xattr_wanted(const char *name)
{
	return !strncmp(name, XATTR_USER_PREFIX, XATTR_USER_PREFIX_LEN) ||
	       !strncmp(name, XATTR_SECURITY_PREFIX, XATTR_SECURITY_PREFIX_LEN) ||
	       !strcmp(name, XATTR_NAME_POSIX_ACL_ACCESS) ||
	       !strcmp(name, XATTR_NAME_POSIX_ACL_DEFAULT);
}

/**
 * ul_copy_xattrs - give a work object the xattrs of another object
 * @ufs: the union
 * @userns: the idmapping of @from's layer
 * @from: the object whose user.*, security.* and ACL xattrs are copied
 * @temp: the object in the work dir that takes them
 *
 * Called with the mounter's credentials.
 *
 * Return: 0 or a negative errno.
 */
int ul_copy_xattrs(struct ul_fs *ufs, struct user_namespace *userns,
		   struct dentry *from, struct dentry *temp)
{
	struct dentry *lower = from;
	char *list = NULL, *name, *value = NULL;
	ssize_t len, vlen;
	size_t vsize = 0;
	int err = 0;

	len = vfs_listxattr(lower, NULL, 0);
	if (len <= 0)
		return len == -EOPNOTSUPP ? 0 : len;
	list = kmalloc(len, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	len = vfs_listxattr(lower, list, len);
	if (len < 0) {
		err = len;
		goto out_free;
	}
	for (name = list; name < list + len; name += strlen(name) + 1) {
		if (!ul_copy_xattr_wanted(name))
			continue;
		vlen = vfs_getxattr(userns, lower, name, NULL, 0);
		if (vlen == -ENODATA)
			continue;
		err = vlen;
		if (vlen < 0)
			break;
		if (vlen > vsize) {
			kfree(value);
			value = kmalloc(vlen, GFP_KERNEL);
			err = -ENOMEM;
			if (!value)
				break;
			vsize = vlen;
		}
		vlen = vfs_getxattr(userns, lower, name, value, vlen);
		err = vlen;
		if (vlen < 0)
			break;
		err = ul_do_setxattr(ufs, temp, name, value, vlen, 0);
		if (err)
			break;
	}
	kfree(value);
out_free:
	kfree(list);
	return err > 0 ? 0 : err;
}

/* Owner, then mode (not for symlinks), times and, for a file copied with
 * its data, the size (a hole at the end is not copied): in this order,
 * since a change of owner clears the set-id bits.
 */
static int ul_copy_attrs(struct ul_fs *ufs, struct dentry *temp,
			 const struct kstat *stat, bool size)
{
	struct iattr attr = {
		.ia_valid = ATTR_UID | ATTR_GID,
		.ia_uid = stat->uid,
		.ia_gid = stat->gid,
	};
	int err;

	inode_lock(d_inode(temp));
	err = ul_do_setattr(ufs, temp, &attr);
	if (err)
		goto out_unlock;
	attr.ia_valid = ATTR_ATIME | ATTR_MTIME | ATTR_ATIME_SET |
			ATTR_MTIME_SET;
	attr.ia_atime = stat->atime;
	attr.ia_mtime = stat->mtime;
	if (!S_ISLNK(stat->mode)) {
		attr.ia_valid |= ATTR_MODE;
		attr.ia_mode = stat->mode;
	}
	if (size) {
		attr.ia_valid |= ATTR_SIZE;
		attr.ia_size = stat->size;
	}
	err = ul_do_setattr(ufs, temp, &attr);
out_unlock:
	inode_unlock(d_inode(temp));
	return err;
}

/* Rename the finished copy @temp to @dentry's name in @upperdir. */
static int ul_copy_up_install(struct ul_fs *ufs, struct dentry *temp,
			      struct dentry *upperdir, struct dentry *dentry)
{
	struct dentry *target, *trap;
	int err;

	trap = ul_lock_work_upper(ufs, upperdir);
	err = -ESTALE;
	if (temp->d_parent != ufs->workdir || d_unhashed(temp))
		goto out_unlock;
	target = lookup_one(ul_upper_userns(ufs), dentry->d_name.name,
			    upperdir, dentry->d_name.len);
	err = PTR_ERR(target);
	if (IS_ERR(target))
		goto out_unlock;
	err = -EEXIST;
	if (d_really_is_positive(target))
		goto out_dput;
	err = -EIO;
	if (WARN_ON(temp == trap || target == trap))
		goto out_dput;
	err = ul_do_rename(ufs, ufs->workdir, temp, upperdir, target, 0);
out_dput:
	dput(target);
out_unlock:
	ul_unlock_work_upper(ufs, upperdir);
	return err;
}

/* Put the upper parent's times back: a copy-up is not a change of it. */
static void ul_restore_times(struct ul_fs *ufs, struct dentry *upperdir,
			     const struct kstat *pstat)
{
	struct iattr attr = {
		.ia_valid = ATTR_ATIME | ATTR_MTIME | ATTR_ATIME_SET |
			    ATTR_MTIME_SET,
		.ia_atime = pstat->atime,
		.ia_mtime = pstat->mtime,
	};

	inode_lock(d_inode(upperdir));
	ul_do_setattr(ufs, upperdir, &attr);
	inode_unlock(d_inode(upperdir));
}

/* Copy @dentry (whose parent @parent has an upper dir) to the upper layer. */
static int ul_copy_up_one(struct dentry *parent, struct dentry *dentry,
			  bool nodata)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct inode *inode = d_inode(dentry);
	struct ul_inode *ui = UL_I(inode);
	struct dentry *lower = ul_lower(ui);
	struct path lowerpath;
	struct dentry *upperdir = ul_dentry_upper(parent);
	struct path parentpath = { .mnt = ufs->upper_mnt, .dentry = upperdir };
	DEFINE_DELAYED_CALL(done);
	const struct cred *old_cred;
	const char *link = NULL;
	struct ul_cattr attr = { };
	struct dentry *temp;
	struct kstat stat, pstat;
	unsigned int prot;
	int origin, err;

	mutex_lock(&ui->lock);
	err = 0;
	if (ul_upper(ui))
		goto out_unlock;	/* another process copied it up */
	err = -EIO;
	if (WARN_ON(!lower || !upperdir))
		goto out_unlock;
	ul_lower_path(&ui->lower, &lowerpath);

	old_cred = ul_override_creds(dentry->d_sb);
	err = vfs_getattr(&lowerpath, &stat, STATX_BASIC_STATS,
			  AT_STATX_SYNC_AS_STAT);
	if (!err)
		err = vfs_getattr(&parentpath, &pstat, STATX_BASIC_STATS,
				  AT_STATX_SYNC_AS_STAT);
	if (err)
		goto out_revert;
	if (S_ISLNK(stat.mode)) {
		link = vfs_get_link(lower, &done);
		err = PTR_ERR(link);
		if (IS_ERR(link))
			goto out_revert;
	}

	attr.mode = stat.mode;
	attr.rdev = stat.rdev;
	attr.link = link;
	temp = ul_create_temp(ufs, &attr);
	err = PTR_ERR(temp);
	if (IS_ERR(temp))
		goto out_put_link;
	if (S_ISREG(stat.mode)) {
		err = nodata ? 0 :
		      ul_do_copy_data(ufs, &lowerpath, temp, stat.size);
		if (err)
			goto out_cleanup;
	}
	err = ul_copy_xattrs(ufs, ul_layer_userns(ui->lower.layer), lower, temp);
	if (err)
		goto out_cleanup;
	err = ul_copy_attrs(ufs, temp, &stat, S_ISREG(stat.mode) && !nodata);
	if (err)
		goto out_cleanup;
	/* append-only and immutable, in the union's own record of them */
	prot = d_inode(lower)->i_flags & (S_APPEND | S_IMMUTABLE);
	if (prot) {
		err = ul_write_protattr(ufs, temp, prot);
		if (err)
			goto out_cleanup;
	}
	/*
	 * The origin keeps the object's inode number (ino.c); the parent is
	 * marked impure before the copy shows in it, so that no readdir of
	 * it reports the upper inode's number for the copy. As in overlayfs
	 * (without its index), a copy of one link of a hard-linked file is
	 * a file of its own: no origin, the upper inode's number.
	 */
	origin = 0;
	if (S_ISDIR(stat.mode) || stat.nlink == 1)
		origin = ul_set_origin(ufs, lower, temp);
	err = origin;
	if (origin < 0)
		goto out_cleanup;
	if (origin && !S_ISDIR(stat.mode)) {
		err = ul_set_impure(ufs, d_inode(parent), upperdir);
		if (err)
			goto out_cleanup;
	}
	err = ul_copy_up_install(ufs, temp, upperdir, dentry);
	if (err)
		goto out_cleanup;
	ul_restore_times(ufs, upperdir, &pstat);

	/*
	 * temp now names the upper object; the reference goes to the inode.
	 * Its number stays the lower one's unless the lower object had
	 * other links (ino.c).
	 */
	if (origin)
		set_bit(UL_ORIGIN, &ui->flags);
	if (!S_ISDIR(stat.mode) && !origin) {
		inode->i_ino = ul_upper_d_ino(ufs, d_inode(temp)->i_ino);
		/* the parent's listings hold the old number */
		ul_dir_renumbered(d_inode(parent));
	}
	WRITE_ONCE(ui->prot, prot);
	/* pairs with smp_load_acquire() in ul_upper(): a reader that sees
	 * the pointer sees a complete upper object
	 */
	smp_store_release(&ui->__upper, temp);
	ul_rehash_inode(inode);
	ul_copyattr(inode);
	goto out_put_link;

out_cleanup:
	ul_cleanup_temp(ufs, temp);
out_put_link:
	do_delayed_call(&done);
out_revert:
	revert_creds(old_cred);
out_unlock:
	mutex_unlock(&ui->lock);
	return err;
}

/**
 * ul_copy_up_nodata - copy-up for a file about to be truncated to 0
 * @dentry: the union dentry of a regular file, opened with O_TRUNC
 *
 * As ul_copy_up(), but the copy of @dentry itself gets no data: the
 * caller empties it at once. Its parents are copied as usual.
 *
 * Return: 0 or a negative errno.
 */
int ul_copy_up_nodata(struct dentry *dentry)
{
	int err = 0;

	if (!ul_dentry_upper(dentry->d_parent))
		err = ul_copy_up(dentry->d_parent);
	if (!err && !ul_dentry_upper(dentry))
		err = ul_copy_up_one(dentry->d_parent, dentry, true);
	return err;
}

/**
 * ul_copy_up - make sure an object and its parents are in the upper layer
 * @dentry: the union dentry
 *
 * The caller holds write access to the upper mount (ul_want_write()).
 * Copies the topmost missing ancestor first, one object at a time, holding
 * no copy-up lock while taking another.
 *
 * Return: 0 or a negative errno.
 */
int ul_copy_up(struct dentry *dentry)
{
	int err = 0;

	while (!err && !ul_dentry_upper(dentry)) {
		struct dentry *next = dget(dentry);
		struct dentry *parent = dget_parent(next);

		while (!ul_dentry_upper(parent)) {
			dput(next);
			next = parent;
			parent = dget_parent(next);
		}
		err = ul_copy_up_one(parent, next, false);
		dput(parent);
		dput(next);
	}
	return err;
}
