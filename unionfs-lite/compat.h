/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unionlite: what differs between the Linux trees the module builds on
 * (6.1 and 6.12), in one place. The rest of the module is written once,
 * against the names defined here; each is the kernel's own where the
 * kernel has one. Only 6.1 and 6.12 are built and tested: a version test
 * names the release that made the change where a comment says so, and
 * otherwise only tells the two trees apart.
 */
#ifndef _UNIONLITE_COMPAT_H
#define _UNIONLITE_COMPAT_H

#include <linux/exportfs.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/posix_acl.h>
#include <linux/posix_acl_xattr.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/version.h>
#include <linux/xattr.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#include <linux/backing-file.h>
#endif

/*
 * struct ul_idmap: the idmapping of a mount, which every inode operation
 * and vfs_*() helper takes. Since 6.3 a struct mnt_idmap; before, the
 * mount's user namespace. ul_nop_idmap is the identity mapping.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define ul_idmap mnt_idmap
#define ul_nop_idmap (&nop_mnt_idmap)
static inline struct mnt_idmap *ul_mnt_idmap(const struct vfsmount *mnt)
{
	return mnt_idmap(mnt);
}
#else
#define ul_idmap user_namespace
#define ul_nop_idmap (&init_user_ns)
static inline struct user_namespace *ul_mnt_idmap(const struct vfsmount *mnt)
{
	return mnt_user_ns(mnt);
}
#endif

/* vfs_rename()'s arguments: both ends on one mount */
static inline void ul_renamedata_idmap(struct renamedata *rd,
				       struct ul_idmap *idmap)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	rd->old_mnt_idmap = idmap;
	rd->new_mnt_idmap = idmap;
#else
	rd->old_mnt_userns = idmap;
	rd->new_mnt_userns = idmap;
#endif
}

/*
 * Access and modification times: behind accessors since 6.7 (the change
 * time's accessors are in both trees).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
static inline struct timespec64 inode_get_atime(const struct inode *inode)
{
	return inode->i_atime;
}

static inline struct timespec64 inode_get_mtime(const struct inode *inode)
{
	return inode->i_mtime;
}

static inline void inode_set_atime_to_ts(struct inode *inode,
					 struct timespec64 ts)
{
	inode->i_atime = ts;
}

static inline void inode_set_mtime_to_ts(struct inode *inode,
					 struct timespec64 ts)
{
	inode->i_mtime = ts;
}
#endif

/*
 * The real object's attributes for ->getattr(): a caller that asked for
 * no security check (vfs_getattr_nosec() sets AT_GETATTR_NOSEC, which
 * vfs_getattr() refuses with a warning) gets none on the real object
 * either.
 */
static inline int ul_vfs_getattr(const struct path *path, struct kstat *stat,
				 u32 request_mask, unsigned int flags)
{
#ifdef AT_GETATTR_NOSEC
	if (flags & AT_GETATTR_NOSEC)
		return vfs_getattr_nosec(path, stat, request_mask, flags);
#endif
	return vfs_getattr(path, stat, request_mask, flags);
}

/*
 * ->splice_read() of the union's files: through their ->read_iter(),
 * which reads the real file. generic_file_splice_read() did that until
 * 6.5; copy_splice_read() does it since.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define ul_splice_read copy_splice_read
#else
#define ul_splice_read generic_file_splice_read
#endif

/* An open file without a name (O_TMPFILE): the call was renamed in 6.7. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
#define ul_tmpfile_open kernel_tmpfile_open
#else
#define ul_tmpfile_open vfs_tmpfile_open
#endif

#define UL_LINUX_6_12 (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))

/*
 * Whether /proc/mounts shows redirect_dir=follow, as overlayfs of the
 * same tree does: 6.1 shows every value but "off"; 6.12 takes "off" as
 * "follow" (what both mean in unionlite) and shows neither.
 */
#define UL_SHOW_REDIRECT_FOLLOW (!UL_LINUX_6_12)

/*
 * Whether /proc/mounts shows the redirect_dir=on that metacopy=on turns
 * on in a union with an upper layer: 6.12's overlayfs changes its mode
 * and shows it, 6.1's turns it on behind the mode it shows.
 */
#define UL_SHOW_METACOPY_REDIRECT UL_LINUX_6_12

/*
 * The real file behind @user_file, an open union file. 6.12 opens a
 * backing file (fs/backing-file.c, CONFIG_FS_STACK, which overlayfs
 * selects): its f_path is the real one, while what names the file to
 * users, as /proc/PID/maps does for a mapping, shows the union's. 6.1
 * has only open_with_fake_path(), whose file has the union's f_path for
 * the real inode, which the layer's own calls then see: a plain open.
 */
static inline struct file *ul_open_real(struct file *user_file, int flags,
					const struct path *real,
					const struct cred *cred)
{
#if UL_LINUX_6_12
	return backing_file_open(user_file, flags, real, cred);
#else
	return dentry_open(real, flags, cred);
#endif
}

