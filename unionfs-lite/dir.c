// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: namespace operations of union directories.
 *
 * Operations that need no whiteout work directly in the upper layer
 * (create in upper, remove upper-only, rename upper-only). Those that must
 * leave a whiteout or replace one are the recipes of the cross-rename cover
 * letter, one function each, named after the recipe (docs/recipes.md):
 *
 *  ul_rmdir_whiteout()		1. rmdir(P), P needs a whiteout
 *  ul_create_over_whiteout()	2. mkdir/create/mknod/symlink/link over a
 *				   whiteout
 *  ul_unlink_whiteout()		unlink(P), P needs a whiteout
 *  ul_rename_whiteout_exchange()	3. rename(P, Q), P needs a whiteout, Q
 *				   negative
 *  ul_rename_over_whiteout()	rename(P, Q), upper/Q a whiteout
 *  ul_rename_over_whiteouts_dir()	4. rename(P, Q), Q empty but holding
 *				   whiteouts in upper
 *  ul_rename_whiteout_flag()	5. rename(P, Q), P needs a whiteout, Q
 *				   exists
 *  ul_rename_dir_redirect()	6. (ours) rename(P, Q), P a directory with a
 *				   lower directory (redirect_dir=on), or a
 *				   file whose data is lower (metacopy=on)
 *
 * Each recipe runs with the upper (and work) parents locked, looks the
 * upper name up again under the lock and returns -ESTALE when it is not
 * what the union dentry says. The union parents (and the victims) are held
 * by the VFS for the whole operation, so no other unionlite operation sees
 * the upper layer between the steps of a recipe.
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
 * Under RCU path walk only ul_permission(), ul_get_inode_acl() (with rcu set)
 * and ul_get_link() are called; the first two read the real inode through
 * ul_upper() (acquire), and ul_get_inode_acl() gives only a cached ACL there;
 * ul_get_link() refuses with -ECHILD.
 */

#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <linux/namei.h>
#include <linux/posix_acl.h>
#include <linux/posix_acl_xattr.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include "ops.h"

static ushort ul_redirect_max = 256;
module_param_named(redirect_max, ul_redirect_max, ushort, 0644);
MODULE_PARM_DESC(redirect_max,
		 "Longest redirect (an absolute path) recipe 6 writes, as overlayfs's");

/*
 * A name in union directory @dir (locked) changed: open readdir caches of
 * @dir are rebuilt when they next start over, and the directory's
 * attributes follow the real one.
 */
static void ul_dir_modified(struct inode *dir)
{
	ul_dir_renumbered(dir);
	ul_copyattr(dir);
}

/*
 * The owner a new object gets in union directory @dir, as a filesystem
 * gives it (inode_init_owner()): the caller's fsuid; the directory's group
 * and, for a directory, S_ISGID when @dir is setgid, else the caller's
 * fsgid. (The VFS has already dropped S_ISGID from a non-directory's mode
 * where the caller may not keep it.)
 */
static void ul_init_owner(struct inode *dir, struct ul_cattr *attr)
{
	attr->uid = current_fsuid();
	attr->gid = current_fsgid();
	if (!(dir->i_mode & S_ISGID))
		return;
	attr->gid = dir->i_gid;
	if (S_ISDIR(attr->mode))
		attr->mode |= S_ISGID;
}

/*
 * Switch to the mounter's credentials, but create objects owned by the
 * owner ul_init_owner() chose (in the upper directory, whose mode and
 * group are the union directory's, the upper filesystem chooses the same).
 * A new object (not a link) gets the label an LSM gives what the caller
 * creates at @dentry (security_dentry_create_files_as(), as overlayfs).
 */
static const struct cred *ul_override_creds_owner(struct dentry *dentry,
						  const struct ul_cattr *attr)
{
	const struct cred *old_cred;
	struct cred *cred;
	int err;

	old_cred = ul_override_creds(dentry->d_sb);
	cred = prepare_creds();
	if (!cred) {
		revert_creds(old_cred);
		return ERR_PTR(-ENOMEM);
	}
	cred->fsuid = attr->uid;
	cred->fsgid = attr->gid;
	if (!attr->hardlink) {
		err = security_dentry_create_files_as(dentry, attr->mode,
						      &dentry->d_name,
						      old_cred, cred);
		if (err) {
			put_cred(cred);
			revert_creds(old_cred);
			return ERR_PTR(err);
		}
	}
	put_cred(override_creds(cred));
	put_cred(cred);
	return old_cred;
}

/* The name of union @dentry in the locked upper directory @upperdir. */
static struct dentry *ul_lookup_upper(struct ul_fs *ufs,
				      struct dentry *upperdir,
				      const struct dentry *dentry)
{
	return lookup_one(ul_upper_idmap(ufs), dentry->d_name.name, upperdir,
			  dentry->d_name.len);
}

/*
 * After a step that removed or moved away @dentry: the name looked up
 * again (the old dentry may have been unhashed rather than made negative).
 */
static struct dentry *ul_relookup(struct ul_fs *ufs, struct dentry *dir,
				  struct dentry *dentry)
{
	struct dentry *again;

	again = lookup_one(ul_upper_idmap(ufs), dentry->d_name.name, dir,
			   dentry->d_name.len);
	dput(dentry);
	return again;
}

/*
 * Under the parent locks, the upper name @found must still be what the
 * union dentry said: the object of @upper (an upper dentry of the union
 * inode, of this name or of another hard link), or no object at all when
 * @upper is NULL.
 */
static int ul_check_upper(struct dentry *found, struct dentry *upper,
			  struct dentry *trap)
{
	if (WARN_ON(trap && found == trap))
		return -EIO;
	if (upper)
		return d_inode(found) == d_inode(upper) ? 0 : -ESTALE;
	return d_really_is_negative(found) ? 0 : -ESTALE;
}

/*
 * Under the lock of @upperdir: the upper dentry of union @dentry's name,
 * which must still hold the object of @upper. The operation then acts on
 * it (not on @upper, which may be another name of the object).
 *
 * Return: the upper dentry (a reference) or an ERR_PTR (-ESTALE when the
 * name changed).
 */
static struct dentry *ul_lookup_checked(struct ul_fs *ufs,
					struct dentry *upperdir,
					const struct dentry *dentry,
					struct dentry *upper)
{
	struct dentry *found;
	int err;

	found = ul_lookup_upper(ufs, upperdir, dentry);
	if (IS_ERR(found))
		return found;
	err = ul_check_upper(found, upper, NULL);
	if (!err)
		return found;
	dput(found);
	return ERR_PTR(err);
}

/*
 * Does the upper name of union @dentry still hold its upper object?
 * Checked under the upper parent's lock, which is then dropped: for a
 * recipe that changes another name first.
 */
static int ul_check_name(struct ul_fs *ufs, struct dentry *dentry)
{
	struct dentry *upperdir = ul_dentry_upper(dentry->d_parent);
	struct dentry *found;

	inode_lock_nested(d_inode(upperdir), I_MUTEX_PARENT);
	found = ul_lookup_checked(ufs, upperdir, dentry,
				  ul_dentry_upper(dentry));
	inode_unlock(d_inode(upperdir));
	if (IS_ERR(found))
		return PTR_ERR(found);
	dput(found);
	return 0;
}

