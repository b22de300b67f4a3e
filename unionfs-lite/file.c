// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: regular files. An open union file holds an open real file of
 * the topmost object at open time; reads, writes, mmap, seeks and syncs
 * go to it: the object holding the data, which for a metacopy file is
 * the lower one (ul_real_data_path()). Opening for write or with O_TRUNC
 * copies a lower-only file up first, and the data of a metacopy file. A
 * file opened read-only on lower data follows a later copy-up of it
 * (made through another open, a chmod, a link...): its next read, mmap,
 * seek or sync opens the upper copy once and uses that from then on, so
 * it sees what was written there.
 */

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include "ops.h"

/**
 * struct ul_file - an open union file (file->private_data)
 * @real: the real file opened with the union file: the upper object, or
 *	the lower one when the object's data had not been copied up
 * @upper: a lower @real's successor, opened on the upper copy the first
 *	time it is needed after a copy-up; set once (cmpxchg), then used for
 *	everything
 */
struct ul_file {
	struct file *real;
	struct file *upper;
};

static const struct cred *ul_file_creds(struct file *file)
{
	return ul_override_creds(file_inode(file)->i_sb);
}

static int ul_open(struct inode *inode, struct file *file)
{
	struct dentry *dentry = file->f_path.dentry;
	struct super_block *sb = inode->i_sb;
	const struct cred *old_cred;
	struct file *realfile;
	struct path realpath;
	struct ul_file *uf;
	int err;

	if ((file->f_flags & O_ACCMODE) != O_RDONLY ||
	    (file->f_flags & O_TRUNC)) {
		err = ul_want_write(sb);
		if (err)
			return err;
		/* O_TRUNC: the VFS empties the file right after this */
		if (file->f_flags & O_TRUNC)
			err = ul_copy_up_nodata(dentry);
		else
			err = ul_copy_up_data(dentry);
		ul_drop_write(sb);
		if (err)
			return err;
	}

	uf = kzalloc(sizeof(*uf), GFP_KERNEL);
	if (!uf)
		return -ENOMEM;
	ul_real_data_path(dentry, &realpath);
	old_cred = ul_override_creds(sb);
	/* O_TRUNC: the VFS truncates through ->setattr after the open */
	realfile = ul_open_real(file, file->f_flags & ~(O_CREAT | O_EXCL |
							O_NOCTTY | O_TRUNC),
				&realpath, current_cred());
	revert_creds(old_cred);
	if (IS_ERR(realfile)) {
		kfree(uf);
		return PTR_ERR(realfile);
	}
	/* O_DIRECT works through the union where it works on the real file */
	if (realfile->f_mode & FMODE_CAN_ODIRECT)
		file->f_mode |= FMODE_CAN_ODIRECT;
	uf->real = realfile;
	file->private_data = uf;
	return 0;
}

static int ul_release(struct inode *inode, struct file *file)
{
	struct ul_file *uf = file->private_data;

	if (uf->upper)
		fput(uf->upper);
	fput(uf->real);
	kfree(uf);
	return 0;
}

/*
 * The upper file that takes the place of a lower uf->real once the object
 * has been copied up; uf->real while it has not. Opened with the same
 * flags (read-only: a file opened for write was copied up at open), as
 * the mounter, the way ul_open() opens: with O_DIRECT, an upper
 * filesystem that cannot do it refuses (EINVAL), as it refuses an open.
 */
static struct file *ul_file_current(struct file *file)
{
	struct ul_file *uf = file->private_data;
	struct ul_fs *ufs = UL_FS(file_inode(file)->i_sb);
	struct file *upper, *old;
	const struct cred *old_cred;
	struct path upath;

	if (likely(uf->real->f_path.mnt == ufs->upper_mnt))
		return uf->real;
	/* pairs with the cmpxchg() below */
	upper = smp_load_acquire(&uf->upper);
	if (upper)
		return upper;
	upath.dentry = ul_upper(UL_I(file_inode(file)));
	if (!upath.dentry || ul_data_is_lower(UL_I(file_inode(file))))
		return uf->real;
	upath.mnt = ufs->upper_mnt;
	old_cred = ul_file_creds(file);
	upper = ul_open_real(file, uf->real->f_flags, &upath, current_cred());
	revert_creds(old_cred);
	if (IS_ERR(upper))
		return upper;
	old = cmpxchg(&uf->upper, NULL, upper);
	if (old) {
		/* another call of this file opened it first */
		fput(upper);
		return old;
	}
	return upper;
}

