// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: namespace operations of union directories.
 *
 * Part 1 does the operations that need no whiteout: creating objects where
 * the upper layer has no entry, and removing or renaming objects that exist
 * only in the upper layer. Everything that would have to leave a whiteout
 * or replace one returns -EXDEV; the recipes that do it with
 * RENAME_EXCHANGE come in part 2 and will live here, one function each.
 *
 * Locking
 * =======
 *
 * Lock classes, outermost first:
 *
 *  1. union i_rwsem (taken by the VFS: the parent for create/unlink, both
 *     parents and the victims for rename, the inode for setattr/setxattr)
 *  2. sb_writers of the upper fs: ul_want_write() = mnt_want_write()
 *  3. ul_inode->lock, the copy-up mutex of one union object
 *  4. upper and work i_rwsem: inode_lock_nested(I_MUTEX_PARENT) of one
 *     parent, or lock_rename() of two (s_vfs_rename_mutex of the upper fs,
 *     then the parents), then the upper child's i_rwsem inside vfs_*()
 *
 * Concrete chains:
 *
 *  mkdir a/b where union a is lower-only:
 *    union a i_rwsem (VFS) -> sb_writers(upper) -> ul_inode(a)->lock ->
 *    work i_rwsem (create #n) ; then lock_rename(work, upper .) ->
 *    rename #n to upper a ; then upper a i_rwsem (mkdir upper a/b)
 *
 *  open(O_WRONLY) of lower-only a/f:
 *    (no union lock) -> sb_writers(upper) -> ul_inode(a)->lock ... (as
 *    above, for the parent) ; then ul_inode(f)->lock -> work i_rwsem ->
 *    lock_rename(work, upper a)
 *
 *  chmod of a/f: union f i_rwsem (VFS) -> sb_writers -> ul_inode(f)->lock
 *    -> work/upper parent locks ; then upper f i_rwsem (notify_change)
 *
 *  rename a/x b/y (both upper-only): union lock_rename(a, b) + victims
 *    (VFS) -> sb_writers -> [ul_inode(b)->lock if b needs copy-up] ->
 *    lock_rename(upper a, upper b) -> vfs_rename's child locks
 *
 * Why this cannot deadlock:
 *  - Union locks (1) are never taken by unionlite itself, only by the VFS
 *    before calling in; no code path below class 1 goes back up to it.
 *  - Copy-up takes the mutexes (3) of one object at a time, ancestors
 *    first, and never holds one while taking another: ul_copy_up() copies
 *    the topmost missing ancestor, drops its lock and starts over.
 *  - Upper and work locks (4) are the real filesystem's and are taken in
 *    the orders that filesystem expects (parent before child,
 *    lock_rename() for two directories). The work dir and the upper dir
 *    are disjoint subtrees (checked at mount), so lock_rename(work, upper)
 *    has no trap.
 *  - The union and the upper fs are different super blocks with different
 *    lockdep classes, so class 1 nesting over class 4 is the ordinary
 *    stacking order (like overlayfs and ecryptfs).
 *  - Freeze protection (2) is taken before any upper i_rwsem (4) and never
 *    nested inside itself: ul_copy_up() expects the caller to hold it.
 *
 * Under RCU path walk only ul_permission() and ul_get_link() are called;
 * the first reads the real inode through ul_upper() (acquire) and the
 * second refuses with -ECHILD.
 */

#include <linux/fs.h>
#include <linux/namei.h>
#include "ops.h"

/**
 * ul_dir_modified - a name in a union directory changed
 * @dir: the union directory, locked
 *
 * Open readdir caches of @dir are rebuilt when they next start over, and
 * the directory's attributes follow the real one.
 */
void ul_dir_modified(struct inode *dir)
{
	UL_I(dir)->version++;
	ul_copyattr(dir);
}

/* What to create: a new object, or a hard link to @hardlink. */
struct ul_cattr {
	umode_t mode;
	dev_t rdev;
	const char *link;
	struct dentry *hardlink;
};

/*
 * Switch to the mounter's credentials, but create objects owned by the
 * caller (the upper filesystem applies its own setgid-directory rule,
 * the upper directory having the union directory's mode).
 */
static const struct cred *ul_override_creds_owner(struct super_block *sb)
{
	kuid_t fsuid = current_fsuid();
	kgid_t fsgid = current_fsgid();
	const struct cred *old_cred;
	struct cred *cred;

	old_cred = ul_override_creds(sb);
	cred = prepare_creds();
	if (!cred) {
		revert_creds(old_cred);
		return ERR_PTR(-ENOMEM);
	}
	cred->fsuid = fsuid;
	cred->fsgid = fsgid;
	put_cred(override_creds(cred));
	put_cred(cred);
	return old_cred;
}

/*
 * Recipe "create in upper": the union name is negative and so is the upper
 * name; the object is created directly in the upper parent.
 * Caller: mounter's credentials, write access, upper parent exists.
 */
static int ul_create_upper(struct dentry *dentry, struct ul_cattr *attr)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct dentry *upperdir = ul_dentry_upper(dentry->d_parent);
	struct dentry *newdentry;
	struct inode *inode;
	int err;

	inode_lock_nested(d_inode(upperdir), I_MUTEX_PARENT);
	newdentry = lookup_one(ul_upper_userns(ufs), dentry->d_name.name,
			       upperdir, dentry->d_name.len);
	err = PTR_ERR(newdentry);
	if (IS_ERR(newdentry))
		goto out_unlock;
	err = -EXDEV;		/* part 2: create over a whiteout */
	if (ul_is_whiteout(newdentry))
		goto out_dput;
	err = -EEXIST;
	if (d_really_is_positive(newdentry))
		goto out_dput;

	if (attr->hardlink) {
		err = ul_do_link(ufs, attr->hardlink, upperdir, newdentry);
	} else {
		switch (attr->mode & S_IFMT) {
		case S_IFREG:
			err = ul_do_create(ufs, upperdir, newdentry, attr->mode);
			break;
		case S_IFDIR:
			err = ul_do_mkdir(ufs, upperdir, newdentry, attr->mode);
			break;
		case S_IFLNK:
			err = ul_do_symlink(ufs, upperdir, newdentry,
					    attr->link);
			break;
		default:
			err = ul_do_mknod(ufs, upperdir, newdentry, attr->mode,
					  attr->rdev);
			break;
		}
	}
	if (err)
		goto out_dput;
	if (d_unhashed(newdentry) || d_really_is_negative(newdentry)) {
		/* vfs_mkdir() may leave the dentry unhashed: look it up */
		struct dentry *again;

		again = lookup_one(ul_upper_userns(ufs), dentry->d_name.name,
				   upperdir, dentry->d_name.len);
		dput(newdentry);
		newdentry = again;
		err = PTR_ERR(again);
		if (IS_ERR(again))
			goto out_unlock;
		err = -EIO;
		if (d_really_is_negative(again))
			goto out_dput;
	}
	inode_unlock(d_inode(upperdir));

	inode = ul_new_inode(dentry->d_sb, newdentry, NULL, 0);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	d_instantiate(dentry, inode);
	return 0;

out_dput:
	dput(newdentry);
out_unlock:
	inode_unlock(d_inode(upperdir));
	return err;
}

