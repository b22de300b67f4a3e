// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: the choke point. Every change to the upper layer and to the
 * work directory is one call of a ul_do_*() wrapper in this file; nothing
 * else calls vfs_create(), vfs_rename(), vfs_setxattr(), notify_change()...
 * on the real layers. (Data written through an open union file goes to the
 * real upper file in file.c; that is file I/O, not a change of the layer's
 * namespace or metadata.)
 *
 * With the module parameter "trace" set, each wrapper logs one line:
 *
 *	unionlite: <op> <where>/<name>[ <where>/<name>| <xattr>] = <err>
 *
 * <where> is "upper" or "work", <name> the path relative to that layer's
 * root (computed before the call, so a rename shows its source name).
 *
 * Callers run with the mounter's credentials (ul_override_creds()), hold
 * write access to the upper mount (ul_want_write()) and hold the locks the
 * wrapped VFS call documents: the parent's i_rwsem for namespace calls,
 * lock_rename() of both parents for a rename, the object's i_rwsem for
 * setxattr via notify_change().
 */

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fileattr.h>
#include <linux/list_sort.h>
#include <linux/moduleparam.h>
#include <linux/namei.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/xattr.h>
#include "ops.h"

static bool ul_trace;
module_param_named(trace, ul_trace, bool, 0644);
MODULE_PARM_DESC(trace, "log one line per change of the upper layer");

/* Where a real dentry lives, relative to the layer roots: "upper/a/b". */
static char *ul_trace_path(struct ul_fs *ufs, struct dentry *dentry)
{
	const char *where, *prefix, *rel;
	char *buf, *path, *ret;
	size_t plen;

	if (!READ_ONCE(ul_trace) || !ufs->upper_prefix || !ufs->work_prefix)
		return NULL;
	/* a file of ul_do_tmpfile() before its link: no name of its own */
	if (dentry->d_parent == ufs->workdir && d_unhashed(dentry) &&
	    d_really_is_positive(dentry) && !d_inode(dentry)->i_nlink)
		return kstrdup("work/(tmpfile)", GFP_KERNEL);
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return NULL;
	path = dentry_path_raw(dentry, buf, PATH_MAX);
	if (IS_ERR(path)) {
		ret = kstrdup("?", GFP_KERNEL);
		goto out_free;
	}
	/* the prefixes have no trailing '/'; a root is "" */
	where = "upper";
	prefix = ufs->upper_prefix;
	plen = strlen(ufs->work_prefix);
	if (!strncmp(path, ufs->work_prefix, plen) &&
	    (path[plen] == '/' || path[plen] == '\0')) {
		where = "work";
		prefix = ufs->work_prefix;
	}
	plen = strlen(prefix);
	rel = path + plen;
	if (*rel == '/')
		rel++;
	ret = kasprintf(GFP_KERNEL, "%s/%s", where, rel);
out_free:
	kfree(buf);
	return ret;
}

/*
 * The end of every step: log one trace line and free the paths (no line
 * when tracing was off). A step that changed the layer then goes to the
 * test build's hook (testing.h: a commit, a pause).
 */
static void ul_step_end(struct ul_fs *ufs, const char *op, char *p1,
			const char *p2, int err)
{
	if (p1) {
		if (p2)
			pr_info("unionlite: %s %s %s = %d\n", op, p1, p2, err);
		else
			pr_info("unionlite: %s %s = %d\n", op, p1, err);
		kfree(p1);
	}
	if (!err)
		ul_test_step_done(ufs->upper_mnt->mnt_sb);
}

/**
 * ul_do_create - create a regular file in the upper layer or work dir
 * @ufs: the union
 * @dir: locked parent
 * @dentry: negative dentry in @dir
 * @mode: permission bits (S_IFREG is implied)
 *
 * Return: 0 or a negative errno from vfs_create().
 */
int ul_do_create(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry,
		 umode_t mode)
{
	char *p = ul_trace_path(ufs, dentry);
	int err;

	err = vfs_create(ul_upper_idmap(ufs), d_inode(dir), dentry,
			 (mode & S_IALLUGO) | S_IFREG, true);
	ul_step_end(ufs, "create", p, NULL, err);
	return err;
}

/**
 * ul_do_mkdir - create a directory in the upper layer or work dir
 * @ufs: the union
 * @dir: locked parent
 * @dentry: negative dentry in @dir
 * @mode: permission bits
 *
 * Return: 0 or a negative errno from vfs_mkdir().
 */
int ul_do_mkdir(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry,
		umode_t mode)
{
	char *p = ul_trace_path(ufs, dentry);
	int err;

	err = vfs_mkdir(ul_upper_idmap(ufs), d_inode(dir), dentry,
			mode & (0777 | S_ISVTX));
	ul_step_end(ufs, "mkdir", p, NULL, err);
	return err;
}

/**
 * ul_do_mknod - create a device, fifo or socket
 * @ufs: the union
 * @dir: locked parent
 * @dentry: negative dentry in @dir
 * @mode: file type and permission bits
 * @rdev: device number
 *
 * Return: 0 or a negative errno from vfs_mknod().
 */