/*
 * The flags fcntl(F_SETFL) may change on the union file after open, passed
 * on to the real file before each use (O_APPEND above all: without it a
 * write after F_SETFL O_APPEND would overwrite; O_DIRECT: cleared on the
 * union file, it must not stay on the real one and keep refusing
 * unaligned writes). O_DIRECT set on a real file that cannot do it (the
 * upper copy a descriptor follows, on another filesystem) fails the use
 * with EINVAL, as on overlayfs.
 */
#define UL_SETFL_FLAGS	(O_APPEND | O_NOATIME | O_NONBLOCK | O_DIRECT)

static struct file *ul_real_file(struct file *file)
{
	struct file *realfile = ul_file_current(file);
	unsigned int flags = READ_ONCE(file->f_flags) & UL_SETFL_FLAGS;

	if (IS_ERR(realfile))
		return realfile;
	if ((flags & O_DIRECT) && !(realfile->f_mode & FMODE_CAN_ODIRECT))
		return ERR_PTR(-EINVAL);
	if ((READ_ONCE(realfile->f_flags) & UL_SETFL_FLAGS) != flags) {
		spin_lock(&realfile->f_lock);
		realfile->f_flags = (realfile->f_flags & ~UL_SETFL_FLAGS) |
				    flags;
		/* what a kiocb of the real file starts with, as setfl() does */
		realfile->f_iocb_flags = iocb_flags(realfile);
		spin_unlock(&realfile->f_lock);
	}
	return realfile;
}

static rwf_t ul_iocb_to_rwf(int ifl)
{
	rwf_t flags = 0;

	if (ifl & IOCB_NOWAIT)
		flags |= RWF_NOWAIT;
	if (ifl & IOCB_HIPRI)
		flags |= RWF_HIPRI;
	if (ifl & IOCB_DSYNC)
		flags |= RWF_DSYNC;
	if (ifl & IOCB_SYNC)
		flags |= RWF_SYNC;
	return flags;
}

static ssize_t ul_read_iter(struct kiocb *iocb, struct iov_iter *iter)
{
	struct file *file = iocb->ki_filp;
	const struct cred *old_cred;
	struct file *realfile;
	ssize_t ret;

	if (!iov_iter_count(iter))
		return 0;
	realfile = ul_real_file(file);
	if (IS_ERR(realfile))
		return PTR_ERR(realfile);
	old_cred = ul_file_creds(file);
	ret = vfs_iter_read(realfile, iter, &iocb->ki_pos,
			    ul_iocb_to_rwf(iocb->ki_flags));
	revert_creds(old_cred);
	return ret;
}

static ssize_t ul_write_iter(struct kiocb *iocb, struct iov_iter *iter)
{
	struct file *file = iocb->ki_filp;
	struct file *realfile = ul_real_file(file);
	struct inode *inode = file_inode(file);
	const struct cred *old_cred;
	ssize_t ret;
	int ifl;

	if (IS_ERR(realfile))
		return PTR_ERR(realfile);
	if (!iov_iter_count(iter))
		return 0;
	inode_lock(inode);
	/*
	 * With the caller's credentials, on the real object's current mode:
	 * the mounter's would keep the set-id bits.
	 */
	ul_copyattr(inode);
	ret = file_remove_privs(file);
	if (ret)
		goto out_unlock;
	ifl = iocb->ki_flags;
	/* a volatile union passes no sync on (overlayfs drops the same) */
	if (UL_FS(inode->i_sb)->config.no_sync)
		ifl &= ~(IOCB_DSYNC | IOCB_SYNC);
	old_cred = ul_override_creds(inode->i_sb);
	ret = ul_iter_write(realfile, iter, &iocb->ki_pos, ul_iocb_to_rwf(ifl));
	revert_creds(old_cred);
	ul_copyattr(inode);
out_unlock:
	inode_unlock(inode);
	return ret;
}