static int ul_create_object(struct dentry *dentry, struct ul_cattr *attr)
{
	struct super_block *sb = dentry->d_sb;
	const struct cred *old_cred;
	int err;

	err = ul_want_write(sb);
	if (err)
		return err;
	if (attr->hardlink) {
		struct dentry *old = attr->hardlink;

		err = ul_copy_up(old);
		if (err)
			goto out_drop_write;
		attr->hardlink = ul_dentry_upper(old);
	}
	err = ul_copy_up(dentry->d_parent);
	if (err)
		goto out_drop_write;

	old_cred = ul_override_creds_owner(sb);
	err = PTR_ERR(old_cred);
	if (IS_ERR(old_cred))
		goto out_drop_write;
	err = ul_create_upper(dentry, attr);
	revert_creds(old_cred);
	if (!err)
		ul_dir_modified(d_inode(dentry->d_parent));
out_drop_write:
	ul_drop_write(sb);
	return err;
}

static int ul_create(struct user_namespace *mnt_userns, struct inode *dir,
		     struct dentry *dentry, umode_t mode, bool excl)
{
	struct ul_cattr attr = { .mode = (mode & S_IALLUGO) | S_IFREG };

	return ul_create_object(dentry, &attr);
}

static int ul_mkdir(struct user_namespace *mnt_userns, struct inode *dir,
		    struct dentry *dentry, umode_t mode)
{
	struct ul_cattr attr = { .mode = (mode & S_IALLUGO) | S_IFDIR };

	return ul_create_object(dentry, &attr);
}

static int ul_mknod(struct user_namespace *mnt_userns, struct inode *dir,
		    struct dentry *dentry, umode_t mode, dev_t rdev)
{
	struct ul_cattr attr = { .mode = mode, .rdev = rdev };

	/* a 0/0 character device would read back as a whiteout */
	if (S_ISCHR(mode) && rdev == WHITEOUT_DEV)
		return -EPERM;
	return ul_create_object(dentry, &attr);
}

static int ul_symlink(struct user_namespace *mnt_userns, struct inode *dir,
		      struct dentry *dentry, const char *link)
{
	struct ul_cattr attr = { .mode = S_IFLNK | 0777, .link = link };

	return ul_create_object(dentry, &attr);
}

static int ul_link(struct dentry *old, struct inode *dir,
		   struct dentry *dentry)
{
	struct ul_cattr attr = { .hardlink = old };
	int err;

	err = ul_create_object(dentry, &attr);
	if (!err)
		ul_copyattr(d_inode(old));	/* i_nlink */
	return err;
}

/*
 * Recipe "remove upper-only": the object exists only in the upper layer
 * and no lower name is behind it; it is removed from the upper parent.
 */