static int ul_set_opaque(struct ul_fs *ufs, struct dentry *dir)
{
	return ul_do_setxattr(ufs, dir, UL_XATTR_OPAQUE, "y", 1, 0);
}

/*
 * The first steps of every recipe that goes through the work dir: the
 * work dir and @upperdir locked, and the upper name of union @dentry
 * looked up again and checked against what the union says: the union
 * object's upper object, or no object when it has none (both read under
 * the locks, which a copy-up of the object takes to put its copy in
 * place); with @whiteout, a whiteout instead.
 *
 * Return: the upper name (a reference; both parents stay locked) or an
 * ERR_PTR (-ESTALE when the name changed; the parents are unlocked).
 */
static struct dentry *ul_lock_target(struct ul_fs *ufs,
				     struct dentry *upperdir,
				     const struct dentry *dentry, bool whiteout)
{
	struct dentry *target, *trap;
	int err;

	trap = ul_lock_work_upper(ufs, upperdir);
	if (IS_ERR(trap))
		return trap;
	target = ul_lookup_upper(ufs, upperdir, dentry);
	if (IS_ERR(target))
		goto out_unlock;
	if (whiteout)
		err = WARN_ON(trap && target == trap) ? -EIO :
		      ul_is_whiteout(target) ? 0 : -ESTALE;
	else
		err = ul_check_upper(target, ul_dentry_upper(dentry), trap);
	if (!err)
		return target;
	dput(target);
	target = ERR_PTR(err);
out_unlock:
	ul_unlock_work_upper(ufs, upperdir);
	return target;
}

/*
 * An object made in the work dir gets there the owner, mode and ACLs it
 * would have got in its union directory (@attr), since the work dir's own
 * group, setgid bit and default ACL must not count; with @attr->like, the
 * xattrs and times of the object it stands in for.
 */
static int ul_set_new_attrs(struct ul_fs *ufs, struct dentry *made,
			    const struct ul_cattr *attr)
{
	struct inode *inode = d_inode(made);
	struct iattr ia = { };
	int err = 0;

	if (attr->default_acl)
		err = ul_do_set_acl(ufs, made, XATTR_NAME_POSIX_ACL_DEFAULT,
				    attr->default_acl);
	if (!err && attr->acl)
		err = ul_do_set_acl(ufs, made, XATTR_NAME_POSIX_ACL_ACCESS,
				    attr->acl);
	if (!err && attr->like)
		err = ul_copy_xattrs(ufs, ul_upper_idmap(ufs), attr->like,
				     made);
	if (err)
		return err;
	if (attr->like) {
		ia.ia_valid |= ATTR_ATIME | ATTR_MTIME | ATTR_ATIME_SET |
			       ATTR_MTIME_SET;
		ia.ia_atime = inode_get_atime(d_inode(attr->like));
		ia.ia_mtime = inode_get_mtime(d_inode(attr->like));
	}
	if (!uid_eq(inode->i_uid, attr->uid) ||
	    !gid_eq(inode->i_gid, attr->gid)) {
		ia.ia_valid |= ATTR_UID | ATTR_GID;
		ia.ia_uid = attr->uid;
		ia.ia_gid = attr->gid;
	}
	if (!S_ISLNK(attr->mode) &&
	    (inode->i_mode & S_IALLUGO) != (attr->mode & S_IALLUGO)) {
		ia.ia_valid |= ATTR_MODE;
		ia.ia_mode = attr->mode;
	}
	if (!ia.ia_valid)
		return 0;
	inode_lock(inode);
	err = ul_do_setattr(ufs, made, &ia);
	inode_unlock(inode);
	return err;
}

/*
 * The object @attr describes (a whiteout when @attr is NULL) made at the
 * negative @dentry in the locked @dir; in the work dir it gets the
 * attributes of ul_set_new_attrs(); a directory is marked opaque there,
 * before anything can make it visible. Takes @dentry's reference.
 *
 * Return: the made object (a reference) or an ERR_PTR; on error nothing
 * is left at the name.
 */
static struct dentry *ul_make_at(struct ul_fs *ufs, struct dentry *dir,
				 struct dentry *dentry, struct ul_cattr *attr)
{
	int err;

	if (attr)
		err = ul_make_object(ufs, dir, dentry, attr);
	else
		err = ul_do_whiteout(ufs, dir, dentry);
	if (err)
		goto out_dput;
	dentry = ul_made(ufs, dir, dentry);
	if (IS_ERR(dentry) || !attr || attr->hardlink)
		return dentry;
	err = 0;
	if (dir == ufs->workdir)
		err = ul_set_new_attrs(ufs, dentry, attr);
	if (!err && S_ISDIR(attr->mode))
		err = ul_set_opaque(ufs, dentry);
	if (!err)
		return dentry;
	ul_cleanup(ufs, dir, dentry);
out_dput:
	dput(dentry);
	return ERR_PTR(err);
}

/* The object a recipe puts in place, made at a fresh work/X: ul_make_at() */
static struct dentry *ul_make_temp(struct ul_fs *ufs, struct ul_cattr *attr)
{
	struct dentry *temp;

	temp = ul_lookup_temp(ufs);
	if (IS_ERR(temp))
		return temp;
	return ul_make_at(ufs, ufs->workdir, temp, attr);
}

/*
 * The one visible step of recipes 1, 2 and 4 and of the unlink: the
 * object @attr describes (a whiteout when NULL) made at work/X, then
 * renamed onto the upper name @target with @flags (RENAME_EXCHANGE: the
 * old object goes to work/X, where @target now is). Both parents locked.
 *
 * Return: the object now at upper/P (a reference) or an ERR_PTR; on
 * error nothing is left in the work dir and upper/P is unchanged.
 */
static struct dentry *ul_put_in_place(struct ul_fs *ufs,
				      struct dentry *upperdir,
				      struct dentry *target,
				      struct ul_cattr *attr, unsigned int flags)
{
	struct dentry *temp;
	int err;

	temp = ul_make_temp(ufs, attr);
	if (IS_ERR(temp))
		return temp;
	err = ul_do_rename(ufs, ufs->workdir, temp, upperdir, target, flags);
	if (!err)
		return temp;
	ul_cleanup(ufs, ufs->workdir, temp);
	dput(temp);
	return ERR_PTR(err);
}

/*
 * The old directory a recipe moved to the work dir: its whiteouts, then
 * itself. The visible operation is done; a failure only leaves an orphan
 * that the next mount removes.
 */
static void ul_remove_old_dir(struct ul_fs *ufs, struct dentry *old)
{
	int err;

	err = ul_remove_whiteouts(ufs, old);
	if (!err)
		err = ul_do_rmdir(ufs, ufs->workdir, old);
	if (err)
		pr_warn("unionlite: %pd left in the work dir (%d)\n", old, err);
}

/*
 * Naive mode: a broken union does not hold the parent across its steps
 * either. Without this, lookups that miss the dcache would wait on the
 * parent's lock and never see the state between two steps; the pause
 * stands for the work a real one does in between. Takes @target's
 * reference; returns it looked up again.
 */
static struct dentry *ul_naive_pause(struct ul_fs *ufs, struct dentry *dir,
				     struct dentry *target)
{
	ul_unlock_work_upper(ufs, dir);
	usleep_range(100, 200);
	/* the same two directories, connected: no error */
	WARN_ON(IS_ERR(ul_lock_work_upper(ufs, dir)));
	return ul_relookup(ufs, dir, target);
}