static loff_t ul_llseek(struct file *file, loff_t offset, int whence)
{
	struct file *realfile = ul_file_current(file);
	struct inode *inode = file_inode(file);
	const struct cred *old_cred;
	loff_t ret;

	if (IS_ERR(realfile))
		return PTR_ERR(realfile);
	inode_lock(inode);
	realfile->f_pos = file->f_pos;
	old_cred = ul_file_creds(file);
	ret = vfs_llseek(realfile, offset, whence);
	revert_creds(old_cred);
	file->f_pos = realfile->f_pos;
	inode_unlock(inode);
	return ret;
}

static int ul_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct file *realfile = ul_file_current(file);
	const struct cred *old_cred;
	int ret;

	if (IS_ERR(realfile))
		return PTR_ERR(realfile);
	if (!realfile->f_op->mmap)
		return -ENODEV;
	if (WARN_ON(file != vma->vm_file))
		return -EIO;
	/* the mapping is the real file's: its page cache, its writeback */
	vma_set_file(vma, realfile);
	old_cred = ul_file_creds(file);
	ret = call_mmap(vma->vm_file, vma);
	revert_creds(old_cred);
	return ret;
}

/*
 * fsync() of a file whose data is lower and whose metadata is in its
 * upper copy (a metacopy file): the upper copy's metadata too, as the
 * mounter.
 */
static int ul_fsync_meta(struct file *file)
{
	struct ul_fs *ufs = UL_FS(file_inode(file)->i_sb);
	struct path upath = { .mnt = ufs->upper_mnt };
	struct file *meta;
	int ret;

	upath.dentry = ul_upper(UL_I(file_inode(file)));
	if (!upath.dentry)
		return 0;
	meta = dentry_open(&upath, O_RDONLY | O_NOATIME, current_cred());
	if (IS_ERR(meta))
		return PTR_ERR(meta);
	ret = vfs_fsync(meta, 0);
	fput(meta);
	return ret;
}

static int ul_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct ul_fs *ufs = UL_FS(file_inode(file)->i_sb);
	struct file *realfile;
	const struct cred *old_cred;
	int ret;

	ret = ul_sync_status(UL_FS(file_inode(file)->i_sb));
	if (ret <= 0)
		return ret;
	realfile = ul_file_current(file);
	if (IS_ERR(realfile))
		return PTR_ERR(realfile);
	old_cred = ul_file_creds(file);
	ret = vfs_fsync_range(realfile, start, end, datasync);
	if (!ret && !datasync && realfile->f_path.mnt != ufs->upper_mnt)
		ret = ul_fsync_meta(file);
	revert_creds(old_cred);
	return ret;
}

static long ul_fallocate(struct file *file, int mode, loff_t offset,
			 loff_t len)
{
	struct file *realfile = ul_real_file(file);
	struct inode *inode = file_inode(file);
	const struct cred *old_cred;
	long ret;

	if (IS_ERR(realfile))
		return PTR_ERR(realfile);
	inode_lock(inode);
	/* as for a write: the caller's right to keep the set-id bits */
	ul_copyattr(inode);
	ret = file_remove_privs(file);
	if (ret)
		goto out_unlock;
	old_cred = ul_override_creds(inode->i_sb);
	ret = vfs_fallocate(realfile, mode, offset, len);
	revert_creds(old_cred);
	ul_copyattr(inode);
out_unlock:
	inode_unlock(inode);
	return ret;
}

const struct file_operations ul_file_fops = {
	.open		= ul_open,
	.release	= ul_release,
	.llseek		= ul_llseek,
	.read_iter	= ul_read_iter,
	.write_iter	= ul_write_iter,
	.mmap		= ul_mmap,
	.fsync		= ul_fsync,
	.fallocate	= ul_fallocate,
	.splice_read	= ul_splice_read,
	.splice_write	= iter_file_splice_write,
};