int ul_do_mknod(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry,
		umode_t mode, dev_t rdev)
{
	char *p = ul_trace_path(ufs, dentry);
	int err;

	err = vfs_mknod(ul_upper_idmap(ufs), d_inode(dir), dentry, mode, rdev);
	ul_step_end(ufs, "mknod", p, NULL, err);
	return err;
}

/*
 * Whiteouts share one inode, as overlayfs's do: a new whiteout is a hard
 * link of work/#whiteout (no temporary name is "#whiteout": those are
 * "#<hex>"). To readers of the layer a link is the same whiteout as a
 * new inode; on ext4 it is cheaper to make and much cheaper to remove
 * (no inode to free). The shared whiteout is made the first time the
 * work dir is locked for a whiteout, replaced there when it has all the
 * links the filesystem (or the whiteout_links parameter) allows, and
 * removed at umount. Where it cannot be linked, the whiteout is a new
 * inode (vfs_mknod()).
 */
#define UL_SHARED_WHITEOUT	"#whiteout"

static struct dentry *ul_get_shared_whiteout(struct ul_fs *ufs)
{
	struct dentry *shared;

	spin_lock(&ufs->whiteout_lock);
	shared = dget(ufs->whiteout);
	spin_unlock(&ufs->whiteout_lock);
	return shared;
}

/* Publish @shared (its reference is taken) as the shared whiteout. */
static struct dentry *ul_set_shared_whiteout(struct ul_fs *ufs,
					     struct dentry *shared)
{
	struct dentry *old;

	spin_lock(&ufs->whiteout_lock);
	old = ufs->whiteout;
	ufs->whiteout = shared;
	spin_unlock(&ufs->whiteout_lock);
	return old;
}

static int ul_mknod_whiteout(struct ul_fs *ufs, struct dentry *dir,
			     struct dentry *dentry)
{
	return vfs_mknod(ul_upper_idmap(ufs), d_inode(dir), dentry,
			 S_IFCHR | WHITEOUT_MODE, WHITEOUT_DEV);
}

/*
 * @dentry in the locked @dir made a hard link of the shared whiteout,
 * traced as "link work/#whiteout <dentry>".
 * Return: 0, -ENOENT when there is none, -EMLINK when it is full (both
 * without a step), or another negative errno from vfs_link().
 */
static int ul_link_shared_whiteout(struct ul_fs *ufs, struct dentry *dir,
				   struct dentry *dentry)
{
	unsigned int max = ul_test_whiteout_links();
	struct dentry *shared;
	int err = -ENOENT;

	shared = ul_get_shared_whiteout(ufs);
	if (!shared)
		return err;
	if (max && d_inode(shared)->i_nlink >= max)
		err = -EMLINK;
	else
		err = ul_do_link(ufs, shared, dir, dentry);
	dput(shared);
	return err;
}

/*
 * A new shared whiteout at work/#whiteout (the work dir is locked); a full
 * one loses its name there first (its links elsewhere stay whiteouts).
 * Both steps are traced. Return: 0 or a negative errno.
 */
static int ul_renew_shared_whiteout(struct ul_fs *ufs)
{
	struct dentry *wdir = ufs->workdir;
	struct dentry *shared;
	char *p;
	int err;

	shared = ul_set_shared_whiteout(ufs, NULL);
	if (shared) {
		if (shared->d_parent == wdir && !d_unhashed(shared) &&
		    d_really_is_positive(shared))
			ul_cleanup(ufs, wdir, shared);
		dput(shared);
	}
	shared = lookup_one(ul_upper_idmap(ufs), UL_SHARED_WHITEOUT, wdir,
			    strlen(UL_SHARED_WHITEOUT));
	if (IS_ERR(shared))
		return PTR_ERR(shared);
	p = ul_trace_path(ufs, shared);
	err = d_really_is_positive(shared) ? -EEXIST :
	      ul_mknod_whiteout(ufs, wdir, shared);
	ul_step_end(ufs, "whiteout", p, NULL, err);
	if (err) {
		dput(shared);
		return err;
	}
	shared = ul_made(ufs, wdir, shared);
	if (IS_ERR(shared))
		return PTR_ERR(shared);
	dput(ul_set_shared_whiteout(ufs, shared));
	return 0;
}

/**
 * ul_do_whiteout - create a whiteout (character device 0/0)
 * @ufs: the union
 * @dir: locked parent
 * @dentry: negative dentry in @dir
 *
 * The whiteout is a hard link of the shared whiteout when it can be (a
 * new shared whiteout is made first when @dir is the work dir and there
 * is none, or it is full), else a new inode. The trace tells them apart:
 * "link work/#whiteout <name>" for a link, "whiteout <name>" for a new
 * inode (vfs_mknod()); a link that failed is traced before the mknod.
 *
 * Return: 0 or a negative errno from vfs_mknod().
 */
