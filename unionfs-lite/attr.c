// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: the operations every union inode has: permission, getattr,
 * setattr, xattrs and ACLs, inode flags, and the symlink's target. Each
 * checks the caller on the union inode first, then copies up and changes
 * the upper object as the mounter.
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/fileattr.h>
#include <linux/posix_acl.h>
#include <linux/posix_acl_xattr.h>
#include <linux/xattr.h>
#include "ops.h"

static struct ul_idmap *ul_real_idmap(struct ul_fs *ufs, struct ul_inode *ui)
{
	return ul_upper(ui) ? ul_upper_idmap(ufs) :
			      ul_layer_idmap(ui->lower.layer);
}

/**
 * ul_permission - ->permission() of all union inodes
 * @idmap: idmapping of the union mount
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
int ul_permission(struct ul_idmap *idmap, struct inode *inode,
		  int mask)
{
	struct ul_fs *ufs = UL_FS(inode->i_sb);
	struct ul_inode *ui = UL_I(inode);
	struct dentry *upper = ul_upper(ui);
	struct dentry *real = upper ? upper : ul_lower(ui);
	const struct cred *old_cred;
	struct inode *realinode;
	int err;

	ul_test_data_race();
	if (!real) {
		WARN_ON(!(mask & MAY_NOT_BLOCK));
		return -ECHILD;
	}
	realinode = d_inode_rcu(real);
	if (!realinode)
		return -ECHILD;

	err = generic_permission(ul_nop_idmap, inode, mask);
	if (err)
		return err;

	old_cred = ul_override_creds(inode->i_sb);
	if (!upper && !special_file(realinode->i_mode) &&
	    (mask & (MAY_WRITE | MAY_APPEND))) {
		mask &= ~(MAY_WRITE | MAY_APPEND);
		mask |= MAY_READ;	/* copy-up reads the lower object */
	}
	err = inode_permission(upper ? ul_upper_idmap(ufs) :
			       ul_layer_idmap(ui->lower.layer),
			       realinode, mask);
	revert_creds(old_cred);
	return err;
}

/**
 * ul_getattr - ->getattr(): the topmost object's attributes
 * @idmap: idmapping of the union mount
 * @path: the union path
 * @stat: filled in
 * @request_mask: STATX_* wanted
 * @query_flags: AT_STATX_* flags
 *
 * st_dev is the union's for every object, st_ino the union inode's
 * number (ino.c), the append-only and immutable attributes the union
 * inode's, st_blocks of a file whose data is lower the lower data's. A
 * merged directory has one link, as on overlayfs: its subdirectories are
 * not counted.
 *
 * Return: 0 or a negative errno from vfs_getattr().
 */
int ul_getattr(struct ul_idmap *idmap, const struct path *path,
	       struct kstat *stat, u32 request_mask, unsigned int query_flags)
{
	struct dentry *dentry = path->dentry;
	const struct cred *old_cred;
	struct path realpath;
	int err;

	ul_real_path(dentry, &realpath);
	old_cred = ul_override_creds(dentry->d_sb);
	err = ul_vfs_getattr(&realpath, stat, request_mask, query_flags);
	if (!err && d_is_reg(dentry) && ul_data_is_lower(UL_E(dentry))) {
		/* a metacopy file's blocks are its data's, as on overlayfs */
		struct kstat datastat;

		ul_lower_path(ul_lowerdata(UL_E(dentry)), &realpath);
		err = ul_vfs_getattr(&realpath, &datastat, STATX_BLOCKS,
				     query_flags);
		stat->blocks = datastat.blocks;
	}
	revert_creds(old_cred);
	if (err)
		return err;
	stat->dev = dentry->d_sb->s_dev;
	stat->ino = d_inode(dentry)->i_ino;
	/* append-only and immutable are the union inode's (ul_inode->prot) */
	generic_fill_statx_attr(d_inode(dentry), stat);
	/* merged: an upper and a lower directory, or several lower ones */
	if (d_is_dir(dentry) &&
	    (ul_dentry_upper(dentry) ? 1 : 0) + UL_E(dentry)->numlower > 1)
		stat->nlink = 1;
	return 0;
}

/**
 * ul_setattr - ->setattr(): copy up, then change the upper object
 * @idmap: idmapping of the union mount
 * @dentry: the union dentry; its inode is locked by the VFS
 * @attr: the change
 *
 * Return: 0 or a negative errno.
 */
int ul_setattr(struct ul_idmap *idmap, struct dentry *dentry,
	       struct iattr *attr)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct inode *inode = d_inode(dentry);
	const struct cred *old_cred;
	struct inode *winode = NULL;
	struct dentry *upper;
	int err;

	err = setattr_prepare(ul_nop_idmap, dentry, attr);
	if (err)
		return err;

	err = ul_want_write(dentry->d_sb);
	if (err)
		return err;
	/* a truncate keeps part of the data: it is copied up first */
	if (attr->ia_valid & ATTR_SIZE)
		err = ul_copy_up_data(dentry);
	else
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

