/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unionlite: data structures and typed accessors.
 *
 * Function prototypes shared between the files live in ops.h; this header
 * only describes the objects and how to reach them.
 */
#ifndef _UNIONLITE_H
#define _UNIONLITE_H

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/errseq.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/mutex.h>
#include <linux/path.h>
#include <linux/spinlock.h>
#include "compat.h"

#define UL_SUPER_MAGIC		0x756e6c74	/* "unlt" */
#define UL_XATTR_PREFIX		"trusted.overlay."
#define UL_XATTR_OPAQUE		UL_XATTR_PREFIX "opaque"
#define UL_XATTR_PROTATTR	UL_XATTR_PREFIX "protattr"
#define UL_XATTR_ORIGIN		UL_XATTR_PREFIX "origin"
#define UL_XATTR_IMPURE		UL_XATTR_PREFIX "impure"
#define UL_XATTR_REDIRECT	UL_XATTR_PREFIX "redirect"
#define UL_XATTR_METACOPY	UL_XATTR_PREFIX "metacopy"
#define UL_WORK_NAME		"work"
/* <workdir>/work/incompat/FEATURE: a mount unionlite must refuse */
#define UL_INCOMPAT_NAME	"incompat"

/*
 * The AUFS whiteout form (aufs_whiteouts): in a directory of a layer, an
 * object of any type at ".wh.NAME" hides NAME there (not an upper NAME)
 * and below, and one at ".wh..wh..opq" makes the directory opaque. No
 * such name is shown.
 */
#define UL_AUFS_PREFIX		".wh."
#define UL_AUFS_PREFIX_LEN	4
#define UL_AUFS_OPAQUE		".wh..opq"	/* after the prefix */

/* The most lower layers one union stacks (lowerdir=L1:L2:...:Ln). */
#define UL_MAX_LOWER		500

/**
 * struct ul_config - the mount options
 * @lowerdir: the lower layers' paths (backslash escapes removed), the
 *	topmost first, each ended by a NUL
 * @numlower: how many paths @lowerdir holds
 * @upperdir: the path upperdir= names
 * @workdir: the path workdir= names
 * @default_permissions: default_permissions was given (shown, no effect:
 *	the caller's and the mounter's checks are always both made)
 * @redirect: redirect_dir=, one of enum ul_redirect_mode
 * @xino: xino= as given (UL_XINO_*): shown, the numbering is always on
 * @no_sync: "volatile": the upper layer is never synced (a union with an
 *	upper layer only)
 * @aufs_whiteouts: the layers may hold whiteouts in the AUFS form too
 *	(UL_AUFS_PREFIX)
 * @metacopy: metacopy=on: a regular file's copy-up copies its metadata
 *	only until its data is written (copy_up.c)
 * @redirect_set: redirect_dir= was given (metacopy=on conflicts with it
 *	unless it lets redirects be made)
 */
struct ul_config {
	char *lowerdir;
	unsigned int numlower;
	char *upperdir;
	char *workdir;
	bool default_permissions;
	int redirect;
	int xino;
	bool no_sync;
	bool aufs_whiteouts;
	bool metacopy;
	bool redirect_set;
};

/*
 * redirect_dir= (overlayfs 6.1's meaning, with its Kconfig defaults:
 * REDIRECT_DIR off, REDIRECT_ALWAYS_FOLLOW on):
 * off (default): follow redirects, never make one (a directory with a
 *	lower does not move: EXDEV);
 * follow: the same, asked for by name;
 * nofollow: neither; a lookup that would need one is refused (EPERM);
 * on: make them (recipe 6) and follow them.
 */
enum ul_redirect_mode {
	UL_REDIRECT_OFF,
	UL_REDIRECT_FOLLOW,
	UL_REDIRECT_NOFOLLOW,
	UL_REDIRECT_ON,
};

enum { UL_XINO_UNSET, UL_XINO_ON, UL_XINO_AUTO };

/**
 * struct ul_layer - one lower layer of a union
 * @mnt: private read-only clone of the layer's mount; its mnt_root is the
 *	layer's directory
 * @idx: 1 for the topmost lower layer ... numlower for the bottom one
 * @fsid: 0 when the layer is on the upper layer's filesystem (or on the
 *	topmost lower layer's, in a union without upper); else one number
 *	per other filesystem, from 1: inode numbers carry it (ino.c)
 * @bad_uuid: origin file handles cannot name this layer: another lower
 *	layer's filesystem has the same UUID, or it is null on a filesystem
 *	other than the upper's while the lower layers may change offline
 *	(ino.c)
 */
struct ul_layer {
	struct vfsmount *mnt;
	unsigned int idx;
	unsigned int fsid;
	bool bad_uuid;
};

