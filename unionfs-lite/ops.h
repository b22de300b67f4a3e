/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unionlite: the functions the files offer each other, the files in
 * layers, bottom up: each file calls only the files listed before it.
 * The operation tables (ul_*_iops, ul_*_fops, ul_xattr_handlers) are the
 * one reference upward: inode.c gives them to each new union inode.
 */
#ifndef _UNIONLITE_OPS_H
#define _UNIONLITE_OPS_H

#include "unionlite.h"
#include "testing.h"

struct fileattr;
struct kstat;
struct posix_acl;

/*
 * What to create: a new object, or a hard link to @hardlink. An object
 * made in the work dir gets @uid, @gid, @mode and the ACLs given here,
 * and with @like the xattrs and times of that upper object.
 */
struct ul_cattr {
	umode_t mode;
	dev_t rdev;
	const char *link;
	struct dentry *hardlink;
	kuid_t uid;
	kgid_t gid;
	struct posix_acl *acl;
	struct posix_acl *default_acl;
	struct dentry *like;
};

/* util.c: credentials, write access, the opaque mark, fault injection */
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
int ul_fault_rename(void);
int ul_fault_link(void);
int ul_fault_redirect(void);
int ul_fault_inode(void);
int ul_fault_origin(void);
void ul_fault_init(void);
void ul_fault_exit(void);
#else
static inline int ul_fault_rename(void) { return 0; }
static inline int ul_fault_link(void) { return 0; }
static inline int ul_fault_redirect(void) { return 0; }
static inline int ul_fault_inode(void) { return 0; }
static inline int ul_fault_origin(void) { return 0; }
static inline void ul_fault_init(void) { }
static inline void ul_fault_exit(void) { }
#endif
const struct cred *ul_override_creds(struct super_block *sb);
int ul_want_write(struct super_block *sb);
void ul_drop_write(struct super_block *sb);
int ul_sync_status(struct ul_fs *ufs);
bool ul_aufs_name(const struct ul_fs *ufs, const char *name, unsigned int len);
int ul_aufs_marked(struct ul_idmap *idmap, struct dentry *dir,
		   const char *name, unsigned int len);
int ul_check_opaque(struct ul_idmap *idmap, struct dentry *real);

/* upper.c: the only code that changes the upper layer and the work dir */
int ul_do_create(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry,
		 umode_t mode);
int ul_do_mkdir(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry,
		umode_t mode);
int ul_do_mknod(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry,
		umode_t mode, dev_t rdev);
int ul_do_whiteout(struct ul_fs *ufs, struct dentry *dir,
		   struct dentry *dentry);
void ul_put_shared_whiteout(struct ul_fs *ufs);
int ul_do_symlink(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry,
		  const char *target);
int ul_do_link(struct ul_fs *ufs, struct dentry *old, struct dentry *dir,
	       struct dentry *dentry);
int ul_do_unlink(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry);
int ul_do_rmdir(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry);
int ul_do_rename(struct ul_fs *ufs, struct dentry *olddir,
		 struct dentry *olddentry, struct dentry *newdir,
		 struct dentry *newdentry, unsigned int flags);
int ul_do_setxattr(struct ul_fs *ufs, struct dentry *dentry, const char *name,
		   const void *value, size_t size, int flags);
int ul_do_removexattr(struct ul_fs *ufs, struct dentry *dentry,
		      const char *name);
int ul_do_set_acl(struct ul_fs *ufs, struct dentry *dentry, const char *name,
		  struct posix_acl *acl);
int ul_do_setattr(struct ul_fs *ufs, struct dentry *dentry,
		  struct iattr *attr);
int ul_do_fileattr_set(struct ul_fs *ufs, struct dentry *dentry,
		       struct fileattr *fa);
int ul_do_copy_data(struct ul_fs *ufs, const struct path *from,
		    struct dentry *to, struct file *tofile, loff_t len);
int ul_make_object(struct ul_fs *ufs, struct dentry *dir,
		   struct dentry *dentry, const struct ul_cattr *attr);
struct dentry *ul_made(struct ul_fs *ufs, struct dentry *dir,
		       struct dentry *dentry);