/*
 * trusted.overlay.* is the union's own metadata: neither read nor written
 * through the union, and EOPNOTSUPP, as on overlayfs, so that a union
 * used as a lower layer of another reads as a layer without that
 * metadata (no opaque directories), not as one that refuses lookups.
 */
static int ul_private_xattr_get(const struct xattr_handler *handler,
				struct dentry *dentry, struct inode *inode,
				const char *name, void *buffer, size_t size)
{
	return -EOPNOTSUPP;
}

static int ul_private_xattr_set(const struct xattr_handler *handler,
				struct ul_idmap *idmap,
				struct dentry *dentry, struct inode *inode,
				const char *name, const void *value,
				size_t size, int flags)
{
	return -EOPNOTSUPP;
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
	res = vfs_getxattr(ul_real_idmap(ufs, ui), ul_real(ui),
			   xattr_full_name(handler, name), buffer, size);
	revert_creds(old_cred);
	return res;
}

/*
 * Set or remove an xattr of the object behind union @dentry: copy-up, then
 * the change with the mounter's credentials. The caller has checked the
 * caller's right to make it.
 */
static int ul_xattr_set(struct dentry *dentry, struct inode *inode,
			const char *name, const void *value, size_t size,
			int flags)
{
	struct ul_fs *ufs = UL_FS(inode->i_sb);
	const struct cred *old_cred;
	struct dentry *upper;
	int err;

	err = ul_want_write(inode->i_sb);
	if (err)
		return err;
	if (!value && !ul_dentry_upper(dentry)) {
		/* nothing to remove: no copy-up (as overlayfs) */
		old_cred = ul_override_creds(inode->i_sb);
		err = vfs_getxattr(ul_layer_idmap(UL_E(dentry)->lower.layer),
				   ul_dentry_lower(dentry), name, NULL, 0);
		revert_creds(old_cred);
		if (err == -ENODATA)
			goto out_drop_write;
	}
	/* a metacopy file never carries file capabilities (copy_up.c) */
	if (value && !strcmp(name, XATTR_NAME_CAPS))
		err = ul_copy_up_data(dentry);
	else
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

static int ul_other_xattr_set(const struct xattr_handler *handler,
			      struct ul_idmap *idmap,
			      struct dentry *dentry, struct inode *inode,
			      const char *name, const void *value,
			      size_t size, int flags)
{
	return ul_xattr_set(dentry, inode, name, value, size, flags);
}

/**
 * ul_get_inode_acl - the ACL of the topmost real object, for permission
 * checks (->get_inode_acl(); ->get_acl() before 6.2)
 * @inode: the union inode
 * @type: ACL_TYPE_ACCESS or ACL_TYPE_DEFAULT
 * @rcu: called under RCU: only a cached ACL may be given
 *
 * Union inodes cache no ACL (ACL_DONT_CACHE): the VFS asks here each time
 * it checks the caller's permission on the union inode.
 *
 * Return: the ACL, NULL when there is none, or an ERR_PTR.
 */
struct posix_acl *ul_get_inode_acl(struct inode *inode, int type, bool rcu)
{
	struct inode *real = ul_real_inode(inode);
	const struct cred *old_cred;
	struct posix_acl *acl;

	if (!real)
		return rcu ? ERR_PTR(-ECHILD) : NULL;
	if (!IS_POSIXACL(real))
		return NULL;
	if (rcu)
		return get_cached_acl_rcu(real, type);
	old_cred = ul_override_creds(inode->i_sb);
	acl = get_inode_acl(real, type);
	revert_creds(old_cred);
	return acl;
}

/*
 * Whether the caller may give union @dentry ACL @acl (NULL: remove it) of
 * @type: checked here, on the union inode and with the caller's
 * credentials, as set_posix_acl() checks it on a real inode; the upper
 * filesystem's own check then runs as the mounter and would pass for
 * anyone. A new access ACL drops S_ISGID when the caller is not in the
 * file's group (posix_acl_update_mode()), done here for the same reason.
 * 1: nothing to do.
 */
static int ul_may_set_acl(struct dentry *dentry, struct posix_acl *acl,
			  int type)
{
	struct inode *inode = d_inode(dentry);
	struct ul_fs *ufs = UL_FS(inode->i_sb);
	struct inode *real = ul_real_inode(inode);
	int err;

	/* read-only: no upper layer, or no work dir (vfs_setxattr() callers
	 * inside the kernel do not check)
	 */
	if (!ufs->workdir)
		return -EROFS;
	/* no ACLs on the upper layer, or none on this kind of object */
	if (!IS_POSIXACL(d_inode(ufs->upper_mnt->mnt_root)) ||
	    !real || !real->i_op->set_acl)
		return -EOPNOTSUPP;
	if (type == ACL_TYPE_DEFAULT && !S_ISDIR(inode->i_mode))
		return acl ? -EACCES : 1;
	if (!inode_owner_or_capable(ul_nop_idmap, inode))
		return -EPERM;
	err = acl ? posix_acl_valid(&init_user_ns, acl) : 0;
	if (err)
		return err;
	if (type == ACL_TYPE_ACCESS && (inode->i_mode & S_ISGID) &&
	    !in_group_p(inode->i_gid) &&
	    !capable_wrt_inode_uidgid(ul_nop_idmap, inode, CAP_FSETID)) {
		struct iattr attr = { .ia_valid = ATTR_KILL_SGID };

		err = ul_setattr(ul_nop_idmap, dentry, &attr);
	}
	return err;
}

#ifndef UL_ACL_XATTRS
static const char *ul_acl_name(int type)
{
	return type == ACL_TYPE_ACCESS ? XATTR_NAME_POSIX_ACL_ACCESS :
					 XATTR_NAME_POSIX_ACL_DEFAULT;
}

/**
 * ul_get_acl - ->get_acl() (6.2 on): the ACL getxattr() reads
 * @idmap: idmapping of the union mount
 * @dentry: the union dentry
 * @type: ACL_TYPE_ACCESS or ACL_TYPE_DEFAULT
 *
 * Return: the topmost real object's ACL, NULL when it has none, or an
 * ERR_PTR.
 */
struct posix_acl *ul_get_acl(struct ul_idmap *idmap, struct dentry *dentry,
			     int type)
{
	const struct cred *old_cred;
	struct posix_acl *acl;
	struct path real;

	ul_real_path(dentry, &real);
	old_cred = ul_override_creds(dentry->d_sb);
	acl = vfs_get_acl(ul_mnt_idmap(real.mnt), real.dentry,
			  ul_acl_name(type));
	revert_creds(old_cred);
	return acl == ERR_PTR(-ENODATA) ? NULL : acl;
}

/**
 * ul_set_acl - ->set_acl() (6.2 on): set or remove an ACL of a union
 * object
 * @idmap: idmapping of the union mount
 * @dentry: the union dentry
 * @acl: the ACL, or NULL to remove it
 * @type: ACL_TYPE_ACCESS or ACL_TYPE_DEFAULT
 *
 * The caller is checked (ul_may_set_acl()), then the object is copied up
 * and the ACL set on the upper object as the mounter.
 *
 * Return: 0 or a negative errno.
 */
int ul_set_acl(struct ul_idmap *idmap, struct dentry *dentry,
	       struct posix_acl *acl, int type)
{
	struct super_block *sb = dentry->d_sb;
	const char *name = ul_acl_name(type);
	const struct cred *old_cred;
	struct posix_acl *old;
	int err;

	err = ul_may_set_acl(dentry, acl, type);
	if (err)
		return err > 0 ? 0 : err;
	err = ul_want_write(sb);
	if (err)
		return err;
	if (!acl && !ul_dentry_upper(dentry)) {
		/* nothing to remove: no copy-up (as overlayfs) */
		old_cred = ul_override_creds(sb);
		old = vfs_get_acl(ul_layer_idmap(UL_E(dentry)->lower.layer),
				  ul_dentry_lower(dentry), name);
		revert_creds(old_cred);
		/* none to remove (ENODATA), as overlayfs */
		err = PTR_ERR_OR_ZERO(old);
		if (err)
			goto out_drop_write;
		posix_acl_release(old);
	}
	err = ul_copy_up(dentry);
	if (err)
		goto out_drop_write;
	old_cred = ul_override_creds(sb);
	err = ul_do_set_acl(UL_FS(sb), ul_dentry_upper(dentry), name, acl);
	revert_creds(old_cred);
	ul_copyattr(d_inode(dentry));
out_drop_write:
	ul_drop_write(sb);
	return err;
}
#else
/*
 * system.posix_acl_access and _default before 6.2: ul_may_set_acl(), then
 * the xattr as the caller gave it.
 */
static int ul_acl_xattr_set(const struct xattr_handler *handler,
			    struct ul_idmap *idmap,
			    struct dentry *dentry, struct inode *inode,
			    const char *name, const void *value,
			    size_t size, int flags)
{
	struct posix_acl *acl = NULL;
	int err;

	if (!UL_FS(inode->i_sb)->workdir)
		return -EROFS;
	if (value) {
		acl = posix_acl_from_xattr(&init_user_ns, value, size);
		if (IS_ERR(acl))
			return PTR_ERR(acl);
	}
	err = ul_may_set_acl(dentry, acl, handler->flags);
	if (!err)
		err = ul_xattr_set(dentry, inode, handler->name, value, size,
				   flags);
	posix_acl_release(acl);
	return err > 0 ? 0 : err;
}

static const struct xattr_handler ul_acl_access_xattr_handler = {
	.name	= XATTR_NAME_POSIX_ACL_ACCESS,
	.flags	= ACL_TYPE_ACCESS,
	.get	= ul_other_xattr_get,
	.set	= ul_acl_xattr_set,
};

static const struct xattr_handler ul_acl_default_xattr_handler = {
	.name	= XATTR_NAME_POSIX_ACL_DEFAULT,
	.flags	= ACL_TYPE_DEFAULT,
	.get	= ul_other_xattr_get,
	.set	= ul_acl_xattr_set,
};
#endif

/**
 * ul_fileattr_get - ->fileattr_get(): the topmost object's inode flags
 * @dentry: the union dentry
 * @fa: filled in
 *
 * An upper object's append-only and immutable flags are the union's own
 * (ul_write_protattr()).
 *
 * Return: 0 or a negative errno from vfs_fileattr_get().
 */
int ul_fileattr_get(struct dentry *dentry, struct fileattr *fa)
{
	struct inode *inode = d_inode(dentry);
	const struct cred *old_cred;
	int err;

	old_cred = ul_override_creds(dentry->d_sb);
	err = vfs_fileattr_get(ul_real(UL_E(dentry)), fa);
	revert_creds(old_cred);
	if (err || !ul_dentry_upper(dentry))
		return err;
	fa->flags &= ~(FS_APPEND_FL | FS_IMMUTABLE_FL);
	fa->fsx_xflags &= ~(FS_XFLAG_APPEND | FS_XFLAG_IMMUTABLE);
	if (IS_APPEND(inode)) {
		fa->flags |= FS_APPEND_FL;
		fa->fsx_xflags |= FS_XFLAG_APPEND;
	}
	if (IS_IMMUTABLE(inode)) {
		fa->flags |= FS_IMMUTABLE_FL;
		fa->fsx_xflags |= FS_XFLAG_IMMUTABLE;
	}
	return 0;
}

/**
 * ul_fileattr_set - ->fileattr_set(): copy up, then set the flags
 * @idmap: idmapping of the union mount
 * @dentry: the union dentry; its inode is locked by the VFS, which has
 *	checked the caller (owner, CAP_LINUX_IMMUTABLE) on the union inode
 * @fa: the new flags
 *
 * Append-only and immutable go to trusted.overlay.protattr and the union
 * inode; the other flags to the upper inode.
 *
 * Return: 0 or a negative errno.
 */
int ul_fileattr_set(struct ul_idmap *idmap, struct dentry *dentry,
		    struct fileattr *fa)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct inode *inode = d_inode(dentry);
	struct ul_inode *ui = UL_I(inode);
	const struct cred *old_cred;
	unsigned int prot = 0;
	struct dentry *upper;
	int err;

	if (fa->flags & FS_APPEND_FL)
		prot |= S_APPEND;
	if (fa->flags & FS_IMMUTABLE_FL)
		prot |= S_IMMUTABLE;
	err = ul_want_write(dentry->d_sb);
	if (err)
		return err;
	err = ul_copy_up(dentry);
	if (err)
		goto out_drop_write;
	upper = ul_dentry_upper(dentry);

	fa->flags &= ~(FS_APPEND_FL | FS_IMMUTABLE_FL);
	fa->fsx_xflags &= ~(FS_XFLAG_APPEND | FS_XFLAG_IMMUTABLE);
	old_cred = ul_override_creds(dentry->d_sb);
	err = ul_do_fileattr_set(ufs, upper, fa);
	if (!err && prot != ui->prot)
		err = ul_write_protattr(ufs, upper, prot);
	revert_creds(old_cred);
	if (!err)
		WRITE_ONCE(ui->prot, prot);
	ul_copyattr(inode);
out_drop_write:
	ul_drop_write(dentry->d_sb);
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
#ifdef UL_ACL_XATTRS
	&ul_acl_access_xattr_handler,
	&ul_acl_default_xattr_handler,
#endif
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
	UL_ACL_IOPS,
	.fileattr_get	= ul_fileattr_get,
	.fileattr_set	= ul_fileattr_set,
};

const struct inode_operations ul_symlink_iops = {
	.get_link	= ul_get_link,
	.permission	= ul_permission,
	.getattr	= ul_getattr,
	.setattr	= ul_setattr,
	.listxattr	= ul_listxattr,
	UL_SYMLINK_ACL_IOPS,
};
