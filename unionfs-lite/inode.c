// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: union inodes; getattr, setattr, permission and xattrs.
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/fs_stack.h>
#include <linux/namei.h>
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
 * change. Atime is left to the real file (the union inode is S_NOATIME).
 */
void ul_copyattr(struct inode *inode)
{
	struct inode *real = ul_real_inode(inode);

	if (!real)
		return;
	fsstack_copy_attr_all(inode, real);
	fsstack_copy_inode_size(inode, real);
	inode->i_flags = (real->i_flags & UL_COPY_I_FLAGS) |
			 S_NOATIME | S_NOCMTIME;
}

/**
 * ul_new_inode - a union inode for one name
 * @sb: the union super block
 * @upper: upper object or NULL; the reference is taken over
 * @lower: visible lower object or NULL; the reference is taken over
 * @flags: UL_LOWER_NAME, UL_OPAQUE bits
 *
 * Union inodes are not hashed: each positive union dentry has its own.
 *
 * Return: the inode or ERR_PTR(-ENOMEM) (the references are dropped).
 */
struct inode *ul_new_inode(struct super_block *sb, struct dentry *upper,
			   struct dentry *lower, unsigned long flags)
{
	struct dentry *real = upper ? upper : lower;
	struct inode *realinode;
	struct ul_inode *ui;
	struct inode *inode;
	umode_t mode;

	if (WARN_ON(!real))
		return ERR_PTR(-EIO);
	inode = new_inode(sb);
	if (!inode) {
		dput(upper);
		dput(lower);
		return ERR_PTR(-ENOMEM);
	}
	realinode = d_inode(real);
	ui = UL_I(inode);
	ui->__upper = upper;
	ui->lower = lower;
	ui->flags = flags;
	inode->i_ino = realinode->i_ino;
	mode = realinode->i_mode;
	inode->i_mode = mode;
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
	return inode;
}

static struct user_namespace *ul_real_userns(struct ul_fs *ufs,
					     struct ul_inode *ui)
{
	return ul_upper(ui) ? ul_upper_userns(ufs) : ul_lower_userns(ufs);
}

/**
 * ul_permission - ->permission() of all union inodes
 * @mnt_userns: idmapping of the union mount
 * @inode: the union inode
 * @mask: MAY_* bits
 *
 * First the caller's own permission, with the caller's credentials, on the
 * union inode (whose attributes are the topmost object's); then the
 * mounter's permission on the real inode. Writes to a lower object that
 * will be copied up need only read access to the lower object.
 *
 * Return: 0 or a negative errno.
 */
int ul_permission(struct user_namespace *mnt_userns, struct inode *inode,
		  int mask)
{
	struct ul_fs *ufs = UL_FS(inode->i_sb);
	struct ul_inode *ui = UL_I(inode);
	struct dentry *upper = ul_upper(ui);
	struct dentry *real = upper ? upper : ui->lower;
	const struct cred *old_cred;
	struct inode *realinode;
	int err;

	if (!real) {
		WARN_ON(!(mask & MAY_NOT_BLOCK));
		return -ECHILD;
	}
	realinode = d_inode_rcu(real);
	if (!realinode)
		return -ECHILD;

	err = generic_permission(&init_user_ns, inode, mask);
	if (err)
		return err;

	old_cred = ul_override_creds(inode->i_sb);
	if (!upper && !special_file(realinode->i_mode) &&
	    (mask & (MAY_WRITE | MAY_APPEND))) {
		mask &= ~(MAY_WRITE | MAY_APPEND);
		mask |= MAY_READ;	/* copy-up reads the lower object */
	}
	err = inode_permission(upper ? ul_upper_userns(ufs) :
			       ul_lower_userns(ufs), realinode, mask);
	revert_creds(old_cred);
	return err;
}

/**
 * ul_getattr - ->getattr(): the topmost object's attributes
 * @mnt_userns: idmapping of the union mount
 * @path: the union path
 * @stat: filled in
 * @request_mask: STATX_* wanted
 * @query_flags: AT_STATX_* flags
 *
 * st_dev is the union's for every object; st_ino is the real object's.
 *
 * Return: 0 or a negative errno from vfs_getattr().
 */
int ul_getattr(struct user_namespace *mnt_userns, const struct path *path,
	       struct kstat *stat, u32 request_mask, unsigned int query_flags)
{
	struct dentry *dentry = path->dentry;
	const struct cred *old_cred;
	struct path realpath;
	int err;

	ul_real_path(dentry, &realpath);
	old_cred = ul_override_creds(dentry->d_sb);
	err = vfs_getattr(&realpath, stat, request_mask, query_flags);
	revert_creds(old_cred);
	if (!err)
		stat->dev = dentry->d_sb->s_dev;
	return err;
}

/**
 * ul_setattr - ->setattr(): copy up, then change the upper object
 * @mnt_userns: idmapping of the union mount
 * @dentry: the union dentry; its inode is locked by the VFS
 * @attr: the change
 *
 * Return: 0 or a negative errno.
 */
int ul_setattr(struct user_namespace *mnt_userns, struct dentry *dentry,
	       struct iattr *attr)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct inode *inode = d_inode(dentry);
	const struct cred *old_cred;
	struct inode *winode = NULL;
	struct dentry *upper;
	int err;

	err = setattr_prepare(&init_user_ns, dentry, attr);
	if (err)
		return err;

	err = ul_want_write(dentry->d_sb);
	if (err)
		return err;
	err = ul_copy_up(dentry);
	if (err)
		goto out_drop_write;
	upper = ul_dentry_upper(dentry);

	/* the real filesystem works these out again for its own inode */
	attr->ia_valid &= ~ATTR_FILE;
	if (attr->ia_valid & (ATTR_KILL_SUID | ATTR_KILL_SGID))
		attr->ia_valid &= ~ATTR_MODE;

	if (attr->ia_valid & ATTR_SIZE) {
		winode = d_inode(upper);
		err = get_write_access(winode);
		if (err)
			goto out_drop_write;
	}

	inode_lock(d_inode(upper));
	old_cred = ul_override_creds(dentry->d_sb);
	err = ul_do_setattr(ufs, upper, attr);
	revert_creds(old_cred);
	inode_unlock(d_inode(upper));
	ul_copyattr(inode);

	if (winode)
		put_write_access(winode);
