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
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/mutex.h>
#include <linux/path.h>
#include <linux/spinlock.h>

#define UL_SUPER_MAGIC		0x756e6c74	/* "unlt" */
#define UL_XATTR_PREFIX		"trusted.overlay."
#define UL_XATTR_OPAQUE		UL_XATTR_PREFIX "opaque"
#define UL_XATTR_PROTATTR	UL_XATTR_PREFIX "protattr"
#define UL_XATTR_ORIGIN		UL_XATTR_PREFIX "origin"
#define UL_XATTR_IMPURE		UL_XATTR_PREFIX "impure"
#define UL_WORK_NAME		"work"

/**
 * struct ul_config - the mount options
 * @lowerdir: the path lowerdir= names (its backslash escapes removed)
 * @upperdir: the path upperdir= names
 * @workdir: the path workdir= names
 * @default_permissions: default_permissions was given (shown, no effect:
 *	the caller's and the mounter's checks are always both made)
 */
struct ul_config {
	char *lowerdir;
	char *upperdir;
	char *workdir;
	bool default_permissions;
};

/**
 * struct ul_fs - one mounted union (sb->s_fs_info)
 * @config: the options the union was mounted with
 * @lower_mnt: private read-only clone of the lower mount; its mnt_root is
 *	the lower directory
 * @upper_mnt: private clone of the upper mount; its mnt_root is the upper
 *	directory. The work directory is on the same filesystem and is
 *	reached with this mount too.
 * @workbase: the workdir the user named (holds @workdir)
 * @workdir: <workdir>/work, where objects are built before they are
 *	renamed into the upper layer
 * @creator_cred: copy of the mounter's credentials; every access to the
 *	real layers runs with them
 * @upper_prefix: dentry_path_raw() of the upper root, for trace lines
 * @work_prefix: dentry_path_raw() of @workdir, for trace lines
 * @tmp_counter: source of the temporary names #<hex> in @workdir
 * @upper_locked: the upper dir carries this union's in-use mark (the
 *	work dir's is released with @workbase)
 * @rename_whiteout: the upper filesystem supports RENAME_WHITEOUT
 *	(probed at mount; the part 2 recipes choose by it)
 * @same_fs: both layers on one filesystem: inode numbers are not mapped
 * @whiteout_lock: protects @whiteout
 * @whiteout: the shared whiteout work/#whiteout, which new whiteouts are
 *	hard links of; NULL until the first one is needed
 */
struct ul_fs {
	struct ul_config config;
	struct vfsmount *lower_mnt;
	struct vfsmount *upper_mnt;
	struct dentry *workbase;
	struct dentry *workdir;
	const struct cred *creator_cred;
	char *upper_prefix;
	char *work_prefix;
	atomic_long_t tmp_counter;
	bool upper_locked;
	bool rename_whiteout;
	bool same_fs;
	spinlock_t whiteout_lock;	/* protects @whiteout */
	struct dentry *whiteout;
};

/* Bits of ul_inode->flags */
enum {
	/* The upper directory is opaque (trusted.overlay.opaque = y). */
	UL_OPAQUE,
	/* The upper object was copied up and records its origin. */
	UL_ORIGIN,
	/* The upper directory is marked impure (trusted.overlay.impure). */
	UL_IMPURE,
};

/**
 * struct ul_inode - the union inode and the real objects behind it
 * @__upper: the upper object; NULL until the object is copied up. Set once,
 *	with a release store, under @lock; read with ul_upper().
 * @lower: the visible lower object: for a lower-only object or a merged
 *	directory; NULL when there is none or it is hidden
 * @key: the real inode this union inode is hashed on (the topmost one);
 *	compared, never dereferenced, by the inode hash lookup
 * @flags: UL_OPAQUE, UL_ORIGIN, UL_IMPURE
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
	struct dentry *lower;
	struct inode *key;
	unsigned long flags;
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

static inline struct dentry *ul_dentry_lower(const struct dentry *dentry)
{
	return UL_E(dentry)->lower;
}

/* The topmost real object: the upper one if there is one, else the lower. */
static inline struct dentry *ul_real(const struct ul_inode *ui)
{
	struct dentry *upper = ul_upper(ui);

	return upper ? upper : ui->lower;
}

static inline struct inode *ul_real_inode(const struct inode *inode)
{
	struct dentry *real = ul_real(UL_I(inode));

	return real ? d_inode(real) : NULL;
}

/* The real path of the topmost object of a union dentry. */
static inline void ul_real_path(const struct dentry *dentry, struct path *path)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct ul_inode *ui = UL_E(dentry);
	struct dentry *upper = ul_upper(ui);

	path->mnt = upper ? ufs->upper_mnt : ufs->lower_mnt;
	path->dentry = upper ? upper : ui->lower;
}

static inline struct user_namespace *ul_upper_userns(const struct ul_fs *ufs)
{
	return mnt_user_ns(ufs->upper_mnt);
}

static inline struct user_namespace *ul_lower_userns(const struct ul_fs *ufs)
{
	return mnt_user_ns(ufs->lower_mnt);
}

/*
 * Bits of a union dentry's d_fsdata: what is known of its name (not of
 * its object, which hard links share).
 *
 * UL_D_LOWER_NAME: the lower parent directory holds this name (visible or
 * hidden); removing or renaming the union object needs a whiteout.
 * UL_D_WHITEOUT_SEEN: a negative union dentry whose upper name was last
 * seen holding a whiteout (by lookup, or made by an unlink or rmdir): a
 * create there starts with recipe 2. Only a hint: every recipe looks the
 * upper name up again under its locks.
 */
#define UL_D_LOWER_NAME		1UL
#define UL_D_WHITEOUT_SEEN	2UL

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
	ul_set_dentry_flag(dentry, UL_D_LOWER_NAME, lower);
}

static inline bool ul_has_lower_name(const struct dentry *dentry)
{
	return ul_dentry_flag(dentry, UL_D_LOWER_NAME);
}

/* A whiteout: a character device 0/0 (d_is_whiteout() is never set in 6.1). */
static inline bool ul_is_whiteout(const struct dentry *real)
{
	struct inode *inode = real ? d_inode(real) : NULL;

	return inode && IS_WHITEOUT(inode);
}

#endif /* _UNIONLITE_H */
