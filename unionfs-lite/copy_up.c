// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: copy-up.
 *
 * Before anything changes a lower-only object, the object is copied to the
 * upper layer: parents first, then the object. A regular file's copy is
 * built as an O_TMPFILE file in the work dir (as overlayfs builds it: no
 * name to write and remove there), any other as work/#<hex>; made with no
 * permission bits (data, holes kept; every xattr but the union's own; the
 * sync and noatime inode flags; owner, then mode and times last; the
 * target of a symlink; the number of a device), then put in its place in
 * the upper layer in one step, a link or a rename, so the upper layer
 * never holds a half-made copy. The union inode is pointed at the copy
 * under the same lock, so whoever takes it next
 * (an unlink, a rename) finds the copy in the union inode as on disk.
 * Two processes copying the same object are serialized by the object's
 * ul_inode->lock; the second finds the copy made.
 *
 * With metacopy=on a regular file's copy is made without its data: the
 * size is set (a hole), the copy is marked trusted.overlay.metacopy
 * before it is put in place, and the data is still read from the
 * lower file (ul_lowerdata()). The first open for write, or a truncate,
 * copies the data into the upper copy in place (its links and inode
 * stay), syncs it, then removes the mark: until that one step the copy
 * reads as a metacopy file, after it as a whole one. A file with
 * security.capability is always copied whole: writing the data into an
 * upper file drops that xattr, and putting it back would be a second
 * step. The LSM hooks are
 * called as overlayfs calls them: security_inode_copy_up() gives the
 * credentials the copy is created with, security_inode_copy_up_xattr()
 * may drop an xattr.
 */

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fileattr.h>
#include <linux/namei.h>
#include <linux/posix_acl_xattr.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "ops.h"

/* The inode flags a copy takes from its lower object (overlayfs's too). */
#define UL_COPY_FS_FLAGS	(FS_SYNC_FL | FS_NOATIME_FL)

/*
 * Every xattr travels with a copy but the union's own trusted.overlay.*,
 * as on overlayfs. One the upper filesystem does not support is left
 * behind, except a POSIX ACL or a security label: an object must not
 * lose those on its way up, and the copy fails instead.
 */
static bool ul_is_acl_name(const char *name)
{
	return !strcmp(name, XATTR_NAME_POSIX_ACL_ACCESS) ||
	       !strcmp(name, XATTR_NAME_POSIX_ACL_DEFAULT);
}

static bool ul_must_copy_xattr(const char *name)
{
	return !strncmp(name, XATTR_SECURITY_PREFIX, XATTR_SECURITY_PREFIX_LEN) ||
	       ul_is_acl_name(name);
}

/* A POSIX ACL goes through the ACL calls: since 6.2 the xattr calls
 * refuse its name.
 */
static int ul_copy_acl(struct ul_fs *ufs, struct ul_idmap *idmap,
		       struct dentry *from, struct dentry *temp,
		       const char *name)
{
	struct posix_acl *acl;
	int err;

	acl = vfs_get_acl(idmap, from, name);
	if (acl == ERR_PTR(-ENODATA))
		return 0;
	if (IS_ERR(acl))
		return PTR_ERR(acl);
	err = ul_do_set_acl(ufs, temp, name, acl);
	posix_acl_release(acl);
	return err;
}

/**
 * ul_copy_xattrs - give a work object the xattrs of another object
 * @ufs: the union
 * @idmap: the idmapping of @from's layer
 * @from: the object whose xattrs are copied (all but trusted.overlay.*)
 * @temp: the object in the work dir that takes them
 *
 * Called with the mounter's credentials.
 *
 * Return: 0 or a negative errno.
 */
