// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: union inodes; getattr, setattr, permission and xattrs.
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/fileattr.h>
#include <linux/fs_stack.h>
#include <linux/moduleparam.h>
#include <linux/namei.h>
#include <linux/posix_acl.h>
#include <linux/posix_acl_xattr.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "ops.h"

/* Real inode flags the VFS must see on the union inode too. */
#define UL_COPY_I_FLAGS	(S_SYNC | S_APPEND | S_IMMUTABLE)

static unsigned int ul_fail_inode;
module_param_named(fail_inode, ul_fail_inode, uint, 0644);
MODULE_PARM_DESC(fail_inode,
		 "test only: the Nth union inode asked for from now fails with ENOMEM; 0: none");

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
	inode->i_atime = real->i_atime;
	inode->i_mtime = real->i_mtime;
	inode->i_ctime = real->i_ctime;
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

	len = vfs_getxattr(ul_upper_userns(ufs), upper, UL_XATTR_PROTATTR,
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
 * immutable object could not be renamed into place by a recipe or
 * copy-up, nor removed from the work dir. The union enforces them.
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
 * @lowers: the visible lower objects, top-down: one, or a merged
 *	directory's lower stack; their references are taken over (the array
 *	is the caller's)
 * @numlower: how many @lowers (0 for none)
 * @opaque: @upper is an opaque directory
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
			   bool opaque)
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
	if (ul_inject_fault(&ul_fail_inode)) {
		inode = ERR_PTR(-ENOMEM);
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
		whiteouts = ul_has_origin(ul_layer_userns(lowers[0].layer),
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
	if (origin)
		set_bit(UL_ORIGIN, &ui->flags);
	if (whiteouts)
		set_bit(UL_WHITEOUTS, &ui->flags);
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
	/* the real inode's ACLs are asked for each time (ul_get_acl()) */
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
	dput(upper);
	ul_put_lowers(lowers, numlower);
	return inode;
}

static struct user_namespace *ul_real_userns(struct ul_fs *ufs,
					     struct ul_inode *ui)
{
	return ul_upper(ui) ? ul_upper_userns(ufs) :
			      ul_layer_userns(ui->lower.layer);
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
	struct dentry *real = upper ? upper : ul_lower(ui);
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
			       ul_layer_userns(ui->lower.layer),
			       realinode, mask);
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
 * st_dev is the union's for every object, st_ino the union inode's
 * number (ino.c). A merged directory has one link, as on overlayfs: its
 * subdirectories are not counted.
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
	if (err)
		return err;
	stat->dev = dentry->d_sb->s_dev;
	stat->ino = d_inode(dentry)->i_ino;
	/* merged: an upper and a lower directory, or several lower ones */
	if (d_is_dir(dentry) &&
	    (ul_dentry_upper(dentry) ? 1 : 0) + UL_E(dentry)->numlower > 1)
		stat->nlink = 1;
	return 0;
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
				struct user_namespace *mnt_userns,
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
	res = vfs_getxattr(ul_real_userns(ufs, ui), ul_real(ui),
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
		err = vfs_getxattr(ul_layer_userns(UL_E(dentry)->lower.layer),
				   ul_dentry_lower(dentry), name, NULL, 0);
		revert_creds(old_cred);
		if (err == -ENODATA)
			goto out_drop_write;
	}
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
			      struct user_namespace *mnt_userns,
			      struct dentry *dentry, struct inode *inode,
			      const char *name, const void *value,
			      size_t size, int flags)
{
	return ul_xattr_set(dentry, inode, name, value, size, flags);
}

/**
 * ul_get_acl - ->get_acl(): the ACL of the topmost real object
 * @inode: the union inode
 * @type: ACL_TYPE_ACCESS or ACL_TYPE_DEFAULT
 * @rcu: called under RCU: only a cached ACL may be given
 *
 * Union inodes cache no ACL (ACL_DONT_CACHE): the VFS asks here each time
 * it checks the caller's permission on the union inode.
 *
 * Return: the ACL, NULL when there is none, or an ERR_PTR.
 */