out_drop_write:
	ul_drop_write(dentry->d_sb);
	return err;
}

static bool ul_is_private_xattr(const char *name)
{
	return !strncmp(name, UL_XATTR_PREFIX, strlen(UL_XATTR_PREFIX));
}

/* May the caller see this name in a listing? */
static bool ul_can_list(const char *name)
{
	if (ul_is_private_xattr(name))
		return false;
	if (!strncmp(name, XATTR_TRUSTED_PREFIX, XATTR_TRUSTED_PREFIX_LEN))
		return ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
	return true;
}

/**
 * ul_listxattr - ->listxattr(): the topmost object's names, filtered
 * @dentry: the union dentry
 * @list: buffer or NULL
 * @size: size of @list; 0 asks for the size needed
 *
 * trusted.overlay.* names are never listed; other trusted.* names only to
 * a caller with CAP_SYS_ADMIN (the real listing runs as the mounter).
 *
 * Return: length of the list or a negative errno.
 */
ssize_t ul_listxattr(struct dentry *dentry, char *list, size_t size)
{
	struct dentry *real = ul_real(UL_E(dentry));
	const struct cred *old_cred;
	ssize_t res, len;
	char *s;

	old_cred = ul_override_creds(dentry->d_sb);
	res = vfs_listxattr(real, list, size);
	revert_creds(old_cred);
	if (res <= 0 || !size)
		return res;

	/* filter in place, with the caller's credentials */
	s = list;
	len = res;
	while (len > 0) {
		size_t slen = strnlen(s, len) + 1;

		if (WARN_ON(slen > len))
			return -EIO;
		len -= slen;
		if (ul_can_list(s)) {
			s += slen;
		} else {
			res -= slen;
			memmove(s, s + slen, len);
		}
	}
	return res;
}

static int ul_private_xattr_get(const struct xattr_handler *handler,
				struct dentry *dentry, struct inode *inode,
				const char *name, void *buffer, size_t size)
{
	return -EPERM;
}

static int ul_private_xattr_set(const struct xattr_handler *handler,
				struct user_namespace *mnt_userns,
				struct dentry *dentry, struct inode *inode,
				const char *name, const void *value,
				size_t size, int flags)
{
	return -EPERM;
}

static int ul_other_xattr_get(const struct xattr_handler *handler,
			      struct dentry *dentry, struct inode *inode,
			      const char *name, void *buffer, size_t size)
{
	struct ul_fs *ufs = UL_FS(inode->i_sb);
	struct ul_inode *ui = UL_I(inode);
	const struct cred *old_cred;
	ssize_t res;

	old_cred = ul_override_creds(inode->i_sb);
	res = vfs_getxattr(ul_real_userns(ufs, ui), ul_real(ui), name, buffer,
			   size);
	revert_creds(old_cred);
	return res;
}

static int ul_other_xattr_set(const struct xattr_handler *handler,
			      struct user_namespace *mnt_userns,
			      struct dentry *dentry, struct inode *inode,
			      const char *name, const void *value,
			      size_t size, int flags)
{
	struct ul_fs *ufs = UL_FS(inode->i_sb);
	const struct cred *old_cred;
	struct dentry *upper;
	int err;

	err = ul_want_write(inode->i_sb);
	if (err)
		return err;
	err = ul_copy_up(dentry);
	if (err)
		goto out_drop_write;
	upper = ul_dentry_upper(dentry);
	old_cred = ul_override_creds(inode->i_sb);
	if (value)
		err = ul_do_setxattr(ufs, upper, name, value, size, flags);
	else
		err = ul_do_removexattr(ufs, upper, name);
	revert_creds(old_cred);
	ul_copyattr(inode);
out_drop_write:
	ul_drop_write(inode->i_sb);
	return err;
}

static const struct xattr_handler ul_private_xattr_handler = {
	.prefix	= UL_XATTR_PREFIX,
	.get	= ul_private_xattr_get,
	.set	= ul_private_xattr_set,
};

static const struct xattr_handler ul_other_xattr_handler = {
	.prefix	= "",	/* everything else goes to the real object */
	.get	= ul_other_xattr_get,
	.set	= ul_other_xattr_set,
};

const struct xattr_handler *ul_xattr_handlers[] = {
	&ul_private_xattr_handler,
	&ul_other_xattr_handler,
	NULL
};

static const char *ul_get_link(struct dentry *dentry, struct inode *inode,
			       struct delayed_call *done)
{
	const struct cred *old_cred;
	const char *p;

	if (!dentry)
		return ERR_PTR(-ECHILD);
	old_cred = ul_override_creds(dentry->d_sb);
	p = vfs_get_link(ul_real(UL_E(dentry)), done);
	revert_creds(old_cred);
	return p;
}

const struct inode_operations ul_file_iops = {
	.permission	= ul_permission,
	.getattr	= ul_getattr,
	.setattr	= ul_setattr,
	.listxattr	= ul_listxattr,
};

const struct inode_operations ul_symlink_iops = {
	.get_link	= ul_get_link,
	.permission	= ul_permission,
	.getattr	= ul_getattr,
	.setattr	= ul_setattr,
	.listxattr	= ul_listxattr,
};
