// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: inode numbers, and the lower origin of copied-up objects.
 *
 * One st_dev for the whole union, so st_ino must be unique across the
 * layers and stay the same when an object is copied up or the union is
 * mounted again. The number of an object is a real inode number:
 *
 *   - a lower-only object: the lower inode's;
 *   - a merged directory (an upper directory over a lower one, not
 *     opaque): the lower directory's;
 *   - a copied-up non-directory: the lower inode it was copied from, found
 *     again through trusted.overlay.origin, when that inode has one link
 *     (copy-up gives each name of a lower hard link its own upper object:
 *     they can no longer share a number);
 *   - anything else (upper-only, opaque directories, copies of hard
 *     links, copies made without an origin): the upper inode's.
 *
 * With both layers on one filesystem the real numbers are unique as they
 * are. Otherwise the layer is written in the top bits, as overlayfs does
 * with xino=on for two filesystems: a lower number gets bit 63, an upper
 * one none; a real number that uses bit 62 or 63 itself cannot be mapped
 * and gets a number of the union's own (get_next_ino() | bit 62), unique
 * but not persistent (nor equal to the d_ino readdir reports for it).
 *
 * The origin is overlayfs's file handle (struct ovl_fb in
 * fs/overlayfs/overlayfs.h): version 0, magic 0xfb, length, flags, the
 * exportfs handle type, the lower filesystem's UUID and the handle, so an
 * upper layer written by one is read by the other. A directory whose
 * entries include copied-up objects is marked trusted.overlay.impure =
 * "y" (overlayfs's mark too): readdir looks those entries up for their
 * d_ino, and reads the others' from the real directories.
 */

#include <linux/exportfs.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uuid.h>
#include <linux/xattr.h>
#include "ops.h"

/* overlayfs's on-disk file handle */
struct ul_fb {
	u8 version;
	u8 magic;
	u8 len;		/* this header and the handle */
	u8 flags;
	u8 type;	/* exportfs handle type */
	uuid_t uuid;	/* of the lower filesystem */
	u8 fid[];
} __packed;

#define UL_FH_VERSION		0
#define UL_FH_MAGIC		0xfb
#define UL_FH_FLAG_BIG_ENDIAN	BIT(0)
#define UL_FH_FLAG_ANY_ENDIAN	BIT(1)
#define UL_FH_FLAG_PATH_UPPER	BIT(2)
#define UL_FH_FLAG_ALL		(UL_FH_FLAG_BIG_ENDIAN | \
				 UL_FH_FLAG_ANY_ENDIAN | UL_FH_FLAG_PATH_UPPER)
#ifdef __BIG_ENDIAN
#define UL_FH_FLAG_CPU_ENDIAN	UL_FH_FLAG_BIG_ENDIAN
#else
#define UL_FH_FLAG_CPU_ENDIAN	0
#endif
#define UL_FB_MAX		(sizeof(struct ul_fb) + MAX_HANDLE_SZ)

#define UL_INO_LOWER		BIT_ULL(63)
#define UL_INO_OWN		BIT_ULL(62)

/**
 * ul_init_ino_map - decide how inode numbers are composed
 * @ufs: the union being mounted, its layers set
 */
void ul_init_ino_map(struct ul_fs *ufs)
{
	ufs->same_fs = ufs->lower_mnt->mnt_sb == ufs->upper_mnt->mnt_sb;
}

/*
 * The union's number for real inode number @ino of the lower (@lower) or
 * the upper layer.
 */
static u64 ul_map_ino(struct ul_fs *ufs, u64 ino, bool lower)
{
	if (ufs->same_fs)
		return ino;
	if (likely(!(ino & (UL_INO_LOWER | UL_INO_OWN))))
		return lower ? ino | UL_INO_LOWER : ino;
	pr_warn_ratelimited("unionlite: inode number %llu too big to map, using a number that will not persist\n",
			    ino);
	return get_next_ino() | UL_INO_OWN;
}

/*
 * The lower inode @upper was copied from, looked up by its origin file
 * handle; NULL when it has none (or a handle of another filesystem, or
 * one the lower layer no longer knows). Mounter's credentials.
 */
static struct dentry *ul_origin(struct ul_fs *ufs, struct dentry *upper)
{
	u32 fid[MAX_HANDLE_SZ / 4];
	struct dentry *origin;
	struct ul_fb *fb;
	ssize_t len;
	int dwords;

	fb = kmalloc(UL_FB_MAX, GFP_KERNEL);
	if (!fb)
		return NULL;
	origin = NULL;
	len = vfs_getxattr(ul_upper_userns(ufs), upper, UL_XATTR_ORIGIN, fb,
			   UL_FB_MAX);
	if (len < (ssize_t)sizeof(*fb) || fb->version != UL_FH_VERSION ||
	    fb->magic != UL_FH_MAGIC || fb->len != len ||
	    (fb->flags & ~UL_FH_FLAG_ALL) ||
	    (fb->flags & UL_FH_FLAG_PATH_UPPER) ||
	    (!(fb->flags & UL_FH_FLAG_ANY_ENDIAN) &&
	     (fb->flags & UL_FH_FLAG_BIG_ENDIAN) != UL_FH_FLAG_CPU_ENDIAN) ||
	    !uuid_equal(&fb->uuid, &ufs->lower_mnt->mnt_sb->s_uuid))
		goto out_free;
	dwords = (len - sizeof(*fb)) / 4;
	memcpy(fid, fb->fid, dwords * 4);
	origin = exportfs_decode_fh_raw(ufs->lower_mnt, (struct fid *)fid,
					dwords, fb->type, NULL, NULL);
	if (IS_ERR_OR_NULL(origin) || d_is_dir(origin)) {
		if (!IS_ERR_OR_NULL(origin))
			dput(origin);
		origin = NULL;
	}
out_free:
	kfree(fb);
	return origin;
}

