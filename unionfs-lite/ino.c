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
 * The object taken is the topmost lower one (of a merged directory's
 * lower stack, the topmost lower directory).
 *
 * With every layer on one filesystem the real numbers are unique as they
 * are. Otherwise the filesystem is written in the top bits, as overlayfs
 * does with xino=on: each filesystem has a number (fsid: 0 for the
 * upper's, 1, 2... for the others, in layer order), which takes the top
 * B bits, B just enough for the highest fsid (one bit for two
 * filesystems: a lower number from another filesystem gets bit 63). A
 * real number that uses one of those bits, or the bit below them, cannot
 * be mapped and gets a number of the union's own (get_next_ino() | that
 * bit), unique but not persistent (nor equal to the d_ino readdir reports
 * for it).
 *
 * The origin is overlayfs's file handle (struct ovl_fb in
 * fs/overlayfs/overlayfs.h): version 0, magic 0xfb, length, flags, the
 * exportfs handle type, the lower filesystem's UUID and the handle, so an
 * upper layer written by one is read by the other; a lower filesystem
 * that cannot make handles gets an empty origin, as on overlayfs. The
 * UUID names the layer the handle is decoded in, so it must name one
 * filesystem: the origins of a lower filesystem whose UUID another lower
 * filesystem shares (cloned images, or two ext2 filesystems, which in 6.1
 * all have the null UUID) are written but never followed (overlayfs marks
 * such a layer bad_uuid), and its copies have the upper inode's number.
 * So are those of a null-UUID filesystem other than the upper's while
 * the lower layers may change offline (without redirect_dir=on or
 * xino=on), as on overlayfs. An origin that is stale or not of the upper
 * object's type is ignored with a warning; an error following it fails
 * the lookup, as on overlayfs. A directory whose
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

/*
 * Can handles with a lower layer's UUID be decoded in it? Not when
 * another lower filesystem has the same UUID (null or not): the UUID
 * would not tell the two apart. Nor, as in overlayfs, a null UUID of a
 * filesystem other than the upper's while the lower layers may change
 * offline (a rebuilt squashfs image reuses inode numbers; its handles
 * carry no generation).
 */
static void ul_check_uuids(struct ul_fs *ufs)
{
	unsigned int i, j;

	for (i = 0; i < ufs->numlower; i++) {
		struct super_block *sb = ufs->layers[i].mnt->mnt_sb;

		if (ufs->upper_mnt && ufs->layers[i].fsid &&
		    uuid_is_null(&sb->s_uuid) && ul_allow_offline_changes(ufs)) {
			ufs->layers[i].bad_uuid = true;
			continue;
		}

		for (j = 0; j < i; j++) {
			struct super_block *other = ufs->layers[j].mnt->mnt_sb;

			if (other != sb && uuid_equal(&other->s_uuid, &sb->s_uuid)) {
				ufs->layers[i].bad_uuid = true;
				ufs->layers[j].bad_uuid = true;
			}
		}
	}
	for (i = 0; i < ufs->numlower; i++) {
		const uuid_t *uuid = &ufs->layers[i].mnt->mnt_sb->s_uuid;

		if (!ufs->layers[i].bad_uuid)
			continue;
		if (uuid_is_null(uuid) && ul_allow_offline_changes(ufs))
			pr_warn("unionlite: lower layer %u: null UUID and the lower layers may change offline; no origin is followed there\n",
				i + 1);
		else
			pr_warn("unionlite: lower layer %u: another lower filesystem has its UUID %pU; no origin is followed there\n",
				i + 1, uuid);
	}
}

/**
 * ul_init_ino_map - number the layers' filesystems
 * @ufs: the union being mounted, its layers set
 *
 * Sets each layer's fsid and bad_uuid, @ufs->numfs, @ufs->same_fs and
 * @ufs->ino_shift.
 */