int ul_copy_xattrs(struct ul_fs *ufs, struct ul_idmap *idmap,
		   struct dentry *from, struct dentry *temp)
{
	struct dentry *lower = from;
	char *list = NULL, *name, *value = NULL;
	ssize_t len, vlen;
	size_t vsize = 0, slen;
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
	for (name = list; len > 0; name += slen, len -= slen) {
		slen = strnlen(name, len) + 1;
		/* a broken list from the lower filesystem */
		err = -EIO;
		if (WARN_ON(slen > len))
			break;
		err = 0;
		if (!strncmp(name, UL_XATTR_PREFIX, strlen(UL_XATTR_PREFIX)))
			continue;
		/* 1: an LSM drops it; -EOPNOTSUPP: no LSM has a say */
		err = ul_security_copy_up_xattr(lower, name);
		if (err < 0 && err != -EOPNOTSUPP)
			break;
		if (err == 1) {
			err = 0;
			continue;
		}
		err = 0;
		if (ul_is_acl_name(name)) {
			err = ul_copy_acl(ufs, idmap, lower, temp, name);
			if (err)
				break;
			continue;
		}
		vlen = vfs_getxattr(idmap, lower, name, NULL, 0);
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
		vlen = vfs_getxattr(idmap, lower, name, value, vlen);
		err = vlen;
		if (vlen < 0)
			break;
		err = ul_do_setxattr(ufs, temp, name, value, vlen, 0);
		if (err == -EOPNOTSUPP && !ul_must_copy_xattr(name))
			err = 0;
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

/*
 * The sync and noatime flags of a lower file or directory, on its copy
 * (overlayfs's ovl_copy_fileattr()); append-only and immutable are the
 * union's own (ul_write_protattr()). A layer without inode flags has
 * nothing to copy or nowhere to put them.
 */
static int ul_copy_fileattr(struct ul_fs *ufs, struct dentry *lower,
			    struct dentry *temp)
{
	struct fileattr lfa = { .flags_valid = true };
	struct fileattr ufa = { .flags_valid = true };
	int err;

	if (!(d_inode(lower)->i_flags & (S_SYNC | S_NOATIME)) ||
	    !(d_is_reg(lower) || d_is_dir(lower)))
		return 0;
	err = vfs_fileattr_get(lower, &lfa);
	if (err == -ENOIOCTLCMD || err == -ENOTTY || err == -EINVAL)
		return 0;
	if (err)
		return err;
	if (!(lfa.flags & UL_COPY_FS_FLAGS))
		return 0;
	err = vfs_fileattr_get(temp, &ufa);
	if (err == -ENOIOCTLCMD || err == -ENOTTY || err == -EINVAL) {
		pr_warn_once("unionlite: the upper filesystem has no inode flags: sync and noatime are not copied up\n");
		return 0;
	}
	if (err)
		return err;
	ufa.flags &= ~(UL_COPY_FS_FLAGS | FS_APPEND_FL | FS_IMMUTABLE_FL);
	ufa.flags |= lfa.flags & UL_COPY_FS_FLAGS;
	ufa.fsx_valid = false;
	return ul_do_fileattr_set(ufs, temp, &ufa);
}

/*
 * What the union inode learns once its copy is in place, told under the
 * upper parent's lock that the link or rename putting it there held: a
 * remove or rename of the name takes it too and then reads ul_upper(),
 * so it never finds the copy on disk and not in the inode. The inode is
 * hashed on its upper inode before ul_upper() names it: whoever sees the
 * copy there (link()) and looks the upper inode up finds this union
 * inode.
 */
static void ul_copy_up_publish(struct dentry *dentry, struct inode *dir,
			       struct dentry *copy, int origin,
			       unsigned int prot, bool meta, char *redirect)
{
	struct inode *inode = d_inode(dentry);
	struct ul_fs *ufs = UL_FS(inode->i_sb);
	struct ul_inode *ui = UL_I(inode);

	/*
	 * The number stays the lower one's, unless the copy has no origin
	 * (a link of a lower hard link, a layer whose handles cannot be
	 * followed): ino.c.
	 */
	if (origin)
		set_bit(UL_ORIGIN, &ui->flags);
	if (meta)
		set_bit(UL_LOWERDATA, &ui->flags);
	if (!d_is_dir(copy) && !origin) {
		inode->i_ino = ul_upper_d_ino(ufs, d_inode(copy)->i_ino);
		/* the parent's listings hold the old number */
		ul_dir_renumbered(dir);
	}
	WRITE_ONCE(ui->prot, prot);
	if (redirect) {
		spin_lock(&dentry->d_lock);
		swap(ui->redirect, redirect);
		spin_unlock(&dentry->d_lock);
		kfree(redirect);
	}
	ul_rehash_inode(inode, d_inode(copy));
	/* pairs with smp_load_acquire() in ul_upper(): a reader that sees
	 * the pointer sees a complete upper object
	 */
	smp_store_release(&ui->__upper, dget(copy));
}

/*
 * The negative name in the locked @upperdir that @dentry's copy is to
 * take. A name that is not negative any more was removed through the
 * union since the copy-up began (a whiteout), or removed and made anew:
 * the object being copied is gone from the union, -ENOENT.
 */
static struct dentry *ul_copy_up_target(struct ul_fs *ufs,
					struct dentry *upperdir,
					struct dentry *dentry)
{
	struct dentry *target;

	target = lookup_one(ul_upper_idmap(ufs), dentry->d_name.name,
			    upperdir, dentry->d_name.len);
	if (!IS_ERR(target) && d_really_is_positive(target)) {
		dput(target);
		target = ERR_PTR(-ENOENT);
	}
	return target;
}

/*
 * Link the finished O_TMPFILE copy @temp at @dentry's name in the upper
 * directory of @parent, its one step into place, and publish it there
 * (ul_copy_up_publish(); @meta: a metacopy file).
 */
static int ul_copy_up_link(struct ul_fs *ufs, struct dentry *temp,
			   struct dentry *parent, struct dentry *dentry,
			   int origin, unsigned int prot, bool meta,
			   char *redirect)
{
	struct dentry *upperdir = ul_dentry_upper(parent);
	struct dentry *target;
	int err;

	inode_lock_nested(d_inode(upperdir), I_MUTEX_PARENT);
	target = ul_copy_up_target(ufs, upperdir, dentry);
	err = PTR_ERR_OR_ZERO(target);
	if (!err) {
		err = ul_do_link(ufs, temp, upperdir, target);
		if (err) {
			dput(target);
		} else {
			/* the linked name, not the tmpfile's: the upper object */
			target = ul_made(ufs, upperdir, target);
			err = PTR_ERR_OR_ZERO(target);
		}
	}
	if (!err) {
		ul_copy_up_publish(dentry, d_inode(parent), target, origin,
				   prot, meta, redirect);
		redirect = NULL;
		dput(target);
	}
	inode_unlock(d_inode(upperdir));
	kfree(redirect);
	return err;
}

/*
 * Rename the finished copy @temp (work/#n) to @dentry's name in the upper
 * directory of @parent, its one step into place, and publish it under the
 * same locks (ul_copy_up_publish(); @meta: a metacopy file).
 */
static int ul_copy_up_rename(struct ul_fs *ufs, struct dentry *temp,
			     struct dentry *parent, struct dentry *dentry,
			     int origin, unsigned int prot, bool meta,
			     char *redirect)
{
	struct dentry *upperdir = ul_dentry_upper(parent);
	struct dentry *target, *trap;
	int err;

	trap = ul_lock_work_upper(ufs, upperdir);
	if (IS_ERR(trap)) {
		kfree(redirect);
		return PTR_ERR(trap);
	}
	err = -ESTALE;
	if (temp->d_parent != ufs->workdir || d_unhashed(temp))
		goto out_unlock;
	target = ul_copy_up_target(ufs, upperdir, dentry);
	err = PTR_ERR(target);
	if (IS_ERR(target))
		goto out_unlock;
	err = -EIO;
	if (WARN_ON(temp == trap || target == trap))
		goto out_dput;
	err = ul_do_rename(ufs, ufs->workdir, temp, upperdir, target, 0);
	if (!err) {
		ul_copy_up_publish(dentry, d_inode(parent), temp, origin,
				   prot, meta, redirect);
		redirect = NULL;
	}
out_dput:
	dput(target);
out_unlock:
	ul_unlock_work_upper(ufs, upperdir);
	kfree(redirect);
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

/*
 * The work object a copy is built in: a regular file through O_TMPFILE
 * where the upper has it (*@tmpfile, the open file; the returned dentry
 * is its own reference), else work/#n. Made with the credentials an LSM
 * asks for (security_inode_copy_up()), with no permission bits (the mode
 * is set last, after the ACLs: ul_copy_attrs()).
 */
static struct dentry *ul_copy_up_temp(struct ul_fs *ufs, struct dentry *dentry,
				      const struct kstat *stat,
				      const char *link, struct file **tmpfile)
{
	struct ul_cattr attr = {
		.mode = stat->mode & S_IFMT,
		.rdev = stat->rdev,
		.link = link,
	};
	const struct cred *old_cred = NULL;
	struct cred *new_cred = NULL;
	struct dentry *temp;
	struct file *file;
	int err;

	*tmpfile = NULL;
	err = security_inode_copy_up(dentry, &new_cred);
	if (err < 0)
		return ERR_PTR(err);
	if (new_cred)
		old_cred = override_creds(new_cred);
	if (S_ISREG(stat->mode) && ufs->tmpfile) {
		file = ul_do_tmpfile(ufs, S_IFREG);
		temp = ERR_CAST(file);
		if (!IS_ERR(file)) {
			*tmpfile = file;
			temp = dget(file->f_path.dentry);
		}
	} else {
		temp = ul_create_temp(ufs, &attr);
	}
	if (new_cred) {
		revert_creds(old_cred);
		put_cred(new_cred);
	}
	return temp;
}

/*
 * The value of xattr @name of the upper object @real (kmalloc()ed, its
 * length in *@len), NULL when it has none, or an ERR_PTR.
 */
static void *ul_getxattr_alloc(struct ul_fs *ufs, struct dentry *real,
			       const char *name, size_t *len)
{
	ssize_t res;
	void *buf;

	res = vfs_getxattr(ul_upper_idmap(ufs), real, name, NULL, 0);
	if (res == -ENODATA || res == -EOPNOTSUPP || !res)
		return NULL;
	if (res < 0)
		return ERR_PTR(res);
	buf = kmalloc(res, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	res = vfs_getxattr(ul_upper_idmap(ufs), real, name, buf, res);
	if (res < 0) {
		kfree(buf);
		return ERR_PTR(res);
	}
	*len = res;
	return buf;
}

/* What a copy of a regular file takes of its data */
enum ul_copy_data {
	UL_COPY_DATA,		/* all of it */
	UL_COPY_NODATA,		/* none: the caller empties the file */
	UL_COPY_META,		/* none under metacopy=on, else all */
};

/* Does the lower file carry security.capability? (mounter's credentials) */
static bool ul_has_caps(const struct ul_lower *lo)
{
	return vfs_getxattr(ul_layer_idmap(lo->layer), lo->dentry,
			    XATTR_NAME_CAPS, NULL, 0) > 0;
}

/*
 * Copy @dentry to the upper layer; @parent is its parent (a reference
 * the caller holds), which has an upper directory. @data: what a regular
 * file's copy takes of its data. With @redirect, a directory's copy, or
 * a metacopy file's, carries it (trusted.overlay.redirect) from before
 * it is put in place: recipe 6's first step. A redirect that cannot be
 * set is -EXDEV.
 */
static int ul_copy_up_one(struct dentry *parent, struct dentry *dentry,
			  enum ul_copy_data data, const char *redirect)
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
	char *redirect_copy = NULL;
	struct file *tmpfile;
	struct dentry *temp;
	struct kstat stat, pstat;
	struct path datapath;
	unsigned int prot;
	bool meta = false;
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
	if (S_ISREG(stat.mode) && data == UL_COPY_META && ufs->config.metacopy)
		meta = !ul_has_caps(&ui->lower);

	temp = ul_copy_up_temp(ufs, dentry, &stat, link, &tmpfile);
	err = PTR_ERR(temp);
	if (IS_ERR(temp))
		goto out_put_link;
	if (S_ISREG(stat.mode) && data != UL_COPY_NODATA && !meta) {
		/* a lower metacopy file's data is below it */
		ul_lower_path(ul_lowerdata(ui), &datapath);
		err = ul_do_copy_data(ufs, &datapath, temp, tmpfile,
				      stat.size);
		if (err)
			goto out_cleanup;
	}
	err = ul_copy_xattrs(ufs, ul_layer_idmap(ui->lower.layer), lower, temp);
	if (err)
		goto out_cleanup;
	/* append-only and immutable, in the union's own record of them */
	prot = d_inode(lower)->i_flags & (S_APPEND | S_IMMUTABLE);
	if (prot) {
		err = ul_write_protattr(ufs, temp, prot);
		if (err)
			goto out_cleanup;
	}
	err = ul_copy_fileattr(ufs, lower, temp);
	if (err)
		goto out_cleanup;
	err = ul_copy_attrs(ufs, temp, &stat,
			    S_ISREG(stat.mode) && data != UL_COPY_NODATA);
	if (err)
		goto out_cleanup;
	/*
	 * The origin keeps the object's inode number (ino.c). As in
	 * overlayfs (without its index), a copy of one link of a
	 * hard-linked file is a file of its own: no origin, the upper
	 * inode's number. The parent is marked impure before any copy shows
	 * in it, as overlayfs marks it: its readdir (ours, or overlayfs's on
	 * this upper later) then looks up the numbers of its entries.
	 */
	origin = 0;
	if (S_ISDIR(stat.mode) || stat.nlink == 1)
		origin = ul_set_origin(ufs, &ui->lower, temp);
	err = origin;
	if (origin < 0)
		goto out_cleanup;
	/*
	 * The mark after the origin, as overlayfs sets them: on ext4 the
	 * origin then fits in the inode and the mark goes to an xattr block
	 * that every metacopy file shares (the other way round, each file
	 * has a block of its own for its origin: a block more to write).
	 */
	if (meta) {
		err = ul_do_setxattr(ufs, temp, UL_XATTR_METACOPY, "", 0, 0);
		if (err)
			goto out_cleanup;
	}
	err = ul_set_impure(ufs, d_inode(parent), upperdir);
	if (err)
		goto out_cleanup;
	if (redirect && (S_ISDIR(stat.mode) || meta)) {
		redirect_copy = ul_write_redirect(ufs, temp, redirect);
		err = PTR_ERR(redirect_copy);
		if (IS_ERR(redirect_copy))
			goto out_cleanup;
	}
	if (tmpfile)
		err = ul_copy_up_link(ufs, temp, parent, dentry, origin, prot,
				      meta, redirect_copy);
	else
		err = ul_copy_up_rename(ufs, temp, parent, dentry, origin,
					prot, meta, redirect_copy);
	if (!err) {
		ul_restore_times(ufs, upperdir, &pstat);
		ul_copyattr(inode);
	}
out_cleanup:
	/* a copy in place: the inode holds its own reference */
	if (err && !tmpfile)
		ul_cleanup_temp(ufs, temp);
	else
		dput(temp);
	/* a tmpfile never linked goes with its last reference */
	if (tmpfile)
		fput(tmpfile);
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
	struct dentry *parent = dget_parent(dentry);
	int err = 0;

	if (!ul_dentry_upper(parent))
		err = ul_copy_up(parent);
	if (!err && !ul_dentry_upper(dentry))
		err = ul_copy_up_one(parent, dentry, UL_COPY_NODATA, NULL);
	/* a metacopy file: its data first, so the open finds it whole */
	if (!err)
		err = ul_copy_up_data(dentry);
	dput(parent);
	return err;
}

/*
 * Copy @dentry and its missing ancestors up, the topmost first; @data:
 * @dentry itself is copied with its data even under metacopy=on.
 */
static int ul_copy_up_tree(struct dentry *dentry, bool data)
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
		err = ul_copy_up_one(parent, next, data && next == dentry ?
				     UL_COPY_DATA : UL_COPY_META, NULL);
		dput(parent);
		dput(next);
	}
	return err;
}

/**
 * ul_copy_up - make sure an object and its parents are in the upper layer
 * @dentry: the union dentry
 *
 * The caller holds write access to the upper mount (ul_want_write()).
 * Copies the topmost missing ancestor first, one object at a time, holding
 * no copy-up lock while taking another. Under metacopy=on a regular file
 * is copied without its data (ul_copy_up_data() completes it).
 *
 * Return: 0 or a negative errno.
 */
int ul_copy_up(struct dentry *dentry)
{
	return ul_copy_up_tree(dentry, false);
}

/*
 * Copy the data of @dentry, a file whose upper copy is a metacopy file,
 * into that copy (ul_do_copy_data(): synced), then remove the mark: the
 * one step after which the upper copy is read. Its times stay.
 */
static int ul_copy_up_meta_data(struct dentry *dentry)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct inode *inode = d_inode(dentry);
	struct ul_inode *ui = UL_I(inode);
	const struct cred *old_cred;
	struct path datapath;
	struct dentry *upper;
	size_t caps_len = 0;
	void *caps;
	int err = 0;