static int ul_remove_upper(struct dentry *dentry, bool is_dir)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct dentry *upperdir = ul_dentry_upper(dentry->d_parent);
	struct dentry *upper = ul_dentry_upper(dentry);
	const struct cred *old_cred;
	int err;

	if (WARN_ON(!upper || !upperdir))
		return -EIO;
	err = ul_want_write(dentry->d_sb);
	if (err)
		return err;
	old_cred = ul_override_creds(dentry->d_sb);
	inode_lock_nested(d_inode(upperdir), I_MUTEX_PARENT);
	err = -ESTALE;
	if (upper->d_parent != upperdir || d_unhashed(upper))
		goto out_unlock;
	if (is_dir)
		err = ul_do_rmdir(ufs, upperdir, upper);
	else
		err = ul_do_unlink(ufs, upperdir, upper);
out_unlock:
	inode_unlock(d_inode(upperdir));
	revert_creds(old_cred);
	ul_drop_write(dentry->d_sb);
	if (!err) {
		ul_copyattr(d_inode(dentry));
		if (is_dir)
			clear_nlink(d_inode(dentry));
		ul_dir_modified(d_inode(dentry->d_parent));
	}
	return err;
}

static int ul_unlink(struct inode *dir, struct dentry *dentry)
{
	if (ul_has_lower_name(dentry))
		return -EXDEV;	/* part 2: unlink leaving a whiteout */
	return ul_remove_upper(dentry, false);
}

static int ul_rmdir(struct inode *dir, struct dentry *dentry)
{
	int err;

	if (ul_has_lower_name(dentry)) {
		err = ul_check_empty(dentry);
		return err ? err : -EXDEV; /* part 2: rmdir leaving a whiteout */
	}
	return ul_remove_upper(dentry, true);
}

/*
 * Recipe "rename upper-only": source (and target, if any) exist only in
 * the upper layer; the upper objects are renamed with the same flags.
 */
static int ul_rename_upper(struct dentry *old, struct dentry *new,
			   unsigned int flags)
{
	struct ul_fs *ufs = UL_FS(old->d_sb);
	struct dentry *olddir = ul_dentry_upper(old->d_parent);
	struct dentry *newdir = ul_dentry_upper(new->d_parent);
	struct dentry *oldupper = ul_dentry_upper(old);
	struct dentry *newupper, *trap;
	int err;

	if (WARN_ON(!olddir || !newdir || !oldupper))
		return -EIO;
	trap = lock_rename(newdir, olddir);
	err = -ESTALE;
	if (oldupper->d_parent != olddir || d_unhashed(oldupper))
		goto out_unlock;
	newupper = lookup_one(ul_upper_userns(ufs), new->d_name.name, newdir,
			      new->d_name.len);
	err = PTR_ERR(newupper);
	if (IS_ERR(newupper))
		goto out_unlock;
	if (d_really_is_positive(new)) {
		err = -ESTALE;
		if (newupper != ul_dentry_upper(new))
			goto out_dput;
	} else {
		err = -EXDEV;	/* part 2: rename over a whiteout */
		if (ul_is_whiteout(newupper))
			goto out_dput;
		err = -ESTALE;
		if (d_really_is_positive(newupper))
			goto out_dput;
	}
	err = -EINVAL;
	if (oldupper == trap)
		goto out_dput;
	err = -ENOTEMPTY;
	if (newupper == trap)
		goto out_dput;
	err = ul_do_rename(ufs, olddir, oldupper, newdir, newupper, flags);
out_dput:
	dput(newupper);
out_unlock:
	unlock_rename(newdir, olddir);
	return err;
}

static int ul_rename(struct user_namespace *mnt_userns, struct inode *olddir,
		     struct dentry *old, struct inode *newdir,
		     struct dentry *new, unsigned int flags)
{
	struct super_block *sb = old->d_sb;
	const struct cred *old_cred;
	bool replaced;
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE))
		return -EINVAL;
	/* part 2: renames that leave or replace a whiteout */
	if (ul_has_lower_name(old))
		return -EXDEV;
	if (d_really_is_positive(new) && ul_has_lower_name(new))
		return -EXDEV;

	replaced = d_really_is_positive(new) && !(flags & RENAME_EXCHANGE);
	err = ul_want_write(sb);
	if (err)
		return err;
	err = ul_copy_up(new->d_parent);
	if (err)
		goto out_drop_write;
	old_cred = ul_override_creds(sb);
	err = ul_rename_upper(old, new, flags);
	revert_creds(old_cred);
	if (err)
		goto out_drop_write;
	ul_dir_modified(olddir);
	if (newdir != olddir)
		ul_dir_modified(newdir);
	if (replaced) {
		ul_copyattr(d_inode(new));
		if (d_is_dir(new))
			clear_nlink(d_inode(new));
	}
out_drop_write:
	ul_drop_write(sb);
	return err;
}

const struct inode_operations ul_dir_iops = {
	.lookup		= ul_lookup,
	.create		= ul_create,
	.mkdir		= ul_mkdir,
	.mknod		= ul_mknod,
	.symlink	= ul_symlink,
	.link		= ul_link,
	.unlink		= ul_unlink,
	.rmdir		= ul_rmdir,
	.rename		= ul_rename,
	.permission	= ul_permission,
	.getattr	= ul_getattr,
	.setattr	= ul_setattr,
	.listxattr	= ul_listxattr,
};