void ul_init_ino_map(struct ul_fs *ufs)
{
	struct super_block *first;
	unsigned int i, j;

	first = ufs->upper_mnt ? ufs->upper_mnt->mnt_sb :
				 ufs->layers[0].mnt->mnt_sb;
	ufs->numfs = 1;
	for (i = 0; i < ufs->numlower; i++) {
		struct ul_layer *layer = &ufs->layers[i];
		struct super_block *sb = layer->mnt->mnt_sb;

		layer->fsid = 0;
		if (sb == first)
			continue;
		for (j = 0; j < i; j++) {
			if (ufs->layers[j].mnt->mnt_sb == sb) {
				layer->fsid = ufs->layers[j].fsid;
				break;
			}
		}
		if (!layer->fsid)
			layer->fsid = ufs->numfs++;
	}
	ufs->same_fs = ufs->numfs == 1;
	ufs->ino_shift = 64 - fls(ufs->numfs - 1);
	ul_check_uuids(ufs);
	/*
	 * xino=auto is shown as overlayfs shows it: as off (not at all)
	 * once a lower filesystem's UUID cannot name it. The numbering is
	 * the same either way.
	 */
	for (i = 0; i < ufs->numlower && ufs->config.xino == UL_XINO_AUTO; i++) {
		if (ufs->layers[i].fsid && ufs->layers[i].bad_uuid)
			ufs->config.xino = UL_XINO_UNSET;
	}
}

/* The union's number for real inode number @ino of filesystem @fsid. */
static u64 ul_map_ino(struct ul_fs *ufs, u64 ino, unsigned int fsid)
{
	if (ufs->same_fs)
		return ino;
	if (likely(!(ino >> (ufs->ino_shift - 1))))
		return ino | ((u64)fsid << ufs->ino_shift);
	pr_warn_ratelimited("unionlite: inode number %llu too big to map, using a number that will not persist\n",
			    ino);
	return get_next_ino() | BIT_ULL(ufs->ino_shift - 1);
}

/*
 * The lower inode @upper was copied from, looked up by its origin file
 * handle in the lower layers whose filesystem has the UUID it names (none
 * of a bad_uuid layer). NULL when it has none, an origin that cannot be
 * read or is not of this format, a handle no such layer knows (stale),
 * or when the object found is not of @upper's type (with a warning); an
 * ERR_PTR for any other failure (-ENOMEM, a decode error), as overlayfs.
 * @layer is set to the layer it was found in. Mounter's credentials.
 */
static struct dentry *ul_origin(struct ul_fs *ufs, struct dentry *upper,
				struct ul_layer **layer)
{
	u32 fid[MAX_HANDLE_SZ / 4];
	struct dentry *origin = NULL;
	struct ul_fb *fb;
	ssize_t len;
	unsigned int i;
	int dwords, err;