struct posix_acl *ul_get_acl(struct inode *inode, int type, bool rcu)
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
	acl = get_acl(real, type);
	revert_creds(old_cred);
	return acl;
}

/*
 * system.posix_acl_access and _default: the caller is checked here, on
 * the union inode and with the caller's credentials, as set_posix_acl()
 * checks it on a real inode; the upper filesystem's own check then runs
 * as the mounter and would pass for anyone.
 */
static int ul_acl_xattr_set(const struct xattr_handler *handler,
			    struct user_namespace *mnt_userns,
			    struct dentry *dentry, struct inode *inode,
			    const char *name, const void *value,
			    size_t size, int flags)
{
	struct ul_fs *ufs = UL_FS(inode->i_sb);
	struct inode *real = ul_real_inode(inode);
	struct posix_acl *acl = NULL;
	int type = handler->flags;
	int err;

	/* read-only: no upper layer, or no work dir (vfs_setxattr() callers
	 * inside the kernel do not check)
	 */
	if (!ufs->workdir)
		return -EROFS;
	if (value) {
		acl = posix_acl_from_xattr(&init_user_ns, value, size);
		if (IS_ERR(acl))
			return PTR_ERR(acl);
	}
	/* no ACLs on the upper layer, or none on this kind of object */
	err = -EOPNOTSUPP;
	if (!IS_POSIXACL(d_inode(ufs->upper_mnt->mnt_root)) ||
	    !real || !real->i_op->set_acl)
		goto out_release;
	err = acl ? -EACCES : 0;
	if (type == ACL_TYPE_DEFAULT && !S_ISDIR(inode->i_mode))
		goto out_release;
	err = -EPERM;
	if (!inode_owner_or_capable(&init_user_ns, inode))
		goto out_release;
	err = acl ? posix_acl_valid(&init_user_ns, acl) : 0;
	if (err)
		goto out_release;

	/*
	 * A new access ACL drops S_ISGID when the caller is not in the
	 * file's group (posix_acl_update_mode()); the upper filesystem,
	 * running as the mounter, would keep it.
	 */
	if (type == ACL_TYPE_ACCESS && (inode->i_mode & S_ISGID) &&
	    !in_group_p(inode->i_gid) &&
	    !capable_wrt_inode_uidgid(&init_user_ns, inode, CAP_FSETID)) {
		struct iattr attr = { .ia_valid = ATTR_KILL_SGID };

		err = ul_setattr(&init_user_ns, dentry, &attr);
		if (err)
			goto out_release;
	}
	err = ul_xattr_set(dentry, inode, handler->name, value, size, flags);
out_release:
	posix_acl_release(acl);
	return err;
}

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
 * @mnt_userns: idmapping of the union mount
 * @dentry: the union dentry; its inode is locked by the VFS, which has
 *	checked the caller (owner, CAP_LINUX_IMMUTABLE) on the union inode
 * @fa: the new flags
 *
 * Append-only and immutable go to trusted.overlay.protattr and the union
 * inode; the other flags to the upper inode.
 *
 * Return: 0 or a negative errno.
 */
int ul_fileattr_set(struct user_namespace *mnt_userns, struct dentry *dentry,
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

static const struct xattr_handler ul_other_xattr_handler = {
	.prefix	= "",	/* everything else goes to the real object */
	.get	= ul_other_xattr_get,
	.set	= ul_other_xattr_set,
};

const struct xattr_handler *ul_xattr_handlers[] = {
	&ul_private_xattr_handler,
	&ul_acl_access_xattr_handler,
	&ul_acl_default_xattr_handler,
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
	.get_acl	= ul_get_acl,
	.fileattr_get	= ul_fileattr_get,
	.fileattr_set	= ul_fileattr_set,
};

const struct inode_operations ul_symlink_iops = {
	.get_link	= ul_get_link,
	.permission	= ul_permission,
	.getattr	= ul_getattr,
	.setattr	= ul_setattr,
	.listxattr	= ul_listxattr,
	.get_acl	= ul_get_acl,
};