int ul_do_whiteout(struct ul_fs *ufs, struct dentry *dir,
		   struct dentry *dentry)
{
	char *p;
	int err;

	err = ul_link_shared_whiteout(ufs, dir, dentry);
	if ((err == -ENOENT || err == -EMLINK) && dir == ufs->workdir &&
	    !ul_renew_shared_whiteout(ufs))
		err = ul_link_shared_whiteout(ufs, dir, dentry);
	if (!err)
		return 0;
	p = ul_trace_path(ufs, dentry);
	err = ul_mknod_whiteout(ufs, dir, dentry);
	ul_step_end(ufs, "whiteout", p, NULL, err);
	return err;
}

/**
 * ul_put_shared_whiteout - remove the shared whiteout at umount
 * @ufs: the union, no longer mounted
 *
 * A failure leaves it in the work dir, which the next mount empties.
 */
void ul_put_shared_whiteout(struct ul_fs *ufs)
{
	struct dentry *shared = ul_set_shared_whiteout(ufs, NULL);
	const struct cred *old_cred;

	if (!shared)
		return;
	if (mnt_want_write(ufs->upper_mnt)) {
		dput(shared);
		return;
	}
	old_cred = override_creds(ufs->creator_cred);
	ul_cleanup_temp(ufs, shared);
	revert_creds(old_cred);
	mnt_drop_write(ufs->upper_mnt);
}

/**
 * ul_do_symlink - create a symbolic link
 * @ufs: the union
 * @dir: locked parent
 * @dentry: negative dentry in @dir
 * @target: the link's contents
 *
 * Return: 0 or a negative errno from vfs_symlink().
 */
int ul_do_symlink(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry,
		  const char *target)
{
	char *p = ul_trace_path(ufs, dentry);
	int err;

	err = vfs_symlink(ul_upper_idmap(ufs), d_inode(dir), dentry, target);
	ul_step_end(ufs, "symlink", p, NULL, err);
	return err;
}

/**
 * ul_do_link - make a hard link in the upper layer
 * @ufs: the union
 * @old: existing upper object
 * @dir: locked parent of @dentry
 * @dentry: negative dentry in @dir
 *
 * @old may be a file of ul_do_tmpfile(), which gets its first name. A test
 * can make the step fail without calling vfs_link() through the
 * fault-injection point ul_fault_link().
 *
 * Return: 0 or a negative errno from vfs_link().
 */
int ul_do_link(struct ul_fs *ufs, struct dentry *old, struct dentry *dir,
	       struct dentry *dentry)
{
	char *p1 = ul_trace_path(ufs, old);
	char *p2 = p1 ? ul_trace_path(ufs, dentry) : NULL;
	int err;

	err = ul_fault_link();
	if (!err)
		err = vfs_link(old, ul_upper_idmap(ufs), d_inode(dir), dentry,
			       NULL);
	ul_step_end(ufs, "link", p1, p2 ? p2 : "?", err);
	kfree(p2);
	return err;
}

/**
 * ul_do_unlink - remove a non-directory
 * @ufs: the union
 * @dir: locked parent
 * @dentry: positive dentry in @dir
 *
 * Return: 0 or a negative errno from vfs_unlink().
 */
int ul_do_unlink(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry)
{
	char *p = ul_trace_path(ufs, dentry);
	int err;

	err = vfs_unlink(ul_upper_idmap(ufs), d_inode(dir), dentry, NULL);
	ul_step_end(ufs, "unlink", p, NULL, err);
	return err;
}

/**
 * ul_do_rmdir - remove an empty directory
 * @ufs: the union
 * @dir: locked parent
 * @dentry: positive dentry in @dir
 *
 * Return: 0 or a negative errno from vfs_rmdir().
 */
int ul_do_rmdir(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry)
{
	char *p = ul_trace_path(ufs, dentry);
	int err;

	err = vfs_rmdir(ul_upper_idmap(ufs), d_inode(dir), dentry);
	ul_step_end(ufs, "rmdir", p, NULL, err);
	return err;
}

static const char *ul_rename_op(unsigned int flags)
{
	if (flags & RENAME_EXCHANGE)
		return "exchange";
	if (flags & RENAME_WHITEOUT)
		return "rename-whiteout";
	if (flags & RENAME_NOREPLACE)
		return "rename-noreplace";
	return "rename";
}

/**
 * ul_do_rename - rename within or between the upper layer and work dir
 * @ufs: the union
 * @olddir: parent of @olddentry
 * @olddentry: source
 * @newdir: parent of @newdentry
 * @newdentry: target
 * @flags: RENAME_NOREPLACE, RENAME_EXCHANGE or RENAME_WHITEOUT
 *
 * Both parents are locked with lock_rename() by the caller, who has also
 * checked neither end against the trap that lock_rename() returned.
 * A test can make the step fail without calling vfs_rename() through the
 * fault-injection point ul_fault_rename() (it is traced as such).
 *
 * Return: 0 or a negative errno from vfs_rename().
 */