struct file *ul_do_tmpfile(struct ul_fs *ufs, umode_t mode);
struct dentry *ul_lookup_temp(struct ul_fs *ufs);
struct dentry *ul_create_temp(struct ul_fs *ufs, const struct ul_cattr *attr);
void ul_cleanup(struct ul_fs *ufs, struct dentry *dir, struct dentry *dentry);
void ul_cleanup_temp(struct ul_fs *ufs, struct dentry *temp);
struct dentry *ul_lock_work_upper(struct ul_fs *ufs, struct dentry *upperdir);
void ul_unlock_work_upper(struct ul_fs *ufs, struct dentry *upperdir);
int ul_mark_volatile(struct ul_fs *ufs);
int ul_clean_workdir(struct ul_fs *ufs, struct dentry *work,
		     unsigned long *count);
int ul_remove_whiteouts(struct ul_fs *ufs, struct dentry *dir);

/* ino.c: inode numbers, origins, the impure mark */
void ul_init_ino_map(struct ul_fs *ufs);
int ul_object_ino(struct super_block *sb, struct dentry *upper,
		  const struct ul_lower *lower, bool opaque, u64 *ino,
		  bool *origin);
int ul_set_origin(struct ul_fs *ufs, const struct ul_lower *lo,
		  struct dentry *temp);
bool ul_has_origin(struct ul_idmap *idmap, struct dentry *real);
int ul_set_impure(struct ul_fs *ufs, struct inode *dir, struct dentry *upperdir);
bool ul_is_impure(struct ul_fs *ufs, struct dentry *upperdir);
u64 ul_lower_d_ino(struct ul_fs *ufs, const struct ul_layer *layer, u64 ino);
u64 ul_upper_d_ino(struct ul_fs *ufs, u64 ino);

/* inode.c: union inodes */
void ul_put_lowers(struct ul_lower *lowers, unsigned int num);
struct inode *ul_get_inode(struct super_block *sb, struct dentry *upper,
			   struct ul_lower *lowers, unsigned int numlower,
			   bool opaque, char *redirect);
void ul_rehash_inode(struct inode *inode, struct inode *key);
void ul_copyattr(struct inode *inode);
int ul_write_protattr(struct ul_fs *ufs, struct dentry *upper,
		      unsigned int prot);
char *ul_write_redirect(struct ul_fs *ufs, struct dentry *upper,
			const char *redirect);
void ul_dir_renumbered(struct inode *dir);

/* copy_up.c */
int ul_copy_up(struct dentry *dentry);
int ul_copy_up_nodata(struct dentry *dentry);
int ul_copy_up_data(struct dentry *dentry);
int ul_copy_up_redirect(struct dentry *dentry, const char *redirect);
int ul_copy_xattrs(struct ul_fs *ufs, struct ul_idmap *idmap,
		   struct dentry *from, struct dentry *temp);

/* namei.c */
struct dentry *ul_lookup(struct inode *dir, struct dentry *dentry,
			 unsigned int flags);
int ul_dir_entry_ino(struct super_block *sb, struct ul_inode *pui,
		     struct dentry *upper, u64 *ino);
bool ul_lower_name(struct dentry *dentry);

/* readdir.c */
extern const struct file_operations ul_dir_fops;
int ul_check_empty(struct dentry *dentry, bool *whiteouts);
void ul_dir_cache_release(struct inode *inode);

/* file.c */
extern const struct file_operations ul_file_fops;

/* attr.c: the operations of every union inode */
struct posix_acl *ul_get_inode_acl(struct inode *inode, int type, bool rcu);
#ifndef UL_ACL_XATTRS
struct posix_acl *ul_get_acl(struct ul_idmap *idmap, struct dentry *dentry,
			     int type);
int ul_set_acl(struct ul_idmap *idmap, struct dentry *dentry,
	       struct posix_acl *acl, int type);
#endif
int ul_fileattr_get(struct dentry *dentry, struct fileattr *fa);
int ul_fileattr_set(struct ul_idmap *idmap, struct dentry *dentry,
		    struct fileattr *fa);
int ul_permission(struct ul_idmap *idmap, struct inode *inode, int mask);
int ul_getattr(struct ul_idmap *idmap, const struct path *path,
	       struct kstat *stat, u32 request_mask, unsigned int query_flags);
int ul_setattr(struct ul_idmap *idmap, struct dentry *dentry,
	       struct iattr *attr);
ssize_t ul_listxattr(struct dentry *dentry, char *list, size_t size);
extern const struct xattr_handler *ul_xattr_handlers[];
extern const struct inode_operations ul_file_iops;
extern const struct inode_operations ul_symlink_iops;

/* dir.c */
extern const struct inode_operations ul_dir_iops;

#endif /* _UNIONLITE_OPS_H */