/* A lower object from its file handle: 6.12 takes decode flags (none). */
static inline struct dentry *ul_decode_fh(struct vfsmount *mnt,
					  struct fid *fid, int len, int type)
{
#if UL_LINUX_6_12
	return exportfs_decode_fh_raw(mnt, fid, len, type, 0, NULL, NULL);
#else
	return exportfs_decode_fh_raw(mnt, fid, len, type, NULL, NULL);
#endif
}

/*
 * The LSMs' say on an xattr at copy-up, as 6.1 gives it: 1 to drop it,
 * 0 to copy it, -EOPNOTSUPP when no LSM knows it, or another error to
 * fail the copy-up. 6.12 passes the source too, and -ECANCELED to drop.
 */
static inline int ul_security_copy_up_xattr(struct dentry *src,
					    const char *name)
{
#if UL_LINUX_6_12
	int err = security_inode_copy_up_xattr(src, name);

	return err == -ECANCELED ? 1 : err;
#else
	return security_inode_copy_up_xattr(name);
#endif
}

#if !UL_LINUX_6_12
static inline ino_t d_parent_ino(struct dentry *dentry)
{
	return parent_ino(dentry);
}
#endif

/*
 * A write to the real file under its filesystem's freeze protection:
 * 6.12's vfs_iter_write() takes it itself, 6.1's leaves it to the caller.
 */
static inline ssize_t ul_iter_write(struct file *file, struct iov_iter *iter,
				    loff_t *ppos, rwf_t flags)
{
#if UL_LINUX_6_12
	return vfs_iter_write(file, iter, ppos, flags);
#else
	ssize_t ret;

	file_start_write(file);
	ret = vfs_iter_write(file, iter, ppos, flags);
	file_end_write(file);
	return ret;
#endif
}

/*
 * Splice from a file to one whose filesystem's freeze protection the
 * caller holds (ul_want_write()): 6.12's do_splice_direct() takes it
 * again, splice_file_range() does not.
 */
static inline long ul_splice_direct(struct file *in, loff_t *ipos,
				    struct file *out, loff_t *opos, size_t len)
{
#if UL_LINUX_6_12
	return splice_file_range(in, ipos, out, opos, len);
#else
	return do_splice_direct(in, ipos, out, opos, len, SPLICE_F_MOVE);
#endif
}

/*
 * POSIX ACLs. Since 6.2 they are inode operations (->get_inode_acl() for
 * permission checks, ->get_acl() and ->set_acl() on a dentry), read and
 * written with vfs_get_acl(), vfs_set_acl() and vfs_remove_acl(); the
 * xattr calls refuse their names. Before, ->get_acl() took the inode and
 * the ACLs were xattrs with handlers of their own (UL_ACL_XATTRS): the
 * vfs_*_acl() calls are made of the xattr calls there.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define UL_ACL_IOPS					\
	.get_inode_acl	= ul_get_inode_acl,		\
	.get_acl	= ul_get_acl,			\
	.set_acl	= ul_set_acl
/* symlinks have none to get or set (EOPNOTSUPP, as on overlayfs) */
#define UL_SYMLINK_ACL_IOPS				\
	.get_inode_acl	= ul_get_inode_acl
#else
#define UL_ACL_XATTRS
#define UL_ACL_IOPS					\
	.get_acl	= ul_get_inode_acl
#define UL_SYMLINK_ACL_IOPS UL_ACL_IOPS

static inline struct posix_acl *get_inode_acl(struct inode *inode, int type)
{
	return get_acl(inode, type);
}

static inline int ul_acl_type(const char *name)
{
	return strcmp(name, XATTR_NAME_POSIX_ACL_ACCESS) ? ACL_TYPE_DEFAULT :
							     ACL_TYPE_ACCESS;
}

static inline struct posix_acl *vfs_get_acl(struct user_namespace *idmap,
					    struct dentry *dentry,
					    const char *name)
{
	struct posix_acl *acl;

	if (!IS_POSIXACL(d_inode(dentry)) || d_is_symlink(dentry))
		return ERR_PTR(-EOPNOTSUPP);
	acl = get_acl(d_inode(dentry), ul_acl_type(name));
	return acl ? acl : ERR_PTR(-ENODATA);
}

static inline int vfs_set_acl(struct user_namespace *idmap,
			      struct dentry *dentry, const char *name,
			      struct posix_acl *acl)
{
	size_t size = posix_acl_xattr_size(acl->a_count);
	void *buf;
	int err;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = posix_acl_to_xattr(&init_user_ns, acl, buf, size);
	if (err >= 0)
		err = vfs_setxattr(idmap, dentry, name, buf, size, 0);
	kfree(buf);
	return err;
}

static inline int vfs_remove_acl(struct user_namespace *idmap,
				 struct dentry *dentry, const char *name)
{
	return vfs_removexattr(idmap, dentry, name);
}
#endif

#endif /* _UNIONLITE_COMPAT_H */