int ul_do_rename(struct ul_fs *ufs, struct dentry *olddir,
		 struct dentry *olddentry, struct dentry *newdir,
		 struct dentry *newdentry, unsigned int flags)
{
	struct renamedata rd = {
		.old_dir	= d_inode(olddir),
		.old_dentry	= olddentry,
		.new_dir	= d_inode(newdir),
		.new_dentry	= newdentry,
		.flags		= flags,
	};
	char *p1 = ul_trace_path(ufs, olddentry);
	char *p2 = p1 ? ul_trace_path(ufs, newdentry) : NULL;
	int err;

	ul_renamedata_idmap(&rd, ul_upper_idmap(ufs));
	err = ul_fault_rename();
	if (!err)
		err = vfs_rename(&rd);
	ul_step_end(ufs, ul_rename_op(flags), p1, p2 ? p2 : "?", err);
	kfree(p2);
	return err;
}

/**
 * ul_do_setxattr - set an extended attribute on an upper or work object
 * @ufs: the union
 * @dentry: the object (not locked; vfs_setxattr() locks it)
 * @name: full attribute name
 * @value: value
 * @size: length of @value
 * @flags: XATTR_CREATE, XATTR_REPLACE or 0
 *
 * Return: 0 or a negative errno from vfs_setxattr().
 */
int ul_do_setxattr(struct ul_fs *ufs, struct dentry *dentry, const char *name,
		   const void *value, size_t size, int flags)
{
	char *p = ul_trace_path(ufs, dentry);
	int err;

	err = vfs_setxattr(ul_upper_idmap(ufs), dentry, name, value, size,
			   flags);
	ul_step_end(ufs, "setxattr", p, name, err);
	return err;
}

/**
 * ul_do_removexattr - remove an extended attribute
 * @ufs: the union
 * @dentry: the object (not locked)
 * @name: full attribute name
 *
 * Return: 0 or a negative errno from vfs_removexattr().
 */
int ul_do_removexattr(struct ul_fs *ufs, struct dentry *dentry,
		      const char *name)
{
	char *p = ul_trace_path(ufs, dentry);
	int err;

	err = vfs_removexattr(ul_upper_idmap(ufs), dentry, name);
	ul_step_end(ufs, "removexattr", p, name, err);
	return err;
}

/**
 * ul_do_set_acl - set or remove a POSIX ACL of an upper or work object
 * @ufs: the union
 * @dentry: the object (not locked; vfs_set_acl() locks it)
 * @name: XATTR_NAME_POSIX_ACL_ACCESS or XATTR_NAME_POSIX_ACL_DEFAULT
 * @acl: the ACL, or NULL to remove it
 *
 * Traced as the xattr change it makes on disk.
 *
 * Return: 0 or a negative errno from vfs_set_acl() or vfs_remove_acl().
 */
int ul_do_set_acl(struct ul_fs *ufs, struct dentry *dentry, const char *name,
		  struct posix_acl *acl)
{
	char *p = ul_trace_path(ufs, dentry);
	int err;

	if (acl)
		err = vfs_set_acl(ul_upper_idmap(ufs), dentry, name, acl);
	else
		err = vfs_remove_acl(ul_upper_idmap(ufs), dentry, name);
	ul_step_end(ufs, acl ? "setxattr" : "removexattr", p, name, err);
	return err;
}

/**
 * ul_do_setattr - change mode, owner, size or times of an upper object
 * @ufs: the union
 * @dentry: the object; its i_rwsem is held by the caller
 * @attr: the change; ATTR_FILE must not be set
 *
 * Return: 0 or a negative errno from notify_change().
 */
int ul_do_setattr(struct ul_fs *ufs, struct dentry *dentry,
		  struct iattr *attr)
{
	char *p = ul_trace_path(ufs, dentry);
	int err;

	if (WARN_ON(attr->ia_valid & ATTR_FILE))
		attr->ia_valid &= ~ATTR_FILE;
	err = notify_change(ul_upper_idmap(ufs), dentry, attr, NULL);
	ul_step_end(ufs, "setattr", p, NULL, err);
	return err;
}

/**
 * ul_do_fileattr_set - set the inode flags of an upper or work object
 * @ufs: the union
 * @dentry: the object (not locked; vfs_fileattr_set() locks it)
 * @fa: the flags; append-only and immutable never reach the upper inode
 *	(the union keeps them in trusted.overlay.protattr)
 *
 * Return: 0 or a negative errno from vfs_fileattr_set().
 */
int ul_do_fileattr_set(struct ul_fs *ufs, struct dentry *dentry,
		       struct fileattr *fa)
{
	char *p;
	int err;

	if (WARN_ON(fa->flags & (FS_APPEND_FL | FS_IMMUTABLE_FL)))
		return -EIO;
	p = ul_trace_path(ufs, dentry);
	err = vfs_fileattr_set(ul_upper_idmap(ufs), dentry, fa);
	ul_step_end(ufs, "fileattr", p, NULL, err);
	return err;
}