/*
 * Naive mode (test only): the name is removed, then the new object made,
 * in separate visible steps. A whiteout at a negative name (@attr NULL:
 * rmdir or unlink of a lower-only name) starts with a placeholder, an
 * empty regular file, as a union that creates the entry first and turns
 * it into a whiteout after would: the union shows it, then the lower
 * object again, then nothing. Takes @target's reference; returns the
 * made object in @made.
 */
static int ul_replace_naive(struct ul_fs *ufs, struct dentry *dir,
			    struct dentry *target, struct ul_cattr *attr,
			    struct dentry **made)
{
	int err = 0;

	if (!attr && d_really_is_negative(target)) {
		err = ul_do_create(ufs, dir, target, 0644);
		if (err)
			goto out_dput;
		target = ul_naive_pause(ufs, dir, target);
		if (IS_ERR(target))
			return PTR_ERR(target);
	}
	if (d_really_is_positive(target)) {
		if (d_is_dir(target)) {
			err = ul_remove_whiteouts(ufs, target);
			if (!err)
				err = ul_do_rmdir(ufs, dir, target);
		} else {
			err = ul_do_unlink(ufs, dir, target);
		}
		if (err)
			goto out_dput;
		target = ul_naive_pause(ufs, dir, target);
		if (IS_ERR(target))
			return PTR_ERR(target);
	}
	target = ul_make_at(ufs, dir, target, attr);
	if (IS_ERR(target))
		return PTR_ERR(target);
	if (made) {
		*made = target;
		return 0;
	}
out_dput:
	dput(target);
	return err;
}

/*
 * The object of a create is in the upper layer, but its union inode could
 * not be made (ENOMEM): the negative union dentry must not stay to hide
 * it. The next lookup finds the object; the create still fails.
 */
static void ul_made_uninstantiated(struct dentry *dentry)
{
	d_drop(dentry);
	ul_dir_modified(d_inode(dentry->d_parent));
}

/*
 * Recipe "create in upper": the union name is negative and so is the upper
 * name; the object is created directly in the upper parent.
 * Caller: mounter's credentials, write access, upper parent exists.
 * Return: 0, -EAGAIN when upper/P is a whiteout, or a negative errno.
 */
static int ul_create_upper(struct dentry *dentry, struct ul_cattr *attr)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct dentry *upperdir = ul_dentry_upper(dentry->d_parent);
	struct dentry *newdentry;
	struct inode *inode;
	bool opaque;
	int err;

	inode_lock_nested(d_inode(upperdir), I_MUTEX_PARENT);
	newdentry = ul_lookup_upper(ufs, upperdir, dentry);
	err = PTR_ERR(newdentry);
	if (IS_ERR(newdentry))
		goto out_unlock;
	err = -EAGAIN;		/* ul_create_over_whiteout() */
	if (ul_is_whiteout(newdentry))
		goto out_dput;
	err = -EEXIST;
	if (d_really_is_positive(newdentry))
		goto out_dput;
	err = ul_make_object(ufs, upperdir, newdentry, attr);
	if (err)
		goto out_dput;
	newdentry = ul_made(ufs, upperdir, newdentry);
	err = PTR_ERR(newdentry);
	if (IS_ERR(newdentry))
		goto out_unlock;
	/*
	 * A new directory in a merged one is marked opaque as on overlayfs
	 * (ovl_allow_offline_changes()): with redirect_dir=on or xino=on
	 * only, where a lower layer is not expected to change; otherwise a
	 * name a lower layer gains while unmounted merges into it. Only
	 * an optimization there: lookup finds no lower object at the name
	 * anyway, so a failure (or a crash before it) changes nothing.
	 */
	opaque = d_is_dir(newdentry) && ul_dentry_lower(dentry->d_parent) &&
		 !ul_allow_offline_changes(ufs) &&
		 !ul_set_opaque(ufs, newdentry);
	inode_unlock(d_inode(upperdir));

	inode = ul_get_inode(dentry->d_sb, newdentry, NULL, 0, opaque, NULL);
	if (IS_ERR(inode)) {
		ul_made_uninstantiated(dentry);
		return PTR_ERR(inode);
	}
	ul_set_lower_name(dentry, false);
	d_instantiate(dentry, inode);
	return 0;

out_dput:
	dput(newdentry);
out_unlock:
	inode_unlock(d_inode(upperdir));
	return err;
}

/*
 * Recipe 2, mkdir(P) where upper/P is a whiteout (and the same for create,
 * mknod, symlink and link):
 *   make the object as work/X; a directory is marked opaque there;
 *   exchange(work/X, upper/P); unlink(work/X), now the old whiteout.
 * The name goes from whiteout to the complete new object in one step.
 */
static int ul_create_over_whiteout(struct dentry *dentry,
				   struct ul_cattr *attr)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct dentry *upperdir = ul_dentry_upper(dentry->d_parent);
	bool is_dir = !attr->hardlink && S_ISDIR(attr->mode);
	struct dentry *target, *temp;
	struct inode *inode;
	int err;

	/* the mode and ACLs the union directory's default ACL gives */
	if (!attr->hardlink) {
		err = posix_acl_create(d_inode(dentry->d_parent), &attr->mode,
				       &attr->default_acl, &attr->acl);
		if (err)
			return err;
	}
	target = ul_lock_target(ufs, upperdir, dentry, true);
	err = PTR_ERR(target);
	if (IS_ERR(target))
		goto out_release;
	if (ul_test_naive()) {
		err = ul_replace_naive(ufs, upperdir, target, attr, &temp);
	} else {
		temp = ul_put_in_place(ufs, upperdir, target, attr,
				       RENAME_EXCHANGE);
		err = PTR_ERR_OR_ZERO(temp);
		if (!err)
			/* target is work/X now: the old whiteout */
			ul_cleanup(ufs, ufs->workdir, target);
		dput(target);
	}
	ul_unlock_work_upper(ufs, upperdir);
	if (err)
		goto out_release;
	inode = ul_get_inode(dentry->d_sb, temp, NULL, 0, is_dir, NULL);
	err = PTR_ERR(inode);
	if (IS_ERR(inode)) {
		ul_made_uninstantiated(dentry);
		goto out_release;
	}
	/* a whiteout hides a lower name: removing this needs one again */
	ul_set_lower_name(dentry, true);
	d_instantiate(dentry, inode);
	err = 0;
out_release:
	posix_acl_release(attr->default_acl);
	posix_acl_release(attr->acl);
	attr->default_acl = NULL;
	attr->acl = NULL;
	return err;
}

/*
 * A copied-up non-directory keeps its lower inode number (ino.c): the
 * directory it moves or is linked into must be marked impure first, for
 * readdir to report that number. Mounter's credentials.
 */
static int ul_impure_for(struct ul_fs *ufs, struct dentry *obj,
			 struct dentry *dir)
{
	/* a directory keeps its lower directory's number */
	if (d_is_dir(obj) ? !ul_dentry_lower(obj) :
	    !test_bit(UL_ORIGIN, &UL_E(obj)->flags))
		return 0;
	return ul_set_impure(ufs, d_inode(dir), ul_dentry_upper(dir));
}