	fb = kmalloc(UL_FB_MAX, GFP_KERNEL);
	if (!fb)
		return ERR_PTR(-ENOMEM);
	len = vfs_getxattr(ul_upper_idmap(ufs), upper, UL_XATTR_ORIGIN, fb,
			   UL_FB_MAX);
	if (len < (ssize_t)sizeof(*fb) || fb->version != UL_FH_VERSION ||
	    fb->magic != UL_FH_MAGIC || fb->len != len ||
	    (fb->flags & ~UL_FH_FLAG_ALL) ||
	    (fb->flags & UL_FH_FLAG_PATH_UPPER) ||
	    (!(fb->flags & UL_FH_FLAG_ANY_ENDIAN) &&
	     (fb->flags & UL_FH_FLAG_BIG_ENDIAN) != UL_FH_FLAG_CPU_ENDIAN))
		goto out_free;
	dwords = (len - sizeof(*fb)) / 4;
	err = ul_fault_origin();
	if (err) {
		origin = ERR_PTR(err);
		goto out_free;
	}
	for (i = 0; i < ufs->numlower && !origin; i++) {
		struct ul_layer *l = &ufs->layers[i];

		if (l->bad_uuid ||
		    !uuid_equal(&fb->uuid, &l->mnt->mnt_sb->s_uuid))
			continue;
		memcpy(fid, fb->fid, dwords * 4);
		origin = ul_decode_fh(l->mnt, (struct fid *)fid, dwords,
				      fb->type);
		if (origin == ERR_PTR(-ESTALE))
			origin = NULL;
		else if (IS_ERR(origin))
			goto out_free;
		*layer = l;
	}
	if (origin && inode_wrong_type(d_inode(upper), d_inode(origin)->i_mode)) {
		pr_warn_ratelimited("unionlite: invalid origin (%pd2, ftype=%x, origin ftype=%x), ignored\n",
				    upper, d_inode(upper)->i_mode & S_IFMT,
				    d_inode(origin)->i_mode & S_IFMT);
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
 * @lower: the topmost lower object or NULL (of a directory merged with
 *	@upper, or the lower-only object)
 * @opaque: @upper is an opaque directory
 * @ino: set to the inode number
 * @origin: set when the number comes from @upper's origin
 *
 * Called with the mounter's credentials.
 *
 * Return: 0, or a negative errno when @upper's origin could not be
 * followed (-ENOMEM, an error decoding its handle).
 */
int ul_object_ino(struct super_block *sb, struct dentry *upper,
		  const struct ul_lower *lower, bool opaque, u64 *ino,
		  bool *origin)
{
	struct ul_fs *ufs = UL_FS(sb);
	struct ul_layer *layer;
	struct dentry *from;

	*origin = false;
	if (!upper) {
		*ino = ul_map_ino(ufs, d_inode(lower->dentry)->i_ino,
				  lower->layer->fsid);
		return 0;
	}
	if (d_is_dir(upper)) {
		if (lower && !opaque)
			*ino = ul_map_ino(ufs, d_inode(lower->dentry)->i_ino,
					  lower->layer->fsid);
		else
			*ino = ul_map_ino(ufs, d_inode(upper)->i_ino, 0);
		return 0;
	}
	*ino = ul_map_ino(ufs, d_inode(upper)->i_ino, 0);
	from = ul_origin(ufs, upper, &layer);
	if (IS_ERR(from))
		return PTR_ERR(from);
	if (from) {
		*origin = true;
		if (d_inode(from)->i_nlink == 1)
			*ino = ul_map_ino(ufs, d_inode(from)->i_ino,
					  layer->fsid);
		dput(from);
	}
	return 0;
}

/**
 * ul_set_origin - record where a copy-up came from
 * @ufs: the union
 * @lo: the lower object
 * @temp: its copy in the work dir
 *
 * The lower object's file handle, or, when its filesystem cannot make
 * one, an empty origin, as overlayfs writes it: the copy is still known
 * to have been copied up (a directory's whiteouts are then hidden even
 * when nothing merges with it: readdir.c). The handle of a bad_uuid
 * layer is recorded but never followed. Mounter's credentials.
 *
 * Return: 1 if the origin can be followed (the copy keeps the lower
 * inode number), 0 if not, or a negative errno.
 */
int ul_set_origin(struct ul_fs *ufs, const struct ul_lower *lo,
		  struct dentry *temp)
{
	struct dentry *lower = lo->dentry;
	const struct export_operations *nop = lower->d_sb->s_export_op;
	u32 fid[MAX_HANDLE_SZ / 4];
	int dwords = ARRAY_SIZE(fid), type = FILEID_INVALID, err;
	struct ul_fb *fb;
	size_t len;

	/*
	 * A null UUID (ext2 sets none) is accepted as overlayfs does with
	 * xino=on: while no other lower filesystem has it, it names one.
	 */
	if (nop && nop->fh_to_dentry)
		type = exportfs_encode_fh(lower, (struct fid *)fid, &dwords, 0);
	if (type <= 0 || type == FILEID_INVALID || dwords > ARRAY_SIZE(fid)) {
		err = ul_do_setxattr(ufs, temp, UL_XATTR_ORIGIN, "", 0, 0);
		return err;
	}
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
	if (err)
		return err;
	return !lo->layer->bad_uuid;
}

/**
 * ul_has_origin - was a real object copied up?
 * @idmap: the idmapping of its layer's mount
 * @real: the object
 *
 * Mounter's credentials.
 *
 * Return: true if it has a trusted.overlay.origin xattr (empty or not).
 */
bool ul_has_origin(struct ul_idmap *idmap, struct dentry *real)
{
	return vfs_getxattr(idmap, real, UL_XATTR_ORIGIN, NULL, 0) >= 0;
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

	return vfs_getxattr(ul_upper_idmap(ufs), upperdir, UL_XATTR_IMPURE,
			    &val, 1) == 1 && val == 'y';
}

/**
 * ul_lower_d_ino - the union's d_ino of an entry of a lower directory
 * @ufs: the union
 * @layer: the layer of that directory
 * @ino: the d_ino the lower directory reports
 *
 * Return: the union's inode number of that lower object.
 */
u64 ul_lower_d_ino(struct ul_fs *ufs, const struct ul_layer *layer, u64 ino)
{
	return ul_map_ino(ufs, ino, layer->fsid);
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
	return ul_map_ino(ufs, ino, 0);
}