/**
 * struct ul_lower - a real object in a lower layer
 * @layer: the layer, NULL when @dentry is
 * @dentry: the object
 */
struct ul_lower {
	struct ul_layer *layer;
	struct dentry *dentry;
};

/**
 * struct ul_fs - one mounted union (sb->s_fs_info)
 * @config: the options the union was mounted with
 * @layers: the lower layers, topmost first
 * @numlower: how many @layers
 * @numfs: how many distinct filesystems the layers are on (the highest
 *	fsid + 1)
 * @upper_mnt: private clone of the upper mount; its mnt_root is the upper
 *	directory. The work directory is on the same filesystem and is
 *	reached with this mount too. NULL in a union of lower layers only,
 *	which is read-only.
 * @workbase: the workdir the user named (holds @workdir)
 * @workdir: <workdir>/work, where objects are built before they are
 *	renamed or linked into the upper layer
 * @creator_cred: copy of the mounter's credentials without
 *	CAP_SYS_RESOURCE; every access to the real layers runs with them
 * @upper_prefix: dentry_path_raw() of the upper root, for trace lines
 * @work_prefix: dentry_path_raw() of @workdir, for trace lines
 * @tmp_counter: source of the temporary names #<hex> in @workdir
 * @upper_locked: the upper dir carries this union's in-use mark (the
 *	work dir's is released with @workbase)
 * @rename_whiteout: the upper filesystem supports RENAME_WHITEOUT
 *	(probed at mount; the part 2 recipes choose by it)
 * @tmpfile: the upper filesystem supports O_TMPFILE (probed at mount):
 *	regular files are copied up through it
 * @same_fs: every layer on one filesystem: inode numbers are not mapped
 * @ino_shift: otherwise the fsid of a number's filesystem is written from
 *	this bit up (ino.c)
 * @whiteout_lock: protects @whiteout
 * @whiteout: the shared whiteout work/#whiteout, which new whiteouts are
 *	hard links of; NULL until the first one is needed
 * @errseq: with @config.no_sync, the upper super block's writeback error
 *	state at mount: an error after it fails the union's syncs
 */
struct ul_fs {
	struct ul_config config;
	struct ul_layer *layers;
	unsigned int numlower;
	unsigned int numfs;
	struct vfsmount *upper_mnt;
	struct dentry *workbase;
	struct dentry *workdir;
	const struct cred *creator_cred;
	char *upper_prefix;
	char *work_prefix;
	atomic_long_t tmp_counter;
	bool upper_locked;
	bool rename_whiteout;
	bool tmpfile;
	bool same_fs;
	unsigned int ino_shift;
	spinlock_t whiteout_lock;	/* protects @whiteout */
	struct dentry *whiteout;
	errseq_t errseq;
};

/* Bits of ul_inode->flags */
enum {
	/* The upper directory is opaque (trusted.overlay.opaque = y). */
	UL_OPAQUE,
	/* The upper object was copied up and records its origin. */
	UL_ORIGIN,
	/* The upper directory is marked impure (trusted.overlay.impure). */
	UL_IMPURE,
	/*
	 * A directory that may hold whiteouts although nothing merges with
	 * it: it was merged when it was copied up (it has an origin), and
	 * is read through the merged list, which hides them.
	 */
	UL_WHITEOUTS,
	/*
	 * A regular file whose upper copy holds its metadata only
	 * (trusted.overlay.metacopy): the data is still read from the
	 * bottom of the lower stack, ul_lowerdata(). Set before the upper
	 * object is published, cleared once the data is copied up.
	 */
	UL_LOWERDATA,
};

/**
 * struct ul_inode - the union inode and the real objects behind it
 * @__upper: the upper object; NULL until the object is copied up. Set once,
 *	with a release store, under @lock; read with ul_upper().
 * @lower: the topmost visible lower object: a lower-only object, or the
 *	top of a merged directory's lower stack; its dentry is NULL when
 *	there is none or it is hidden
 * @below: a directory merged from several lower layers: the lower
 *	directories under @lower, top-down (kmalloc()ed); a regular file
 *	whose @lower is a metacopy file: the file below that holds its
 *	data (one entry); else NULL
 * @numlower: how many lower objects: 0, 1 (@lower), or 1 + the size of
 *	@below. Fixed when the union inode is made, like @lower and @below.
 * @key: the real inode this union inode is hashed on (the topmost one);
 *	compared, never dereferenced, by the inode hash lookup
 * @flags: UL_OPAQUE, UL_ORIGIN, UL_IMPURE, UL_WHITEOUTS, UL_LOWERDATA
 * @redirect: directories, and files whose data is lower: the upper
 *	object's trusted.overlay.redirect (kmalloc()ed), or NULL. Read and
 *	replaced under the d_lock of the object's dentry (ul_set_redirect()).
 * @prot: S_APPEND and S_IMMUTABLE of an upper object, which the upper
 *	inode does not carry (they are in trusted.overlay.protattr)
 * @lock: serializes copy-up of this object, and the readdir cache
 * @version: directories: bumped each time a name in this directory
 *	changes (under the union i_rwsem) or an entry's inode number does
 *	(at copy-up); readdir caches compare it
 * @dcache: directories: the readdir cache of the current @version, shared
 *	by every open of the directory (readdir.c), or NULL
 * @vfs_inode: the VFS inode
 *
 * There is one union inode per real object: union inodes are hashed on
 * the topmost real inode (ul_get_inode()), so hard links share one and a
 * change made through one name is seen through all of them. The one
 * exception is a lower-only file with several links: copy-up breaks the
 * link (each name gets its own upper copy), so each name has its own
 * union inode until then.
 */