static int ul_link_copy_up(struct dentry *linked);

static int ul_create_object(struct dentry *dentry, struct ul_cattr *attr)
{
	struct super_block *sb = dentry->d_sb;
	struct dentry *linked = attr->hardlink;
	const struct cred *old_cred;
	int err;

	/*
	 * Under aufs_whiteouts no ".wh." name is made: once the upper is a
	 * lower layer (an image's), it would be a whiteout (as
	 * fuse-overlayfs refuses it).
	 */
	if (ul_aufs_name(UL_FS(sb), dentry->d_name.name, dentry->d_name.len))
		return -EINVAL;
	err = ul_want_write(sb);
	if (err)
		return err;
	if (linked) {
		err = ul_link_copy_up(linked);
		if (err)
			goto out_drop_write;
		attr->hardlink = ul_dentry_upper(linked);
	}
	err = ul_copy_up(dentry->d_parent);
	if (err)
		goto out_drop_write;
	if (linked) {
		old_cred = ul_override_creds(sb);
		err = ul_impure_for(UL_FS(sb), linked, dentry->d_parent);
		revert_creds(old_cred);
		if (err)
			goto out_drop_write;
	}

	ul_init_owner(d_inode(dentry->d_parent), attr);
	old_cred = ul_override_creds_owner(dentry, attr);
	err = PTR_ERR(old_cred);
	if (IS_ERR(old_cred))
		goto out_drop_write;
	/*
	 * Over a whiteout (recipe 2) or not: the dentry's hint says which
	 * to try first; each finds out under its locks whether it applies
	 * and leaves the name alone when it does not.
	 */
	if (ul_whiteout_seen(dentry)) {
		err = ul_create_over_whiteout(dentry, attr);
		if (err == -ESTALE)
			err = ul_create_upper(dentry, attr);
	} else {
		err = ul_create_upper(dentry, attr);
		if (err == -EAGAIN)
			err = ul_create_over_whiteout(dentry, attr);
	}
	if (err == -EAGAIN)	/* the upper name changed under us */
		err = -ESTALE;
	revert_creds(old_cred);
	if (!err)
		ul_dir_modified(d_inode(dentry->d_parent));
out_drop_write:
	ul_drop_write(sb);
	return err;
}

static int ul_create(struct ul_idmap *idmap, struct inode *dir,
		     struct dentry *dentry, umode_t mode, bool excl)
{
	struct ul_cattr attr = { .mode = (mode & S_IALLUGO) | S_IFREG };

	return ul_create_object(dentry, &attr);
}

static int ul_mkdir(struct ul_idmap *idmap, struct inode *dir,
		    struct dentry *dentry, umode_t mode)
{
	struct ul_cattr attr = { .mode = (mode & S_IALLUGO) | S_IFDIR };

	return ul_create_object(dentry, &attr);
}

static int ul_mknod(struct ul_idmap *idmap, struct inode *dir,
		    struct dentry *dentry, umode_t mode, dev_t rdev)
{
	struct ul_cattr attr = { .mode = mode, .rdev = rdev };

	/* a 0/0 character device would read back as a whiteout */
	if (S_ISCHR(mode) && rdev == WHITEOUT_DEV)
		return -EPERM;
	return ul_create_object(dentry, &attr);
}