#define UL_COPY_CHUNK	SZ_1M
#define UL_COPY_BUF	SZ_64K

/*
 * One chunk copied with reads and writes through a kernel buffer: where
 * splice stops at any pending signal, these stop at a fatal one only.
 */
static long ul_copy_chunk_rw(struct file *in, loff_t *ipos, struct file *out,
			     loff_t *opos, size_t len, void **buf)
{
	ssize_t got, put;

	if (!*buf) {
		*buf = kvmalloc(UL_COPY_BUF, GFP_KERNEL);
		if (!*buf)
			return -ENOMEM;
	}
	got = kernel_read(in, *buf, min_t(size_t, len, UL_COPY_BUF), ipos);
	if (got <= 0)
		return got;
	/* the caller holds the upper's freeze protection (ul_want_write()) */
	put = __kernel_write(out, *buf, got, opos);
	return put == got ? put : put < 0 ? put : -EIO;
}

/**
 * ul_do_copy_data - copy the data of a lower file into an upper one
 * @ufs: the union
 * @from: real path of the source file
 * @to: the destination, not locked: a regular file in the work dir, or
 *	the upper copy of a metacopy file (whose data is not read while it
 *	is one)
 * @tofile: @to open for writing (a copy-up's O_TMPFILE file), or NULL:
 *	then @to is opened here
 * @len: number of bytes to copy
 *
 * The data is written and synced before the caller renames @to into place
 * or removes its metacopy mark, so the object never shows up in the upper
 * layer half-copied (a volatile union does not sync: after a crash its
 * work dir is refused anyway). The writes leave @to's times alone. Holes stay
 * holes where the source reports them (SEEK_DATA, SEEK_HOLE): only data
 * is copied, and a hole at the end is left to the caller, who sets the
 * size. Only a fatal signal stops the copy.
 *
 * Return: 0 or a negative errno.
 */
int ul_do_copy_data(struct ul_fs *ufs, const struct path *from,
		    struct dentry *to, struct file *tofile, loff_t len)
{
	struct path topath = { .mnt = ufs->upper_mnt, .dentry = to };
	char *p = ul_trace_path(ufs, to);
	struct file *in, *out;
	loff_t ipos = 0, opos = 0, data, hole;
	void *buf = NULL;
	long bytes;
	int err;

	in = dentry_open(from, O_RDONLY | O_LARGEFILE, current_cred());
	err = PTR_ERR(in);
	if (IS_ERR(in))
		goto out_trace;
	out = tofile ?: dentry_open(&topath, O_WRONLY | O_LARGEFILE,
				    current_cred());
	err = PTR_ERR(out);
	if (IS_ERR(out))
		goto out_fput_in;
	/* a copy is not a change: mtime and ctime stay */
	out->f_mode |= FMODE_NOCMTIME;
	err = 0;
	while (ipos < len) {
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		/* the next data, and the hole after it */
		data = vfs_llseek(in, ipos, SEEK_DATA);
		if (data == -ENXIO)
			break;		/* a hole to the end */
		if (data < 0)
			data = ipos;	/* no SEEK_DATA: all of it is data */
		hole = vfs_llseek(in, data, SEEK_HOLE);
		if (hole <= data || hole > len)
			hole = len;
		if (data >= len)
			break;
		ipos = data;
		opos = data;
		bytes = ul_splice_direct(in, &ipos, out, &opos,
					 min_t(loff_t, hole - data, UL_COPY_CHUNK));
		/* a signal for the caller is no reason to fail the copy */
		if ((bytes == -EINTR || bytes == -ERESTARTSYS) &&
		    !fatal_signal_pending(current))
			bytes = ul_copy_chunk_rw(in, &ipos, out, &opos,
						 hole - data, &buf);
		if (bytes <= 0) {
			err = bytes;	/* 0: the source got shorter */
			break;
		}
	}
	kvfree(buf);
	/* a volatile union's copy may be lost in a crash, as any write */
	if (!err && !ufs->config.no_sync)
		err = vfs_fsync(out, 0);
	if (!tofile)
		fput(out);
out_fput_in:
	fput(in);
out_trace:
	ul_step_end(ufs, "copydata", p, NULL, err);
	return err;
}

/**
 * ul_do_tmpfile - open a new regular file without a name in the work dir
 * @ufs: the union
 * @mode: S_IFREG and the permission bits
 *
 * The file (O_TMPFILE) gets its name from ul_do_link(); until then it is
 * an orphan, which the upper filesystem frees when the last reference
 * goes, or after a crash at its next mount (ext4's orphan list) or in
 * e2fsck (ext2).
 *
 * Return: the file, open for writing, or an ERR_PTR (-EOPNOTSUPP: the
 * upper filesystem has no O_TMPFILE).
 */
struct file *ul_do_tmpfile(struct ul_fs *ufs, umode_t mode)
{
	struct path wpath = { .mnt = ufs->upper_mnt, .dentry = ufs->workdir };
	char *p = ul_trace_path(ufs, ufs->workdir);
	struct file *file;