	mutex_lock(&ui->lock);
	upper = ul_upper(ui);
	if (!upper || !test_bit(UL_LOWERDATA, &ui->flags))
		goto out_unlock;	/* another process copied it */
	err = -EIO;
	if (WARN_ON(!ul_lowerdata(ui)))
		goto out_unlock;
	ul_lower_path(ul_lowerdata(ui), &datapath);
	old_cred = ul_override_creds(dentry->d_sb);
	/*
	 * unionlite makes no metacopy file with security.capability; one
	 * overlayfs made gets it back after the data dropped it (a crash
	 * between the two loses it).
	 */
	caps = ul_getxattr_alloc(ufs, upper, XATTR_NAME_CAPS, &caps_len);
	err = PTR_ERR(caps);
	if (IS_ERR(caps))
		goto out_revert;
	/* the test build's naive mode: the mark goes first (a broken order) */
	if (ul_test_naive()) {
		err = ul_do_removexattr(ufs, upper, UL_XATTR_METACOPY);
		if (!err)
			clear_bit(UL_LOWERDATA, &ui->flags);
	}
	if (!err)
		err = ul_do_copy_data(ufs, &datapath, upper, NULL,
				      i_size_read(d_inode(upper)));
	if (!err && caps)
		err = ul_do_setxattr(ufs, upper, XATTR_NAME_CAPS, caps,
				     caps_len, 0);
	if (!err && !ul_test_naive())
		err = ul_do_removexattr(ufs, upper, UL_XATTR_METACOPY);
	kfree(caps);
out_revert:
	revert_creds(old_cred);
	if (!err) {
		/* readers that see the flag clear find the data in place */
		smp_mb__before_atomic();
		clear_bit(UL_LOWERDATA, &ui->flags);
		ul_copyattr(inode);
	}
out_unlock:
	mutex_unlock(&ui->lock);
	return err;
}