/**
 * ul_object_ino - the union's inode number of an object
 * @sb: the union super block
 * @upper: the upper object or NULL
 * @lower: the lower object or NULL (a directory merged with @upper, or
 *	the lower-only object)
 * @opaque: @upper is an opaque directory
 * @origin: set when the number comes from @upper's origin
 *
 * Called with the mounter's credentials.
 *
 * Return: the inode number.
 */
u64 ul_object_ino(struct super_block *sb, struct dentry *upper,
		  struct dentry *lower, bool opaque, bool *origin)
{
	struct ul_fs *ufs = UL_FS(sb);
	struct dentry *from;
	u64 ino;

	*origin = false;
	if (!upper)
		return ul_map_ino(ufs, d_inode(lower)->i_ino, true);
	if (d_is_dir(upper)) {
		if (lower && !opaque)
			return ul_map_ino(ufs, d_inode(lower)->i_ino, true);
		return ul_map_ino(ufs, d_inode(upper)->i_ino, false);
	}
	from = ul_origin(ufs, upper);
	if (from) {
		*origin = true;
		if (d_inode(from)->i_nlink == 1) {
			ino = ul_map_ino(ufs, d_inode(from)->i_ino, true);
			dput(from);
			return ino;
		}
		dput(from);
	}
	return ul_map_ino(ufs, d_inode(upper)->i_ino, false);
}

/**
 * ul_set_origin - record where a copy-up came from
 * @ufs: the union
 * @lower: the lower object
 * @temp: its copy in the work dir
 *
 * Nothing is recorded when the lower filesystem cannot make file handles
 * (the copy then has the upper inode's number). Mounter's credentials.
 *
 * Return: 1 if recorded, 0 if not, or a negative errno.
 */
int ul_set_origin(struct ul_fs *ufs, struct dentry *lower, struct dentry *temp)
{
	const struct export_operations *nop = lower->d_sb->s_export_op;
	u32 fid[MAX_HANDLE_SZ / 4];
	int dwords = ARRAY_SIZE(fid), type, err;
	struct ul_fb *fb;
	size_t len;

	/*
	 * A null UUID (ext2 sets none) is accepted as overlayfs does: with
	 * one lower filesystem it still names that one.
	 */
	if (!nop || !nop->fh_to_dentry)
		return 0;
	type = exportfs_encode_fh(lower, (struct fid *)fid, &dwords, 0);
	if (type <= 0 || type == FILEID_INVALID || dwords > ARRAY_SIZE(fid))
		return 0;
	len = sizeof(*fb) + dwords * 4;
	fb = kzalloc(len, GFP_KERNEL);
	if (!fb)
		return -ENOMEM;
	fb->version = UL_FH_VERSION;
	fb->magic = UL_FH_MAGIC;
	fb->len = len;
	fb->flags = UL_FH_FLAG_CPU_ENDIAN;
	fb->type = type;
	uuid_copy(&fb->uuid, &lower->d_sb->s_uuid);
	memcpy(fb->fid, fid, dwords * 4);
	err = ul_do_setxattr(ufs, temp, UL_XATTR_ORIGIN, fb, len, 0);
	kfree(fb);
	return err ? err : 1;
}

/**
 * ul_set_impure - mark an upper directory as holding copied-up objects
 * @ufs: the union
 * @dir: the union directory
 * @upperdir: its upper directory
 *
 * Readdir then looks its upper entries up for their d_ino. Done once per
 * directory (UL_IMPURE). Mounter's credentials.
 *
 * Return: 0 or a negative errno.
 */
int ul_set_impure(struct ul_fs *ufs, struct inode *dir, struct dentry *upperdir)
{
	struct ul_inode *ui = UL_I(dir);
	int err;

	if (test_bit(UL_IMPURE, &ui->flags))
		return 0;
	if (ul_is_impure(ufs, upperdir)) {
		set_bit(UL_IMPURE, &ui->flags);
		return 0;
	}
	err = ul_do_setxattr(ufs, upperdir, UL_XATTR_IMPURE, "y", 1, 0);
	if (!err)
		set_bit(UL_IMPURE, &ui->flags);
	return err;
}

/**
 * ul_is_impure - does an upper directory carry the impure mark?
 * @ufs: the union
 * @upperdir: the upper directory
 *
 * Mounter's credentials.
 *
 * Return: true if trusted.overlay.impure is "y".
 */
bool ul_is_impure(struct ul_fs *ufs, struct dentry *upperdir)
{
	char val;

	return vfs_getxattr(ul_upper_userns(ufs), upperdir, UL_XATTR_IMPURE,
			    &val, 1) == 1 && val == 'y';
}

/**
 * ul_lower_d_ino - the union's d_ino of an entry of a lower directory
 * @ufs: the union
 * @ino: the d_ino the lower directory reports
 *
 * Return: the union's inode number of that lower object.
 */
u64 ul_lower_d_ino(struct ul_fs *ufs, u64 ino)
{
	return ul_map_ino(ufs, ino, true);
}

/**
 * ul_upper_d_ino - the union's d_ino of an entry of an upper directory
 * @ufs: the union
 * @ino: the d_ino the upper directory reports
 *
 * For an entry whose number is its upper inode's (see the top of this
 * file for which are not).
 *
 * Return: the union's inode number.
 */
u64 ul_upper_d_ino(struct ul_fs *ufs, u64 ino)
{
	return ul_map_ino(ufs, ino, false);
}