	file = ul_tmpfile_open(ul_upper_idmap(ufs), &wpath, mode,
			       O_WRONLY | O_LARGEFILE, current_cred());
	ul_step_end(ufs, "tmpfile", p, NULL, PTR_ERR_OR_ZERO(file));
	return file;
}

/**
 * ul_lookup_temp - a fresh negative dentry #<hex> in the work dir
 * @ufs: the union
 *
 * The caller holds the work dir's i_rwsem.
 *
 * Return: the dentry or an ERR_PTR.
 */
struct dentry *ul_lookup_temp(struct ul_fs *ufs)
{
	struct dentry *temp;
	char name[24];

	snprintf(name, sizeof(name), "#%lx",
		 atomic_long_inc_return(&ufs->tmp_counter));
	temp = lookup_one(ul_upper_idmap(ufs), name, ufs->workdir,
			  strlen(name));
	if (!IS_ERR(temp) && d_really_is_positive(temp)) {
		pr_err("unionlite: work/%s exists already\n", name);
		dput(temp);
		temp = ERR_PTR(-EIO);
	}
	return temp;
}

/**
 * ul_make_object - make a new object, or a hard link, at a negative name
 * @ufs: the union
 * @dir: the locked parent
 * @dentry: the negative name in @dir
 * @attr: what to make
 *
 * Return: 0 or a negative errno. vfs_mkdir() may leave @dentry unhashed:
 * ul_made() gives the made object.
 */
int ul_make_object(struct ul_fs *ufs, struct dentry *dir,
		   struct dentry *dentry, const struct ul_cattr *attr)
{
	if (attr->hardlink)
		return ul_do_link(ufs, attr->hardlink, dir, dentry);
	switch (attr->mode & S_IFMT) {
	case S_IFREG:
		return ul_do_create(ufs, dir, dentry, attr->mode);
	case S_IFDIR:
		return ul_do_mkdir(ufs, dir, dentry, attr->mode);
	case S_IFLNK:
		return ul_do_symlink(ufs, dir, dentry, attr->link);
	default:
		return ul_do_mknod(ufs, dir, dentry, attr->mode, attr->rdev);
	}
}

/**
 * ul_made - the object just made at a name
 * @ufs: the union
 * @dir: the locked parent
 * @dentry: the name given to ul_make_object(); the reference is taken
 *
 * Return: @dentry, or the name looked up again when @dentry was left
 * unhashed or negative; an ERR_PTR (-EIO when there is no object).
 */
struct dentry *ul_made(struct ul_fs *ufs, struct dentry *dir,
		       struct dentry *dentry)
{
	struct dentry *again;

	if (!d_unhashed(dentry) && d_really_is_positive(dentry))
		return dentry;
	again = lookup_one(ul_upper_idmap(ufs), dentry->d_name.name, dir,
			   dentry->d_name.len);
	dput(dentry);
	if (!IS_ERR(again) && d_really_is_negative(again)) {
		dput(again);
		again = ERR_PTR(-EIO);
	}
	return again;
}

/**
 * ul_create_temp - create a new object #<hex> in the work dir
 * @ufs: the union
 * @attr: what to create
 *
 * Takes and drops the work dir's i_rwsem.
 *
 * Return: the positive dentry of the new object or an ERR_PTR.
 */
struct dentry *ul_create_temp(struct ul_fs *ufs, const struct ul_cattr *attr)
{
	struct dentry *wdir = ufs->workdir;
	struct dentry *temp;
	int err;

	inode_lock_nested(d_inode(wdir), I_MUTEX_PARENT);
	temp = ul_lookup_temp(ufs);
	if (!IS_ERR(temp)) {
		err = ul_make_object(ufs, wdir, temp, attr);
		if (err) {
			dput(temp);
			temp = ERR_PTR(err);
		} else {
			temp = ul_made(ufs, wdir, temp);
		}
	}
	inode_unlock(d_inode(wdir));
	return temp;
}

/**
 * ul_cleanup - remove an object, logging a failure (the undo primitive)
 * @ufs: the union
 * @dir: locked parent
 * @dentry: the object
 */
void ul_cleanup(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry)
{
	int err;

	dget(dentry);
	if (d_is_dir(dentry))
		err = ul_do_rmdir(ufs, dir, dentry);
	else
		err = ul_do_unlink(ufs, dir, dentry);
	if (err)
		pr_err("unionlite: cleanup of %pd2 failed (%d)\n", dentry, err);
	dput(dentry);
}

/**
 * ul_cleanup_temp - remove a temporary object from the work dir and put it
 * @ufs: the union
 * @temp: a dentry returned by ul_create_temp(); the reference is dropped
 */
void ul_cleanup_temp(struct ul_fs *ufs, struct dentry *temp)
{
	struct dentry *wdir = ufs->workdir;

	inode_lock_nested(d_inode(wdir), I_MUTEX_PARENT);
	if (temp->d_parent == wdir && !d_unhashed(temp) &&
	    d_really_is_positive(temp))
		ul_cleanup(ufs, wdir, temp);
	inode_unlock(d_inode(wdir));
	dput(temp);
}