/**
 * ul_copy_up_data - make sure an object is in the upper layer with its data
 * @dentry: the union dentry
 *
 * As ul_copy_up(), but a regular file is copied whole, and the data of a
 * metacopy file is copied into its upper copy (before a write or a
 * truncate).
 *
 * Return: 0 or a negative errno.
 */
int ul_copy_up_data(struct dentry *dentry)
{
	int err = ul_copy_up_tree(dentry, true);

	if (!err && d_is_reg(dentry) && ul_data_is_lower(UL_E(dentry)))
		err = ul_copy_up_meta_data(dentry);
	return err;
}

/**
 * ul_copy_up_redirect - copy an object up with a redirect
 * @dentry: the union dentry of a directory with a lower directory, or of
 *	a file whose copy metacopy=on makes without its data
 * @redirect: the trusted.overlay.redirect its copy gets, naming the lower
 *	directory or data it has now (so the union's view does not change);
 *	NULL for none
 *
 * As ul_copy_up(); when @dentry is in the upper layer already, nothing
 * is done (the caller sets the redirect there).
 *
 * Return: 0 or a negative errno (-EXDEV: the redirect cannot be set).
 */
int ul_copy_up_redirect(struct dentry *dentry, const char *redirect)
{
	struct dentry *parent;
	int err = 0;

	if (ul_dentry_upper(dentry))
		return 0;
	parent = dget_parent(dentry);
	err = ul_copy_up(parent);
	if (!err)
		err = ul_copy_up_one(parent, dentry, UL_COPY_META, redirect);
	dput(parent);
	return err;
}