static int ul_symlink(struct ul_idmap *idmap, struct inode *dir,
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
static int ul_remove_upper(struct ul_fs *ufs, struct dentry *dentry,
			   bool is_dir)
{
	struct dentry *upperdir = ul_dentry_upper(dentry->d_parent);
	struct dentry *upper;
	int err;

	if (WARN_ON(!ul_dentry_upper(dentry) || !upperdir))
		return -EIO;
	inode_lock_nested(d_inode(upperdir), I_MUTEX_PARENT);
	/*
	 * The name, not only the parent: upper/P may be upper/P2 by now.
	 * The lookup's reference also keeps d_delete() from making the
	 * union inode's upper dentry negative under the feet of anyone
	 * still using it (an open file, a getxattr in flight).
	 */
	upper = ul_lookup_checked(ufs, upperdir, dentry,
				  ul_dentry_upper(dentry));
	err = PTR_ERR(upper);
	if (IS_ERR(upper))
		goto out_unlock;
	if (is_dir)
		err = ul_do_rmdir(ufs, upperdir, upper);
	else
		err = ul_do_unlink(ufs, upperdir, upper);
	dput(upper);
out_unlock:
	inode_unlock(d_inode(upperdir));
	return err;
}

/*
 * rmdir(P) of a directory that needs no whiteout but whose upper
 * directory holds whiteouts with nothing below them (stale: the lower
 * layer lost those names, or the directory, while unmounted). The union
 * lists it empty; the upper filesystem would refuse the rmdir.
 *   rename(upper/P, work/X); remove the whiteouts in work/X; rmdir(work/X).
 * P leaves the union in the one rename.
 */
static int ul_rmdir_stale(struct ul_fs *ufs, struct dentry *dentry)
{
	struct dentry *upperdir = ul_dentry_upper(dentry->d_parent);
	struct dentry *target, *temp;
	int err;

	target = ul_lock_target(ufs, upperdir, dentry, false);
	if (IS_ERR(target))
		return PTR_ERR(target);
	temp = ul_lookup_temp(ufs);
	err = PTR_ERR(temp);
	if (IS_ERR(temp))
		goto out_unlock;
	err = ul_do_rename(ufs, upperdir, target, ufs->workdir, temp, 0);
	if (!err)
		/* target is work/X now: the old directory */
		ul_remove_old_dir(ufs, target);
	dput(temp);
out_unlock:
	dput(target);
	ul_unlock_work_upper(ufs, upperdir);
	return err;
}

/*
 * Recipe 1, rmdir(P) where P needs a whiteout:
 *   create-whiteout(work/X); exchange(work/X, upper/P);
 *   remove the whiteouts in work/X (the old directory); rmdir(work/X).
 * P only in lower (no upper/P):
 *   create-whiteout(work/X); rename(work/X, upper/P).
 */
static int ul_rmdir_whiteout(struct ul_fs *ufs, struct dentry *dentry)
{
	struct dentry *upperdir = ul_dentry_upper(dentry->d_parent);
	struct dentry *target, *temp;
	bool upper;
	int err;

	target = ul_lock_target(ufs, upperdir, dentry, false);
	if (IS_ERR(target))
		return PTR_ERR(target);
	if (ul_test_naive()) {
		err = ul_replace_naive(ufs, upperdir, target, NULL, NULL);
		goto out_unlock;
	}
	upper = d_really_is_positive(target);
	temp = ul_put_in_place(ufs, upperdir, target, NULL,
			       upper ? RENAME_EXCHANGE : 0);
	err = PTR_ERR_OR_ZERO(temp);
	if (!err && upper)
		/* target is work/X now: the old directory */
		ul_remove_old_dir(ufs, target);
	if (!err)
		dput(temp);
	dput(target);
out_unlock:
	ul_unlock_work_upper(ufs, upperdir);
	return err;
}

/*
 * unlink(P) of a non-directory where P needs a whiteout:
 *   create-whiteout(work/X); rename(work/X, upper/P).
 * The rename replaces upper/P (or fills the negative name) in one step:
 * rename(2) never shows the target name absent.
 */
static int ul_unlink_whiteout(struct ul_fs *ufs, struct dentry *dentry)
{
	struct dentry *upperdir = ul_dentry_upper(dentry->d_parent);
	struct dentry *target, *temp;
	int err;

	target = ul_lock_target(ufs, upperdir, dentry, false);
	if (IS_ERR(target))
		return PTR_ERR(target);
	if (ul_test_naive()) {
		err = ul_replace_naive(ufs, upperdir, target, NULL, NULL);
		goto out_unlock;
	}
	temp = ul_put_in_place(ufs, upperdir, target, NULL, 0);
	err = PTR_ERR_OR_ZERO(temp);
	if (!err)
		dput(temp);
	dput(target);
out_unlock:
	ul_unlock_work_upper(ufs, upperdir);
	return err;
}

static int ul_remove(struct dentry *dentry, bool is_dir)
{
	struct super_block *sb = dentry->d_sb;
	struct ul_fs *ufs = UL_FS(sb);
	bool whiteout = ul_lower_name(dentry);
	bool stale = false;
	const struct cred *old_cred;
	int err;

	if (is_dir) {
		err = ul_check_empty(dentry, &stale);
		if (err)
			return err;
	}
	err = ul_want_write(sb);
	if (err)
		return err;
	if (whiteout) {
		err = ul_copy_up(dentry->d_parent);
		if (err)
			goto out_drop_write;
	}
	old_cred = ul_override_creds(sb);
	if (!whiteout && stale)
		err = ul_rmdir_stale(ufs, dentry);
	else if (!whiteout)
		err = ul_remove_upper(ufs, dentry, is_dir);
	else if (is_dir)
		err = ul_rmdir_whiteout(ufs, dentry);
	else
		err = ul_unlink_whiteout(ufs, dentry);
	revert_creds(old_cred);
	if (!err) {
		ul_set_whiteout_seen(dentry, whiteout);
		ul_copyattr(d_inode(dentry));
		if (is_dir)
			clear_nlink(d_inode(dentry));
		ul_dir_modified(d_inode(dentry->d_parent));
	}
out_drop_write:
	ul_drop_write(sb);
	return err;
}

static int ul_unlink(struct inode *dir, struct dentry *dentry)
{
	return ul_remove(dentry, false);
}

static int ul_rmdir(struct inode *dir, struct dentry *dentry)
{
	return ul_remove(dentry, true);
}

/* The upper parents and objects of one rename, locked by the caller. */
struct ul_rename_ctx {
	struct ul_fs *ufs;
	struct dentry *old;
	struct dentry *olddir;
	struct dentry *oldupper;
	struct dentry *newdir;
	struct dentry *newupper;
};

/* Naive mode: the upper parents unlocked for a while, as ul_naive_pause() */
static void ul_rename_naive_pause(struct ul_rename_ctx *rc)
{
	unlock_rename(rc->newdir, rc->olddir);
	usleep_range(100, 200);
	WARN_ON(IS_ERR(lock_rename(rc->newdir, rc->olddir)));
}

/*
 * Naive mode (test only): unlink the whiteout at Q, rename, then make the
 * whiteout at P, each a visible step.
 */
static int ul_rename_naive(struct ul_rename_ctx *rc)
{
	struct dentry *wh;
	int err;

	if (ul_is_whiteout(rc->newupper)) {
		err = ul_do_unlink(rc->ufs, rc->newdir, rc->newupper);
		if (err)
			return err;
		ul_rename_naive_pause(rc);
		rc->newupper = ul_relookup(rc->ufs, rc->newdir, rc->newupper);
		if (IS_ERR(rc->newupper)) {
			err = PTR_ERR(rc->newupper);
			rc->newupper = NULL;
			return err;
		}
	}
	err = ul_do_rename(rc->ufs, rc->olddir, rc->oldupper, rc->newdir,
			   rc->newupper, 0);
	if (err)
		return err;
	if (!ul_lower_name(rc->old))
		return 0;
	/* upper/P is absent now */
	ul_rename_naive_pause(rc);
	wh = ul_lookup_upper(rc->ufs, rc->olddir, rc->old);
	if (IS_ERR(wh))
		return PTR_ERR(wh);
	if (d_really_is_negative(wh))
		err = ul_do_whiteout(rc->ufs, rc->olddir, wh);
	dput(wh);
	return err;
}

/*
 * Recipe 3, rename(P, Q) where P needs a whiteout and Q is negative in
 * the union (no layer shows it):
 *   create-whiteout(upper/Q); exchange(upper/P, upper/Q).
 * When upper/Q is a whiteout already, the first step is done. Needs
 * RENAME_EXCHANGE only, not RENAME_WHITEOUT. Only for a Q negative in the
 * union: over a Q that only the lower layer has, the first step would
 * hide lower Q, and a crash before the second would leave P unmoved and
 * Q gone; that Q goes to recipe 5 (as the cover letter says: a Q that
 * exists needs a new flag).
 */
static int ul_rename_whiteout_exchange(struct ul_rename_ctx *rc)
{
	bool made = false;
	int err;

	if (d_really_is_negative(rc->newupper)) {
		err = ul_do_whiteout(rc->ufs, rc->newdir, rc->newupper);
		if (err)
			return err;
		made = true;
	}
	err = ul_do_rename(rc->ufs, rc->olddir, rc->oldupper, rc->newdir,
			   rc->newupper, RENAME_EXCHANGE);
	if (err && made)
		ul_cleanup(rc->ufs, rc->newdir, rc->newupper);
	return err;
}

/*
 * rename(P, Q) where P needs no whiteout and upper/Q is a whiteout. Q goes
 * from whiteout to P's object in one step:
 *   P not a directory: rename(upper/P, upper/Q), replacing the whiteout.
 *     A plain rename over an existing name is what the upper fs knows as
 *     "replace a file": ext4 then writes P's data before the rename
 *     commits (auto_da_alloc), as programs that replace a file without
 *     fsync (dpkg's conffiles) expect, and as overlayfs does.
 *   P a directory (it cannot be renamed over a character device):
 *     exchange(upper/P, upper/Q); unlink(upper/P), now the old whiteout.
 */
static int ul_rename_over_whiteout(struct ul_rename_ctx *rc)
{
	int err;

	if (!d_is_dir(rc->oldupper))
		return ul_do_rename(rc->ufs, rc->olddir, rc->oldupper,
				    rc->newdir, rc->newupper, 0);
	err = ul_do_rename(rc->ufs, rc->olddir, rc->oldupper, rc->newdir,
			   rc->newupper, RENAME_EXCHANGE);
	if (!err)
		ul_cleanup(rc->ufs, rc->olddir, rc->newupper);
	return err;
}

static bool ul_can_rename_whiteout(struct ul_fs *ufs)
{
	if (ufs->rename_whiteout && !ul_test_no_rename_whiteout())
		return true;
	pr_info_once("unionlite: upper fs has no RENAME_WHITEOUT: rename over an existing name that must leave a whiteout returns EXDEV\n");
	return false;
}

/*
 * Recipe 5, rename(P, Q) where P needs a whiteout and Q exists in the
 * union (upper/Q an object, or negative over a lower Q):
 *   rename(upper/P, upper/Q, RENAME_WHITEOUT).
 * The caller has checked ul_can_rename_whiteout(); without it, EXDEV.
 */
static int ul_rename_whiteout_flag(struct ul_rename_ctx *rc)
{
	return ul_do_rename(rc->ufs, rc->olddir, rc->oldupper, rc->newdir,
			    rc->newupper, RENAME_WHITEOUT);
}

/*
 * Recipe 4, first part, rename(P, Q) where Q is a directory that is empty
 * in the union but may hold whiteouts in upper:
 *   mkdir(work/X); mark it opaque; exchange(work/X, upper/Q);
 *   remove the whiteouts in work/X (the old Q); rmdir(work/X).
 * ul_rename_upper() then does the last step, rename(P, Q), over the empty
 * opaque directory. Q stays an empty directory in the union throughout.
 *
 * Return: the directory at upper/Q now (a reference) or an ERR_PTR.
 */
static struct dentry *ul_rename_over_whiteouts_dir(struct ul_fs *ufs,
						   struct dentry *new)
{
	struct dentry *upperdir = ul_dentry_upper(new->d_parent);
	struct ul_cattr attr = {};
	struct dentry *target, *temp;
	int err;

	target = ul_lock_target(ufs, upperdir, new, false);
	if (IS_ERR(target))
		return target;
	if (ul_test_naive()) {
		/* the whiteouts go in place: lower names show up for a while */
		err = ul_remove_whiteouts(ufs, target);
		if (!err) {
			target = ul_naive_pause(ufs, upperdir, target);
			if (IS_ERR(target)) {
				temp = target;
				goto out_unlock;
			}
		}
		temp = err ? ERR_PTR(err) : dget(target);
	} else {
		/*
		 * The new Q is the old Q but for its whiteouts: owner, mode
		 * (setgid too), xattrs and ACLs, times.
		 */
		attr.mode = d_inode(target)->i_mode;
		attr.uid = d_inode(target)->i_uid;
		attr.gid = d_inode(target)->i_gid;
		attr.like = target;
		temp = ul_put_in_place(ufs, upperdir, target, &attr,
				       RENAME_EXCHANGE);
		if (!IS_ERR(temp))
			/* target is work/X now: the old Q */
			ul_remove_old_dir(ufs, target);
	}
	dput(target);
out_unlock:
	ul_unlock_work_upper(ufs, upperdir);
	return temp;
}

/*
 * The redirect a directory with a lower directory needs at a new name:
 * where its lower directory is, as lookup would find it from the new
 * name. Within its parent (!@absolute), its own name, which the lower
 * layers' parent directories hold. Elsewhere, the path from the union's
 * root: each ancestor's redirect or, without one, its name, up to the
 * root or to an absolute redirect. An ancestor's redirect is set before
 * it moves, so a concurrent move of one gives its old path or its
 * redirect, both of which name the same lower directory.
 *
 * Return: the redirect (kmalloc()ed), or an ERR_PTR: -EXDEV when longer
 * than redirect_max (mv then copies, as on overlayfs), -ENOMEM.
 */
static char *ul_build_redirect(struct dentry *dentry, bool absolute)
{
	unsigned int max = READ_ONCE(ul_redirect_max);
	struct dentry *d, *parent;
	char *buf, *ret;
	size_t pos;

	if (!absolute)
		return kstrndup(dentry->d_name.name, dentry->d_name.len,
				GFP_KERNEL) ?: ERR_PTR(-ENOMEM);
	buf = kmalloc(max + 1, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	/* the path is built from its end */
	pos = max;
	buf[pos] = '\0';
	ret = ERR_PTR(-EXDEV);
	for (d = dget(dentry); !IS_ROOT(d); d = parent) {
		const char *name;
		size_t len;

		spin_lock(&d->d_lock);
		name = UL_E(d)->redirect;
		if (!name)
			name = d->d_name.name;
		len = strlen(name);
		if (len + (name[0] != '/') > pos) {
			spin_unlock(&d->d_lock);
			goto out;
		}
		pos -= len;
		memcpy(buf + pos, name, len);
		spin_unlock(&d->d_lock);
		parent = dget_parent(d);
		dput(d);
		if (buf[pos] == '/') {
			d = parent;
			break;
		}
		buf[--pos] = '/';
	}
	ret = kstrdup(buf + pos, GFP_KERNEL) ?: ERR_PTR(-ENOMEM);
out:
	dput(d);
	kfree(buf);
	return ret;
}

/*
 * Does @dentry need a redirect at a new name: a directory with a lower
 * one, or a regular file whose data stays lower (a metacopy copy, or a
 * lower-only file that metacopy=on copies up as one)?
 */
static bool ul_moves_by_redirect(struct dentry *dentry)
{
	struct ul_inode *ui = UL_E(dentry);

	if (!ul_lower(ui))
		return false;
	if (d_is_dir(dentry))
		return true;
	if (!d_is_reg(dentry))
		return false;
	if (ul_upper(ui))
		return test_bit(UL_LOWERDATA, &ui->flags);
	return UL_FS(dentry->d_sb)->config.metacopy;
}

/*
 * NULL when @dentry moves without a new redirect: it is neither a
 * directory with a lower one nor a file whose data is lower, or it has
 * a redirect that holds at the new name (any within its parent, an
 * absolute one anywhere). Else the redirect to give it, or an ERR_PTR
 * (ul_build_redirect()).
 */
static char *ul_redirect_for(struct dentry *dentry, bool samedir)
{
	const char *redirect;
	bool holds;

	if (!ul_moves_by_redirect(dentry))
		return NULL;
	spin_lock(&dentry->d_lock);
	redirect = UL_E(dentry)->redirect;
	holds = redirect && (samedir || redirect[0] == '/');
	spin_unlock(&dentry->d_lock);
	return holds ? NULL : ul_build_redirect(dentry, !samedir);
}

/*
 * Give the upper directory @upper of @dentry the redirect @redirect,
 * unless it has it already (set by its copy-up). It names the lower
 * directory @dentry has now: the union's view does not change. The
 * caller holds the parent's upper lock. A redirect that cannot be set is
 * -EXDEV.
 */
static int ul_set_redirect(struct ul_fs *ufs, struct dentry *dentry,
			   struct dentry *upper, const char *redirect)
{
	struct ul_inode *ui = UL_E(dentry);
	char *copy;
	bool has;

	spin_lock(&dentry->d_lock);
	has = ui->redirect && !strcmp(ui->redirect, redirect);
	spin_unlock(&dentry->d_lock);
	if (has)
		return 0;
	copy = ul_write_redirect(ufs, upper, redirect);
	if (IS_ERR(copy))
		return PTR_ERR(copy);
	spin_lock(&dentry->d_lock);
	swap(ui->redirect, copy);
	spin_unlock(&dentry->d_lock);
	kfree(copy);
	return 0;
}

/*
 * link(P, Q) copies P up. A file whose data stays lower gets an absolute
 * redirect first, as on overlayfs: a lookup of Q, in another directory
 * perhaps, must find the data (the copy carries it from the start; a
 * copy made before gets it set).
 */
static int ul_link_copy_up(struct dentry *linked)
{
	struct ul_fs *ufs = UL_FS(linked->d_sb);
	const struct cred *old_cred;
	char *redirect;
	int err;

	if (!ul_moves_by_redirect(linked))
		return ul_copy_up(linked);
	redirect = ul_redirect_for(linked, false);
	if (IS_ERR(redirect))
		return PTR_ERR(redirect);
	err = ul_copy_up_redirect(linked, redirect);
	if (!err && redirect && ul_data_is_lower(UL_E(linked))) {
		old_cred = ul_override_creds(linked->d_sb);
		err = ul_set_redirect(ufs, linked, ul_dentry_upper(linked),
				      redirect);
		revert_creds(old_cred);
	}
	kfree(redirect);
	return err;
}

/* The redirects recipe 6 gives P (@old) and, in an exchange, Q (@new). */
struct ul_redirects {
	char *old;
	char *new;
};

/* Recipe 6's redirects on the upper directories of @rc->old and @new */
static int ul_rename_set_redirects(struct ul_rename_ctx *rc, struct dentry *new,
				   const struct ul_redirects *rd)
{
	int err = 0;

	if (rd->old)
		err = ul_set_redirect(rc->ufs, rc->old, rc->oldupper, rd->old);
	if (!err && rd->new)
		err = ul_set_redirect(rc->ufs, new, rc->newupper, rd->new);
	return err;
}

/*
 * Rename in the upper layer, choosing the recipe. When the union target
 * is positive, upper/Q must hold @emptied (recipe 4's new directory) if
 * given, else Q's upper object (none: Q is lower-only), read under the
 * locks. On success *@q_lower says whether a lower name is behind Q,
 * *@opaqued whether P was marked opaque on the way and, for an exchange,
 * *@new_opaqued whether Q was (a directory landing on a lower name).
 * @rd: recipe 6's redirects, set here on a directory that was in the
 * upper layer before (a copy-up set them already), or NULL.
 */
static int ul_rename_upper(struct dentry *old, struct dentry *new,
			   unsigned int flags, struct dentry *emptied,
			   const struct ul_redirects *rd, bool *q_lower,
			   bool *opaqued, bool *new_opaqued)
{
	struct ul_fs *ufs = UL_FS(old->d_sb);
	struct ul_rename_ctx rc = {
		.ufs		= ufs,
		.old		= old,
		.olddir		= ul_dentry_upper(old->d_parent),
		.newdir		= ul_dentry_upper(new->d_parent),
	};
	bool exchange = flags & RENAME_EXCHANGE;
	bool p_lower = ul_lower_name(old);
	bool q_neg, q_wh;
	struct dentry *trap;
	int err;

	if (WARN_ON(!rc.olddir || !rc.newdir || !ul_dentry_upper(old)))
		return -EIO;
	trap = lock_rename(rc.newdir, rc.olddir);
	if (IS_ERR(trap))
		return PTR_ERR(trap);
	/* P's own upper name: the union inode's may be another hard link */
	rc.oldupper = ul_lookup_checked(ufs, rc.olddir, old,
					ul_dentry_upper(old));
	err = PTR_ERR(rc.oldupper);
	if (IS_ERR(rc.oldupper))
		goto out_unlock;
	rc.newupper = ul_lookup_upper(ufs, rc.newdir, new);
	err = PTR_ERR(rc.newupper);
	if (IS_ERR(rc.newupper))
		goto out_dput_old;
	q_wh = ul_is_whiteout(rc.newupper);
	q_neg = d_really_is_negative(rc.newupper);
	if (d_really_is_positive(new))
		err = ul_check_upper(rc.newupper,
				     emptied ?: ul_dentry_upper(new), NULL);
	else
		err = q_neg || q_wh ? 0 : -ESTALE;
	if (err)
		goto out_dput;
	err = -EINVAL;
	if (rc.oldupper == trap)
		goto out_dput;
	err = -ENOTEMPTY;
	if (rc.newupper == trap)
		goto out_dput;
	/*
	 * P and Q hard links of one file: rename(2) must do nothing, and
	 * the VFS does nothing when both names have the one union inode of
	 * the file. Two union inodes over one upper object (a link made in
	 * the upper layer behind the union's back) would have the VFS move
	 * P's dentry onto Q while the upper names stay: refused instead.
	 */
	err = -EXDEV;
	if (d_inode(rc.newupper) == d_inode(rc.oldupper))
		goto out_dput;

	*q_lower = q_wh || (d_really_is_positive(new) && ul_lower_name(new));
	/* recipe 6: the redirects name the lower directories they have now */
	if (rd && !ul_test_naive()) {
		err = ul_rename_set_redirects(&rc, new, rd);
		if (err)
			goto out_dput;
	}
	/*
	 * A directory without a lower one that lands in a directory with a
	 * lower layer is made opaque, as overlayfs does: over a lower name,
	 * lower Q must stay hidden; elsewhere, a name the lower layer gains
	 * later must not merge into it. One with a lower directory has a
	 * redirect, which the lower layers are looked up by instead.
	 */
	if ((*q_lower || ul_dentry_lower(new->d_parent)) && d_is_dir(old) &&
	    !ul_dentry_lower(old) && !test_bit(UL_OPAQUE, &UL_E(old)->flags)) {
		err = ul_set_opaque(ufs, rc.oldupper);
		if (err)
			goto out_dput;
		*opaqued = true;
	}
	if (exchange && (p_lower || ul_dentry_lower(old->d_parent)) &&
	    d_is_dir(new) && !ul_dentry_lower(new) &&
	    !test_bit(UL_OPAQUE, &UL_E(new)->flags)) {
		/* and the exchange puts Q where P was */
		err = ul_set_opaque(ufs, rc.newupper);
		if (err)
			goto out_dput;
		*new_opaqued = true;
	}

	if (exchange)
		err = ul_do_rename(ufs, rc.olddir, rc.oldupper, rc.newdir,
				   rc.newupper, RENAME_EXCHANGE);
	else if (ul_test_naive() && (p_lower || q_wh))
		err = ul_rename_naive(&rc);
	else if (p_lower && (q_wh || (q_neg && d_really_is_negative(new))))
		err = ul_rename_whiteout_exchange(&rc);
	else if (q_wh)
		err = ul_rename_over_whiteout(&rc);
	else if (p_lower)
		/* Q exists in the union, in upper or only in lower */
		err = ul_rename_whiteout_flag(&rc);
	else if (q_neg)
		err = ul_do_rename(ufs, rc.olddir, rc.oldupper, rc.newdir,
				   rc.newupper, flags & RENAME_NOREPLACE);
	else
		err = ul_do_rename(ufs, rc.olddir, rc.oldupper, rc.newdir,
				   rc.newupper, 0);
	if (!err && rd && ul_test_naive()) {
		/* naive mode: the moved directory shows empty for a while */
		ul_rename_naive_pause(&rc);
		err = ul_rename_set_redirects(&rc, new, rd);
	}
out_dput:
	dput(rc.newupper);
out_dput_old:
	dput(rc.oldupper);
out_unlock:
	unlock_rename(rc.newdir, rc.olddir);
	return err;
}

/*
 * The steps of a rename once it is known to be possible: the copy-ups
 * (with recipe 6's redirects @rd, or NULL), the impure marks, recipe 4's
 * first part for a Q holding whiteouts, then ul_rename_upper().
 */
static int ul_rename_steps(struct inode *olddir, struct dentry *old,
			   struct inode *newdir, struct dentry *new,
			   unsigned int flags, const struct ul_redirects *rd)
{
	struct super_block *sb = old->d_sb;
	bool exchange = flags & RENAME_EXCHANGE;
	bool new_pos = d_really_is_positive(new);
	bool p_lower = ul_lower_name(old);
	bool q_lower = new_pos && ul_lower_name(new);
	bool replaced = new_pos && !exchange;
	bool q_whiteouts = false, q_merged;
	struct dentry *emptied = NULL;
	const struct cred *old_cred;
	bool opaqued = false, new_opaqued = false;
	int err;

	/*
	 * As overlayfs: a Q with a lower directory is checked before any
	 * change, an upper one after the copy-ups (which change no view but
	 * a directory's link count), so that both leave the same upper.
	 */
	q_merged = replaced && d_is_dir(new) &&
		   (ul_dentry_lower(new) ||
		    test_bit(UL_WHITEOUTS, &UL_E(new)->flags));
	if (q_merged) {
		err = ul_check_empty(new, &q_whiteouts);
		if (err)
			return err;
	}
	if (replaced && p_lower && !ul_can_rename_whiteout(UL_FS(sb)))
		return -EXDEV;

	err = ul_want_write(sb);
	if (err)
		return err;
	err = ul_copy_up(old->d_parent);
	if (!err)
		err = ul_copy_up(new->d_parent);
	/* naive mode: no redirect until after the rename */
	if (!err)
		err = rd && rd->old && !ul_test_naive() ?
		      ul_copy_up_redirect(old, rd->old) : ul_copy_up(old);
	if (!err && exchange)
		err = rd && rd->new && !ul_test_naive() ?
		      ul_copy_up_redirect(new, rd->new) : ul_copy_up(new);
	if (!err && replaced && d_is_dir(new) && !q_merged)
		err = ul_check_empty(new, &q_whiteouts);
	if (err)
		goto out_drop_write;

	old_cred = ul_override_creds(sb);
	/* a directory with a lower one keeps its number wherever it goes */
	if (olddir != newdir || rd) {
		err = ul_impure_for(UL_FS(sb), old, new->d_parent);
		if (!err && exchange)
			err = ul_impure_for(UL_FS(sb), new, old->d_parent);
		if (err)
			goto out_revert;
	}
	if (replaced && d_is_dir(new) && q_whiteouts && ul_dentry_upper(new)) {
		/* recipe 4 changes upper/Q first: a stale P must stop it */
		err = ul_check_name(UL_FS(sb), old);
		if (err)
			goto out_revert;
		emptied = ul_rename_over_whiteouts_dir(UL_FS(sb), new);
		err = PTR_ERR(emptied);
		if (IS_ERR(emptied)) {
			emptied = NULL;
			goto out_revert;
		}
	}
	err = ul_rename_upper(old, new, flags, emptied, rd, &q_lower, &opaqued,
			      &new_opaqued);
	/*
	 * Recipe 4's first half put a new, empty opaque directory at upper/Q
	 * and removed the old one. If the rest failed, the union dentry of Q
	 * still points to the removed one: drop it, so that the next lookup
	 * finds Q as it is now (overlayfs: ovl_clear_empty()).
	 */
	if (err && emptied)
		d_drop(new);
	dput(emptied);
out_revert:
	revert_creds(old_cred);
	if (err)
		goto out_drop_write;

	ul_set_lower_name(old, q_lower);
	if (exchange)
		ul_set_lower_name(new, p_lower);
	if (opaqued)
		set_bit(UL_OPAQUE, &UL_E(old)->flags);
	if (new_opaqued)
		set_bit(UL_OPAQUE, &UL_E(new)->flags);
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

/*
 * Recipe 6 (ours, not the cover letter's), rename(P, Q) where P (or, in
 * an exchange, Q) is a directory with a lower directory, or a file whose
 * data stays lower under metacopy=on (as a directory's contents, the
 * data is found through the redirect). It keeps its lower contents at
 * the new name through trusted.overlay.redirect, which lookup follows
 * (namei.c):
 *   1. redirect := P's name (Q in the same directory) or P's path from
 *      the union's root (elsewhere); longer than redirect_max: EXDEV,
 *      before any change;
 *   2. P lower-only: copy-up(P) through work/X, with the redirect set
 *      on work/X before rename(work/X, upper/P);
 *   3. the impure mark on Q's parent;
 *   4. Q a directory holding only whiteouts: recipe 4's first half;
 *   5. under the rename lock, P in upper already: setxattr(upper/P,
 *      redirect). Steps 2 to 5 change no view: a redirect names the
 *      lower directory P has now;
 *   6. the move, one or two steps. When P's name has a lower: onto a
 *      whiteout Q or a Q no layer has, whiteout(upper/Q) unless it is
 *      one, then exchange(upper/P, upper/Q) (recipe 3); otherwise
 *      rename-whiteout(upper/P, upper/Q) (recipe 5). When it has none:
 *      exchange(upper/P, upper/Q) and unlink(upper/P) onto a whiteout
 *      Q, a plain rename otherwise. The union's view changes in the
 *      exchange or the rename.
 * An exchange does the same for Q (its redirect, the impure mark on P's
 * parent) and moves both in one RENAME_EXCHANGE. Only with
 * redirect_dir=on; otherwise EXDEV, as overlayfs (mv copies).
 */
static int ul_rename_dir_redirect(struct inode *olddir, struct dentry *old,
				  struct inode *newdir, struct dentry *new,
				  unsigned int flags)
{
	bool samedir = olddir == newdir;
	struct ul_redirects rd = { };
	int err;

	if (!ul_redirect_create(UL_FS(old->d_sb)))
		return -EXDEV;
	rd.old = ul_redirect_for(old, samedir);
	if (IS_ERR(rd.old))
		return PTR_ERR(rd.old);
	if (flags & RENAME_EXCHANGE) {
		rd.new = ul_redirect_for(new, samedir);
		if (IS_ERR(rd.new)) {
			kfree(rd.old);
			return PTR_ERR(rd.new);
		}
	}
	err = ul_rename_steps(olddir, old, newdir, new, flags, &rd);
	kfree(rd.old);
	kfree(rd.new);
	return err;
}

static int ul_rename(struct ul_idmap *idmap, struct inode *olddir,
		     struct dentry *old, struct inode *newdir,
		     struct dentry *new, unsigned int flags)
{
	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE))
		return -EINVAL;
	/* a name the AUFS form reserves is made by no call (ul_create_object()) */
	if (ul_aufs_name(UL_FS(old->d_sb), new->d_name.name, new->d_name.len) ||
	    ((flags & RENAME_EXCHANGE) &&
	     ul_aufs_name(UL_FS(old->d_sb), old->d_name.name, old->d_name.len)))
		return -EINVAL;
	if (ul_moves_by_redirect(old) ||
	    ((flags & RENAME_EXCHANGE) && ul_moves_by_redirect(new)))
		return ul_rename_dir_redirect(olddir, old, newdir, new, flags);
	return ul_rename_steps(olddir, old, newdir, new, flags, NULL);
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
	UL_ACL_IOPS,
	.fileattr_get	= ul_fileattr_get,
	.fileattr_set	= ul_fileattr_set,
};