/**
 * ul_lock_work_upper - lock the work dir and an upper directory for rename
 * @ufs: the union
 * @upperdir: the upper directory
 *
 * Return: the trap of lock_rename(); an object equal to it must not be
 * renamed. It is NULL unless the layers overlap, which mount refuses. An
 * ERR_PTR (since 6.7: the two are not connected) leaves both unlocked.
 */
struct dentry *ul_lock_work_upper(struct ul_fs *ufs, struct dentry *upperdir)
{
	return lock_rename(ufs->workdir, upperdir);
}

/**
 * ul_unlock_work_upper - undo ul_lock_work_upper()
 * @ufs: the union
 * @upperdir: the upper directory
 */
void ul_unlock_work_upper(struct ul_fs *ufs, struct dentry *upperdir)
{
	unlock_rename(ufs->workdir, upperdir);
}

/* Names read from a directory, for the mount-time cleanup. */
struct ul_name {
	struct list_head next;
	int len;
	char name[];
};

struct ul_name_ctx {
	struct dir_context ctx;
	struct list_head names;
	int err;
};

static bool ul_collect_name(struct dir_context *ctx, const char *name,
			    int len, loff_t pos, u64 ino, unsigned int type)
{
	struct ul_name_ctx *nc = container_of(ctx, struct ul_name_ctx, ctx);
	struct ul_name *n;

	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	n = kmalloc(struct_size(n, name, len + 1), GFP_KERNEL);
	if (!n) {
		nc->err = -ENOMEM;
		return false;
	}
	n->len = len;
	memcpy(n->name, name, len);
	n->name[len] = '\0';
	list_add_tail(&n->next, &nc->names);
	return true;
}

/* Read the names in @dir (not locked) into @nc. */
static int ul_read_names(struct ul_fs *ufs, struct dentry *dir,
			 struct ul_name_ctx *nc)
{
	struct path path = { .mnt = ufs->upper_mnt, .dentry = dir };
	struct file *file;
	int err;

	file = dentry_open(&path, O_RDONLY | O_DIRECTORY, current_cred());
	if (IS_ERR(file))
		return PTR_ERR(file);
	do {
		loff_t pos = nc->ctx.pos;

		err = iterate_dir(file, &nc->ctx);
		if (!err && nc->err)
			err = nc->err;
		if (!err && pos == nc->ctx.pos)
			break;
	} while (!err);
	fput(file);
	return err;
}

static int ul_name_cmp(void *priv, const struct list_head *a,
		       const struct list_head *b)
{
	const struct ul_name *na = list_entry(a, struct ul_name, next);
	const struct ul_name *nb = list_entry(b, struct ul_name, next);

	return strcmp(na->name, nb->name);
}

static void ul_free_names(struct ul_name_ctx *nc)
{
	struct ul_name *n, *tmp;

	list_for_each_entry_safe(n, tmp, &nc->names, next)
		kfree(n);
}

/**
 * ul_remove_whiteouts - remove the whiteouts a directory holds
 * @ufs: the union
 * @dir: a directory of the upper layer or the work dir; the caller holds
 *	the i_rwsem of its parent, not of @dir
 *
 * Used on the old directory a recipe has just moved into the work dir
 * (and, in naive mode, in place in the upper layer). Every entry must be a
 * whiteout, or under aufs_whiteouts a mark (".wh." name; a directory one
 * empty); the first one that is not stops the removal. The names are
 * removed in sorted order, so the trace does not depend on the upper
 * filesystem's directory hash.
 *
 * Return: 0, -ENOTEMPTY when @dir holds something else, or another
 * negative errno.
 */
int ul_remove_whiteouts(struct ul_fs *ufs, struct dentry *dir)
{
	struct ul_name_ctx nc = {
		.ctx.actor = ul_collect_name,
		.names = LIST_HEAD_INIT(nc.names),
	};
	struct dentry *child;
	struct ul_name *n;
	int err;

	err = ul_read_names(ufs, dir, &nc);
	if (err)
		goto out_free;
	list_sort(NULL, &nc.names, ul_name_cmp);
	inode_lock_nested(d_inode(dir), I_MUTEX_CHILD);
	list_for_each_entry(n, &nc.names, next) {
		child = lookup_one(ul_upper_idmap(ufs), n->name, dir, n->len);
		if (IS_ERR(child)) {
			err = PTR_ERR(child);
			break;
		}
		if (d_really_is_positive(child)) {
			if (ul_is_whiteout(child))
				err = ul_do_unlink(ufs, dir, child);
			else if (!ul_aufs_name(ufs, n->name, n->len))
				err = -ENOTEMPTY;
			else if (d_is_dir(child))	/* a mark, when empty */
				err = ul_do_rmdir(ufs, dir, child);
			else
				err = ul_do_unlink(ufs, dir, child);
		}
		dput(child);
		if (err)
			break;
	}
	inode_unlock(d_inode(dir));
out_free:
	ul_free_names(&nc);
	return err;
}