struct ul_dir_cache;

struct ul_inode {
	struct dentry *__upper;
	struct ul_lower lower;
	struct ul_lower *below;
	unsigned int numlower;
	struct inode *key;
	unsigned long flags;
	char *redirect;
	unsigned int prot;
	struct mutex lock;	/* copy-up of this object */
	atomic64_t version;
	struct ul_dir_cache *dcache;
	struct inode vfs_inode;
};

static inline struct ul_fs *UL_FS(const struct super_block *sb)
{
	return sb->s_fs_info;
}

/*
 * redirect_dir=on, or metacopy=on, which turns it on: a directory with a
 * lower, or a file whose data is lower, moves (recipe 6)
 */
static inline bool ul_redirect_create(const struct ul_fs *ufs)
{
	return ufs->config.redirect == UL_REDIRECT_ON || ufs->config.metacopy;
}

/*
 * overlayfs's ovl_allow_offline_changes(): without redirect_dir=on or
 * xino=on, the lower layers may change while the union is unmounted.
 */
static inline bool ul_allow_offline_changes(const struct ul_fs *ufs)
{
	return !ul_redirect_create(ufs) && ufs->config.xino != UL_XINO_ON;
}

/* Lookup follows trusted.overlay.redirect (all but redirect_dir=nofollow) */
static inline bool ul_redirect_follow(const struct ul_fs *ufs)
{
	return ufs->config.redirect != UL_REDIRECT_NOFOLLOW;
}

static inline struct ul_inode *UL_I(const struct inode *inode)
{
	return container_of(inode, struct ul_inode, vfs_inode);
}

/* The union state of a positive union dentry. */
static inline struct ul_inode *UL_E(const struct dentry *dentry)
{
	return UL_I(d_inode(dentry));
}

static inline struct dentry *ul_upper(const struct ul_inode *ui)
{
	/* pairs with smp_store_release() at the end of copy-up */
	return smp_load_acquire(&ui->__upper);
}

static inline struct dentry *ul_dentry_upper(const struct dentry *dentry)
{
	return ul_upper(UL_E(dentry));
}

/* The topmost lower object of a union inode, or NULL. */
static inline struct dentry *ul_lower(const struct ul_inode *ui)
{
	return ui->lower.dentry;
}

static inline struct dentry *ul_dentry_lower(const struct dentry *dentry)
{
	return ul_lower(UL_E(dentry));
}

/* Lower object @i (0: the topmost) of a union inode; i < ui->numlower. */
static inline const struct ul_lower *ul_lower_at(const struct ul_inode *ui,
						 unsigned int i)
{
	return i ? &ui->below[i - 1] : &ui->lower;
}

/*
 * The lower object that holds a regular file's data: the bottom of its
 * lower stack (a lower metacopy file on top, then its data), or NULL.
 */
static inline const struct ul_lower *ul_lowerdata(const struct ul_inode *ui)
{
	return ui->numlower ? ul_lower_at(ui, ui->numlower - 1) : NULL;
}

/*
 * The upper copy of a file whose data is still lower (UL_LOWERDATA),
 * and of a lower-only file whose topmost lower object is a metacopy
 * file: its data is not in the topmost real object.
 */
static inline bool ul_data_is_lower(const struct ul_inode *ui)
{
	/* after ul_upper(): the flag is set before the upper is published */
	return ul_upper(ui) ? test_bit(UL_LOWERDATA, &ui->flags) :
			      ui->numlower > 1 && !d_is_dir(ui->lower.dentry);
}

/* The topmost real object: the upper one if there is one, else the lower. */
static inline struct dentry *ul_real(const struct ul_inode *ui)
{
	struct dentry *upper = ul_upper(ui);

	return upper ? upper : ul_lower(ui);
}