#define UL_CLEAN_MAX_DEPTH	8

/* Remove everything in @dir (a directory under the work dir). */
static int ul_clean_dir(struct ul_fs *ufs, struct dentry *dir, int depth,
			unsigned long *count)
{
	struct ul_name_ctx nc = {
		.ctx.actor = ul_collect_name,
		.names = LIST_HEAD_INIT(nc.names),
	};
	struct path path = { .mnt = ufs->upper_mnt, .dentry = dir };
	struct ul_name *n, *tmp;
	struct dentry *child;
	struct file *file;
	int err;

	if (depth > UL_CLEAN_MAX_DEPTH) {
		pr_err("unionlite: work dir holds a tree deeper than %d\n",
		       UL_CLEAN_MAX_DEPTH);
		return -ELOOP;
	}
	file = dentry_open(&path, O_RDONLY | O_DIRECTORY, current_cred());
	if (IS_ERR(file))
		return PTR_ERR(file);
	do {
		loff_t pos = nc.ctx.pos;

		err = iterate_dir(file, &nc.ctx);
		if (!err && nc.err)
			err = nc.err;
		if (!err && pos == nc.ctx.pos)
			break;
	} while (!err);
	fput(file);

	/*
	 * work/incompat/FEATURE: a mount with a feature unionlite lacks,
	 * overlayfs's "volatile" (no sync of the upper), left it; its
	 * upper may have lost writes. Refused as overlayfs refuses it.
	 */
	if (!err && depth == 1 && !list_empty(&nc.names) &&
	    !strcmp(dir->d_name.name, UL_INCOMPAT_NAME)) {
		n = list_first_entry(&nc.names, struct ul_name, next);
		pr_err("unionlite: overlay with incompat feature '%.*s' cannot be mounted\n",
		       n->len, n->name);
		err = -EINVAL;
	}
	list_for_each_entry(n, &nc.names, next) {
		if (err)
			break;
		inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
		child = lookup_one(ul_upper_idmap(ufs), n->name, dir, n->len);
		inode_unlock(d_inode(dir));
		if (IS_ERR(child)) {
			err = PTR_ERR(child);
			break;
		}
		if (d_is_dir(child))
			err = ul_clean_dir(ufs, child, depth + 1, count);
		if (!err) {
			inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
			if (child->d_parent == dir && d_really_is_positive(child)) {
				if (d_is_dir(child))
					err = ul_do_rmdir(ufs, dir, child);
				else
					err = ul_do_unlink(ufs, dir, child);
			}
			inode_unlock(d_inode(dir));
			if (!err)
				(*count)++;
		}
		dput(child);
	}
	list_for_each_entry_safe(n, tmp, &nc.names, next)
		kfree(n);
	return err;
}

/**
 * ul_mark_volatile - leave work/incompat/volatile/dirty in the work dir
 * @ufs: the union, its work dir made
 *
 * A volatile union does not sync its upper layer, so after a crash the
 * upper may lack writes it once showed. The mark, where overlayfs puts
 * its own, makes every later mount of the work dir fail (on both
 * unions) until the user removes work/incompat/volatile. Called at
 * mount, with the mounter's credentials and write access to the upper.
 *
 * Return: 0 or a negative errno.
 */
int ul_mark_volatile(struct ul_fs *ufs)
{
	static const char * const names[] = {
		UL_INCOMPAT_NAME, "volatile", "dirty"
	};
	struct dentry *dir = dget(ufs->workdir), *child;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
		child = lookup_one(ul_upper_idmap(ufs), names[i], dir,
				   strlen(names[i]));
		if (!IS_ERR(child) && d_really_is_negative(child)) {
			if (i + 1 < ARRAY_SIZE(names))
				err = ul_do_mkdir(ufs, dir, child, 0);
			else
				err = ul_do_create(ufs, dir, child, 0);
			if (err) {
				dput(child);
				child = ERR_PTR(err);
			} else {
				child = ul_made(ufs, dir, child);
			}
		}
		inode_unlock(d_inode(dir));
		dput(dir);
		if (IS_ERR(child))
			return PTR_ERR(child);
		dir = child;
	}
	dput(dir);
	return 0;
}

/**
 * ul_clean_workdir - remove what a crash left in the work dir
 * @ufs: the union
 * @work: the work dir of the last mount, not yet the union's
 * @count: incremented once per object removed
 *
 * Called at mount, with the mounter's credentials and write access to the
 * upper mount. Orphan directories may hold whiteouts and subdirectories,
 * so the removal recurses (at most UL_CLEAN_MAX_DEPTH levels). A
 * non-empty work/incompat stops it.
 *
 * Return: 0, -EINVAL for work/incompat, or another negative errno.
 */
int ul_clean_workdir(struct ul_fs *ufs, struct dentry *work,
		     unsigned long *count)
{
	return ul_clean_dir(ufs, work, 0, count);
}