static inline struct inode *ul_real_inode(const struct inode *inode)
{
	struct dentry *real = ul_real(UL_I(inode));

	return real ? d_inode(real) : NULL;
}

/* The real path of lower object @lo. */
static inline void ul_lower_path(const struct ul_lower *lo, struct path *path)
{
	path->mnt = lo->layer->mnt;
	path->dentry = lo->dentry;
}

/* The real path of the topmost object of a union dentry. */
static inline void ul_real_path(const struct dentry *dentry, struct path *path)
{
	struct ul_inode *ui = UL_E(dentry);
	struct dentry *upper = ul_upper(ui);

	if (upper) {
		path->mnt = UL_FS(dentry->d_sb)->upper_mnt;
		path->dentry = upper;
	} else {
		ul_lower_path(&ui->lower, path);
	}
}

/*
 * The real path of the object holding a regular file's data: the upper
 * object once it holds it, else the lower data (ul_lowerdata()).
 */
static inline void ul_real_data_path(const struct dentry *dentry,
				     struct path *path)
{
	struct ul_inode *ui = UL_E(dentry);

	if (ul_data_is_lower(ui))
		ul_lower_path(ul_lowerdata(ui), path);
	else
		ul_real_path(dentry, path);
}

static inline struct ul_idmap *ul_upper_idmap(const struct ul_fs *ufs)
{
	return ul_mnt_idmap(ufs->upper_mnt);
}

static inline struct ul_idmap *ul_layer_idmap(const struct ul_layer *layer)
{
	return ul_mnt_idmap(layer->mnt);
}

/*
 * Bits of a union dentry's d_fsdata: what is known of its name (not of
 * its object, which hard links share).
 *
 * UL_D_LOWER_NAME: a lower layer shows this name under the upper one
 * (the parent's lower stack holds it, above any whiteout of it; visible
 * or hidden by the upper object); removing or renaming the union object
 * needs a whiteout.
 * UL_D_LOWER_UNKNOWN: not known yet whether UL_D_LOWER_NAME holds: the
 * upper object decided the lookup, which did not look at the lower
 * layers; ul_lower_name() finds out when a removal or rename asks.
 * UL_D_WHITEOUT_SEEN: a negative union dentry whose upper name was last
 * seen holding a whiteout (by lookup, or made by an unlink or rmdir): a
 * create there starts with recipe 2. Only a hint: every recipe looks the
 * upper name up again under its locks.
 */
#define UL_D_LOWER_NAME		1UL
#define UL_D_WHITEOUT_SEEN	2UL
#define UL_D_LOWER_UNKNOWN	4UL

static inline void ul_set_dentry_flag(struct dentry *dentry,
				      unsigned long flag, bool on)
{
	unsigned long flags = (unsigned long)READ_ONCE(dentry->d_fsdata);

	flags = on ? flags | flag : flags & ~flag;
	WRITE_ONCE(dentry->d_fsdata, (void *)flags);
}

static inline bool ul_dentry_flag(const struct dentry *dentry,
				  unsigned long flag)
{
	return (unsigned long)READ_ONCE(dentry->d_fsdata) & flag;
}

static inline void ul_set_whiteout_seen(struct dentry *dentry, bool seen)
{
	ul_set_dentry_flag(dentry, UL_D_WHITEOUT_SEEN, seen);
}

static inline bool ul_whiteout_seen(const struct dentry *dentry)
{
	return ul_dentry_flag(dentry, UL_D_WHITEOUT_SEEN);
}

static inline void ul_set_lower_name(struct dentry *dentry, bool lower)
{
	ul_set_dentry_flag(dentry, UL_D_LOWER_UNKNOWN, false);
	ul_set_dentry_flag(dentry, UL_D_LOWER_NAME, lower);
}

/*
 * A real dentry the union does not look through, as overlayfs's
 * ovl_dentry_weird(): an automount point, a managed dentry, a name of a
 * case-insensitive (or other hashed-name) directory, or a type that is
 * neither a directory one can look up in, a file nor a symlink.
 */
static inline bool ul_dentry_weird(const struct dentry *real)
{
	if (!d_can_lookup(real) && !d_is_file(real) && !d_is_symlink(real))
		return true;
	return real->d_flags & (DCACHE_NEED_AUTOMOUNT | DCACHE_MANAGE_TRANSIT |
				DCACHE_OP_HASH | DCACHE_OP_COMPARE);
}

/* A whiteout: a character device 0/0 (d_is_whiteout() is never set in 6.1). */
static inline bool ul_is_whiteout(const struct dentry *real)
{
	struct inode *inode = real ? d_inode(real) : NULL;

	return inode && IS_WHITEOUT(inode);
}

#endif /* _UNIONLITE_H */
