// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: the mount (fs_context API), the mount-time checks and probes,
 * the work dir cleanup, the super block operations and module init.
 */

#include <linux/capability.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include <linux/xattr.h>
#include "ops.h"

static struct kmem_cache *ul_inode_cachep;

/* ---- super block operations ---- */

static struct inode *ul_alloc_inode(struct super_block *sb)
{
	struct ul_inode *ui = alloc_inode_sb(sb, ul_inode_cachep, GFP_KERNEL);

	if (!ui)
		return NULL;
	ui->__upper = NULL;
	ui->lower = (struct ul_lower){ };
	ui->below = NULL;
	ui->numlower = 0;
	ui->key = NULL;
	ui->flags = 0;
	ui->redirect = NULL;
	ui->prot = 0;
	atomic64_set(&ui->version, 0);
	ui->dcache = NULL;
	return &ui->vfs_inode;
}

static void ul_free_inode(struct inode *inode)
{
	kfree(UL_I(inode)->redirect);
	kmem_cache_free(ul_inode_cachep, UL_I(inode));
}

static void ul_evict_inode(struct inode *inode)
{
	struct ul_inode *ui = UL_I(inode);

	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	ul_dir_cache_release(inode);
	dput(ui->__upper);
	dput(ui->lower.dentry);
	ul_put_lowers(ui->below, ui->numlower ? ui->numlower - 1 : 0);
	kfree(ui->below);
}

/*
 * syncfs() and sync() of the union reach the upper filesystem; in a
 * volatile union they report its writeback errors since the mount
 * instead. syncfs() takes its result from the union's own error state,
 * not from this return, so an error is recorded there too.
 */
static int ul_sync_fs(struct super_block *sb, int wait)
{
	struct ul_fs *ufs = UL_FS(sb);
	struct super_block *upper_sb;
	int err;

	if (!ufs->upper_mnt)
		return 0;
	err = ul_sync_status(ufs);
	if (err < 0) {
		errseq_set(&sb->s_wb_err, -EIO);
		return -EIO;
	}
	/* sync_filesystem() of the upper does both passes at once */
	if (!err || !wait)
		return 0;
	upper_sb = ufs->upper_mnt->mnt_sb;
	down_read(&upper_sb->s_umount);
	err = sync_filesystem(upper_sb);
	up_read(&upper_sb->s_umount);
	return err;
}

/* The upper filesystem's, or in a union without one, the topmost lower's */
static int ul_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct vfsmount *mnt = ufs->upper_mnt ?: ufs->layers[0].mnt;
	struct path path = { .mnt = mnt, .dentry = mnt->mnt_root };
	const struct cred *old_cred;
	int err;

	old_cred = ul_override_creds(dentry->d_sb);
	err = vfs_statfs(&path, buf);
	revert_creds(old_cred);
	if (!err)
		buf->f_type = UL_SUPER_MAGIC;
	return err;
}

/*
 * A path option as mount options write it: a backslash before each comma,
 * colon and backslash of each of the @num NUL-separated @paths, the paths
 * joined by colons, so that the value mounts again. seq_show_option()
 * then escapes what /proc/mounts cannot hold (commas, blanks and
 * backslashes as octal), which getmntent() and findmnt undo.
 */
static void ul_show_paths(struct seq_file *m, const char *key,
			  const char *paths, unsigned int num)
{
	size_t len = 0;
	const char *p;
	unsigned int i;
	char *esc, *q;

	if (!paths)
		return;
	for (i = 0, p = paths; i < num; i++, p += strlen(p) + 1)
		len += strlen(p) + 1;
	esc = kmalloc(2 * len, GFP_KERNEL);
	if (!esc) {
		seq_puts(m, ",");
		seq_puts(m, key);
		seq_puts(m, "=?");	/* says something is missing */
		return;
	}
	q = esc;
	for (i = 0, p = paths; i < num; i++, p++) {
		if (i)
			*q++ = ':';
		for (; *p; p++) {
			if (*p == ',' || *p == ':' || *p == '\\')
				*q++ = '\\';
			*q++ = *p;
		}
	}
	*q = '\0';
	seq_show_option(m, key, esc);
	kfree(esc);
}

/* redirect_dir=, indexed by enum ul_redirect_mode */
static const struct constant_table ul_redirect_names[] = {
	{ "off",	UL_REDIRECT_OFF },
	{ "follow",	UL_REDIRECT_FOLLOW },
	{ "nofollow",	UL_REDIRECT_NOFOLLOW },
	{ "on",		UL_REDIRECT_ON },
	{}
};

static int ul_show_options(struct seq_file *m, struct dentry *root)
{
	struct ul_fs *ufs = UL_FS(root->d_sb);
	int redirect;

	ul_show_paths(m, "lowerdir", ufs->config.lowerdir,
		      ufs->config.numlower);
	ul_show_paths(m, "upperdir", ufs->config.upperdir, 1);
	ul_show_paths(m, "workdir", ufs->config.workdir, 1);
	if (ufs->config.default_permissions)
		seq_puts(m, ",default_permissions");
	/*
	 * as overlayfs: what differs from the default; 6.12's also shows
	 * the redirect_dir=on that metacopy=on turned on
	 */
	redirect = ufs->config.redirect;
	if (ufs->config.metacopy && ufs->upper_mnt && UL_SHOW_METACOPY_REDIRECT)
		redirect = UL_REDIRECT_ON;
	if (redirect != UL_REDIRECT_OFF &&
	    (redirect != UL_REDIRECT_FOLLOW || UL_SHOW_REDIRECT_FOLLOW))
		seq_printf(m, ",redirect_dir=%s",
			   ul_redirect_names[redirect].name);
	if (ufs->config.xino != UL_XINO_UNSET && !ufs->same_fs)
		seq_printf(m, ",xino=%s",
			   ufs->config.xino == UL_XINO_ON ? "on" : "auto");
	if (ufs->config.metacopy)
		seq_puts(m, ",metacopy=on");
	if (ufs->config.no_sync)
		seq_puts(m, ",volatile");
	if (ufs->config.aufs_whiteouts)
		seq_puts(m, ",aufs_whiteouts");
	return 0;
}

static const struct super_operations ul_super_ops = {
	.alloc_inode	= ul_alloc_inode,
	.free_inode	= ul_free_inode,
	.evict_inode	= ul_evict_inode,
	.drop_inode	= generic_delete_inode,
	.sync_fs	= ul_sync_fs,
	.statfs		= ul_statfs,
	.show_options	= ul_show_options,
};

/* ---- options ---- */

enum {
	UL_OPT_LOWERDIR,
	UL_OPT_UPPERDIR,
	UL_OPT_WORKDIR,
	UL_OPT_DEFAULT_PERMISSIONS,
	UL_OPT_REDIRECT_DIR,
	UL_OPT_INDEX,
	UL_OPT_METACOPY,
	UL_OPT_NFS_EXPORT,
	UL_OPT_XINO,
	UL_OPT_VOLATILE,
	UL_OPT_AUFS_WHITEOUTS,
};

/*
 * overlayfs's names for what unionlite does one way only: index= and
 * nfs_export= take any value ul_parse_param() checks, so that "on" is
 * refused by name rather than as an unknown option.
 */

static const struct fs_parameter_spec ul_fs_parameters[] = {
	fsparam_string("lowerdir", UL_OPT_LOWERDIR),
	fsparam_string("upperdir", UL_OPT_UPPERDIR),
	fsparam_string("workdir", UL_OPT_WORKDIR),
	fsparam_flag("default_permissions", UL_OPT_DEFAULT_PERMISSIONS),
	fsparam_string("redirect_dir", UL_OPT_REDIRECT_DIR),
	fsparam_string("index", UL_OPT_INDEX),
	fsparam_string("metacopy", UL_OPT_METACOPY),
	fsparam_string("nfs_export", UL_OPT_NFS_EXPORT),
	fsparam_string("xino", UL_OPT_XINO),
	fsparam_flag("volatile", UL_OPT_VOLATILE),
	fsparam_flag_no("aufs_whiteouts", UL_OPT_AUFS_WHITEOUTS),
	{}
};

/*
 * Remove the escaping backslashes of a path option in place: "\x" stands
 * for x (a comma, a colon, a backslash). A backslash at the end escapes
 * nothing and is refused. In lowerdir= (@layers) an unescaped colon
 * separates layers: it becomes a NUL, and no layer may be empty.
 *
 * Return: the number of paths (1 unless @layers), or a negative errno.
 */
static int ul_unescape_path(struct fs_context *fc, const char *key,
			    char *path, bool layers)
{
	unsigned int num = 1;
	char *p, *q;

	if (!*path)
		return invalfc(fc, "%s: empty path", key);
	for (p = path; *p; p++) {
		if (*p == '\\' && !p[1])
			return invalfc(fc, "%s '%s': ends with a lone backslash",
				       key, path);
		if (*p == '\\') {
			p++;
		} else if (*p == ':' && layers) {
			if (p == path || !p[1] || p[1] == ':')
				return invalfc(fc, "%s '%s': a layer is empty",
					       key, path);
			num++;
		}
	}
	if (num > UL_MAX_LOWER)
		return invalfc(fc, "%s: %u layers, at most %d", key, num,
			       UL_MAX_LOWER);
	for (p = q = path; *p; p++) {
		if (*p == '\\')
			p++;
		else if (*p == ':' && layers)
			*p = '\0';
		*q++ = *p;
	}
	*q = '\0';
	return num;
}

static int ul_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct ul_fs *ufs = fc->s_fs_info;
	struct fs_parse_result result;
	char **slot;
	int opt, err;

	opt = fs_parse(fc, ul_fs_parameters, param, &result);
	if (opt < 0)
		return opt;	/* -ENOPARAM: the VFS names the unknown option */

	switch (opt) {
	case UL_OPT_DEFAULT_PERMISSIONS:
		/* as on overlayfs 6.1: accepted and shown, nothing changes */
		ufs->config.default_permissions = true;
		return 0;
	case UL_OPT_VOLATILE:
		ufs->config.no_sync = true;
		return 0;
	case UL_OPT_AUFS_WHITEOUTS:
		ufs->config.aufs_whiteouts = !result.negated;
		return 0;
	case UL_OPT_REDIRECT_DIR:
		opt = lookup_constant(ul_redirect_names, param->string, -1);
		if (opt < 0)
			return invalfc(fc, "bad mount option \"redirect_dir=%s\"",
				       param->string);
		ufs->config.redirect = opt;
		ufs->config.redirect_set = true;
		return 0;
	case UL_OPT_METACOPY:
		if (strcmp(param->string, "on") && strcmp(param->string, "off"))
			return invalfc(fc, "bad mount option \"metacopy=%s\"",
				       param->string);
		ufs->config.metacopy = !strcmp(param->string, "on");
		return 0;
	case UL_OPT_INDEX:
	case UL_OPT_NFS_EXPORT:
		if (!strcmp(param->string, "off"))
			return 0;
		return invalfc(fc, "%s=%s: unionlite has only %s=off",
			       param->key, param->string, param->key);
	case UL_OPT_XINO:
		if (!strcmp(param->string, "on"))
			ufs->config.xino = UL_XINO_ON;
		else if (!strcmp(param->string, "auto"))
			ufs->config.xino = UL_XINO_AUTO;
		else
			return invalfc(fc, "xino=%s: unionlite has only xino=on (on or auto)",
				       param->string);
		return 0;
	case UL_OPT_LOWERDIR:
		slot = &ufs->config.lowerdir;
		break;
	case UL_OPT_UPPERDIR:
		slot = &ufs->config.upperdir;
		break;
	case UL_OPT_WORKDIR:
		slot = &ufs->config.workdir;
		break;
	default:
		return -EINVAL;
	}
	if (*slot)
		return invalfc(fc, "option '%s' given more than once",
			       param->key);
	err = ul_unescape_path(fc, param->key, param->string,
			       opt == UL_OPT_LOWERDIR);
	if (err < 0)
		return err;
	if (opt == UL_OPT_LOWERDIR)
		ufs->config.numlower = err;
	*slot = param->string;
	param->string = NULL;
	return 0;
}

/* Log a mount error (in the fs_context log or the kernel log) and return it. */
static __printf(3, 4) int ul_fail(struct fs_context *fc, int err,
				  const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	errorfc(fc, "%pV", &vaf);
	va_end(args);
	return err;
}

/* ---- mount-time checks ---- */

/* Resolve a layer's directory; on error @path holds nothing. */
static int ul_get_dir(struct fs_context *fc, const char *opt,
		      const char *name, struct path *path)
{
	int err;

	err = kern_path(name, LOOKUP_FOLLOW, path);
	if (err) {
		errorfc(fc, "%s '%s': cannot resolve (%d)", opt, name, err);
		return err;
	}
	if (ul_dentry_weird(path->dentry)) {
		errorfc(fc,
			"%s '%s': filesystem not supported (automount or case-insensitive)",
			opt, name);
		path_put(path);
		*path = (struct path){ };
		return -EINVAL;
	}
	if (!d_is_dir(path->dentry)) {
		errorfc(fc, "%s '%s' is not a directory", opt, name);
		path_put(path);
		*path = (struct path){ };
		return -ENOTDIR;
	}
	return 0;
}

/* Do the directories @a and @b share a subtree of one filesystem? */
static bool ul_overlap(const struct path *a, const struct path *b)
{
	if (a->dentry->d_sb != b->dentry->d_sb)
		return false;
	return is_subdir(a->dentry, b->dentry) ||
	       is_subdir(b->dentry, a->dentry);
}

/*
 * The checks between the layers. @lower holds @ufs->config.numlower paths;
 * @upper and @work are NULL in a union without upper layer.
 */
static int ul_check_layers(struct fs_context *fc, const struct ul_fs *ufs,
			   const struct path *lower, const struct path *upper,
			   const struct path *work)
{
	unsigned int i, j;

	/*
	 * The union mirrors each real inode's i_uid/i_gid and calls the
	 * layers' operations without an idmapping. Over an idmapped layer
	 * the union would show other owners than the layer shows, and so
	 * let a caller do what the layer refuses (a file the layer shows as
	 * owned by 0 would be chmod-able by its on-disk owner through the
	 * union). Refuse rather than honour half of it.
	 */
	for (i = 0; i < ufs->config.numlower; i++) {
		if (is_idmapped_mnt(lower[i].mnt))
			return invalfc(fc, "lowerdir layer %u: idmapped mount, not supported",
				       i + 1);
		for (j = 0; j < i; j++) {
			if (lower[i].dentry == lower[j].dentry ||
			    ul_overlap(&lower[i], &lower[j]))
				return ul_fail(fc, -ELOOP, "lowerdir: layers %u and %u %s",
					       j + 1, i + 1,
					       lower[i].dentry == lower[j].dentry ?
					       "are the same directory" : "overlap");
		}
	}
	if (!upper)
		return 0;
	if (is_idmapped_mnt(upper->mnt))
		return invalfc(fc, "upperdir is on an idmapped mount: not supported");
	if (upper->mnt->mnt_sb != work->mnt->mnt_sb)
		return ul_fail(fc, -EXDEV, "upperdir and workdir are on different filesystems");
	if (upper->mnt != work->mnt)
		return ul_fail(fc, -EXDEV, "upperdir and workdir are on different mounts");
	if (upper->dentry == work->dentry)
		return invalfc(fc, "upperdir and workdir are the same directory");
	if (is_subdir(work->dentry, upper->dentry))
		return invalfc(fc, "workdir is inside upperdir");
	if (is_subdir(upper->dentry, work->dentry))
		return invalfc(fc, "upperdir is inside workdir");
	for (i = 0; i < ufs->config.numlower; i++) {
		const char *what;

		if (ul_overlap(&lower[i], upper))
			what = "upperdir";
		else if (ul_overlap(&lower[i], work))
			what = "workdir";
		else
			continue;
		if (ufs->config.numlower == 1)
			return ul_fail(fc, -ELOOP, "lowerdir and %s overlap",
				       what);
		return ul_fail(fc, -ELOOP, "lowerdir layer %u and %s overlap",
			       i + 1, what);
	}
	if (__mnt_is_readonly(upper->mnt))
		return ul_fail(fc, -EROFS, "upperdir is on a read-only mount or filesystem");
	return 0;
}

/* ---- work dir setup and probes ---- */

struct ul_dtype_ctx {
	struct dir_context ctx;
	bool seen;	/* a real entry (not . or ..) was read */
	bool d_type;	/* ... and it had a d_type */
};

static bool ul_dtype_actor(struct dir_context *ctx, const char *name, int len,
			   loff_t pos, u64 ino, unsigned int type)
{
	struct ul_dtype_ctx *dc = container_of(ctx, struct ul_dtype_ctx, ctx);

	/* . and .. come with DT_DIR even where d_type is not supported */
	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	dc->seen = true;
	if (type != DT_UNKNOWN)
		dc->d_type = true;
	return true;
}

/* Does the upper filesystem fill in d_type? (@dir holds "work") */
static int ul_probe_d_type(struct ul_fs *ufs, struct dentry *dir, bool *ok)
{
	struct ul_dtype_ctx dc = { .ctx.actor = ul_dtype_actor };
	struct path path = { .mnt = ufs->upper_mnt, .dentry = dir };
	struct file *file;
	int err;

	file = dentry_open(&path, O_RDONLY | O_DIRECTORY, current_cred());
	if (IS_ERR(file))
		return PTR_ERR(file);
	err = iterate_dir(file, &dc.ctx);
	fput(file);
	*ok = dc.seen && dc.d_type;
	return err;
}

/*
 * Probe trusted.* xattrs, RENAME_EXCHANGE, RENAME_WHITEOUT and O_TMPFILE
 * in the work dir, leaving it empty.
 */
static int ul_probe_upper(struct fs_context *fc, struct ul_fs *ufs)
{
	static const struct ul_cattr dir_attr = { .mode = S_IFDIR | 0700 };
	static const struct ul_cattr file_attr = { .mode = S_IFREG | 0600 };
	struct dentry *wdir = ufs->workdir;
	struct dentry *dir, *file, *target;
	char oldname[24];
	int err;

	dir = ul_create_temp(ufs, &dir_attr);
	if (IS_ERR(dir))
		return ul_fail(fc, PTR_ERR(dir), "cannot create a directory in the work dir (%ld)",
			       PTR_ERR(dir));

	err = ul_do_setxattr(ufs, dir, UL_XATTR_OPAQUE, "y", 1, 0);
	if (err) {
		if (err == -EOPNOTSUPP)
			errorfc(fc, "upper filesystem does not support trusted.* xattrs");
		else
			errorfc(fc, "cannot set trusted.* xattrs on upper filesystem (%d)",
				err);
		goto out_cleanup_dir;
	}

	file = ul_create_temp(ufs, &file_attr);
	err = PTR_ERR(file);
	if (IS_ERR(file)) {
		errorfc(fc, "cannot create a file in the work dir (%d)", err);
		goto out_cleanup_dir;
	}

	inode_lock_nested(d_inode(wdir), I_MUTEX_PARENT);
	err = ul_do_rename(ufs, wdir, dir, wdir, file, RENAME_EXCHANGE);
	if (err) {
		inode_unlock(d_inode(wdir));
		if (err == -EINVAL || err == -EOPNOTSUPP) {
			err = -EOPNOTSUPP;
			errorfc(fc, "upper filesystem does not support RENAME_EXCHANGE");
		} else {
			errorfc(fc, "RENAME_EXCHANGE probe failed (%d)", err);
		}
		goto out_cleanup_file;
	}

	/* RENAME_WHITEOUT: remembered, not required (part 2 chooses by it) */
	target = ul_lookup_temp(ufs);
	if (IS_ERR(target)) {
		err = PTR_ERR(target);
		inode_unlock(d_inode(wdir));
		goto out_cleanup_file;
	}
	strscpy(oldname, file->d_name.name, sizeof(oldname));
	err = ul_do_rename(ufs, wdir, file, wdir, target, RENAME_WHITEOUT);
	ufs->rename_whiteout = !err;
	if (!err) {
		/* file moved to target's name and left a whiteout behind */
		struct dentry *wh = lookup_one(ul_upper_idmap(ufs), oldname,
					       wdir, strlen(oldname));

		if (!IS_ERR(wh)) {
			if (!ul_is_whiteout(wh))
				ufs->rename_whiteout = false;
			if (d_really_is_positive(wh))
				ul_cleanup(ufs, wdir, wh);
			dput(wh);
		}
	}
	err = 0;
	dput(target);
	inode_unlock(d_inode(wdir));

	/* O_TMPFILE: remembered; without it a copy is built under a name */
	if (!ul_test_no_tmpfile()) {
		struct file *tmp = ul_do_tmpfile(ufs, S_IFREG);

		ufs->tmpfile = !IS_ERR(tmp);
		if (ufs->tmpfile)
			fput(tmp);
		else
			pr_warn("unionlite: upper filesystem has no O_TMPFILE (%ld)\n",
				PTR_ERR(tmp));
	}

out_cleanup_file:
	ul_cleanup_temp(ufs, file);
out_cleanup_dir:
	ul_cleanup_temp(ufs, dir);
	return err;
}

/*
 * The work dir's own mode and ACLs, put back to none: what is built there
 * gets the owner, mode and ACLs the union gives it, never ones inherited
 * from the work dir (a default ACL on workdir would reach every copy),
 * and nobody but the mounter looks in. Only what is there is removed,
 * so a fresh work dir takes no step.
 */
static int ul_reset_workdir(struct ul_fs *ufs, struct dentry *work)
{
	static const char *const acls[] = {
		XATTR_NAME_POSIX_ACL_DEFAULT, XATTR_NAME_POSIX_ACL_ACCESS,
	};
	struct iattr attr = { .ia_valid = ATTR_MODE, .ia_mode = S_IFDIR };
	struct posix_acl *acl;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(acls); i++) {
		acl = vfs_get_acl(ul_upper_idmap(ufs), work, acls[i]);
		if (acl == ERR_PTR(-ENODATA) || acl == ERR_PTR(-EOPNOTSUPP))
			continue;
		if (IS_ERR(acl))
			return PTR_ERR(acl);
		posix_acl_release(acl);
		err = ul_do_set_acl(ufs, work, acls[i], NULL);
		if (err)
			return err;
	}
	if (!(d_inode(work)->i_mode & S_IALLUGO))
		return 0;
	inode_lock(d_inode(work));
	err = ul_do_setattr(ufs, work, &attr);
	inode_unlock(d_inode(work));
	return err;
}

/*
 * <workdir>/work made anew at each mount, as overlayfs makes it: what a
 * crash left in the old one removed, then the old one (or a non-directory
 * in its place), then a new one with mode 0, reset (ul_reset_workdir()).
 * *@created says whether a work dir was made (and is to be removed again
 * if the mount fails).
 */
static struct dentry *ul_get_workdir(struct ul_fs *ufs, bool *created)
{
	struct dentry *base = ufs->workbase;
	unsigned long count = 0;
	struct dentry *work;
	int err = 0;

	*created = false;
	inode_lock_nested(d_inode(base), I_MUTEX_PARENT);
	work = lookup_one(ul_upper_idmap(ufs), UL_WORK_NAME, base,
			  strlen(UL_WORK_NAME));
	if (IS_ERR(work))
		goto out_unlock;
	if (d_really_is_positive(work) && d_is_dir(work)) {
		inode_unlock(d_inode(base));
		if (ul_test_skip_work_cleanup()) {
			pr_warn("unionlite: test mode skip_work_cleanup: %s/%s not emptied\n",
				ufs->config.workdir, UL_WORK_NAME);
			goto out_reset;
		}
		err = ul_clean_workdir(ufs, work, &count);
		if (count)
			pr_info("unionlite: removed %lu stale objects from %s/" UL_WORK_NAME "\n",
				count, ufs->config.workdir);
		if (err)
			goto out_dput;
		inode_lock_nested(d_inode(base), I_MUTEX_PARENT);
	}
	if (d_really_is_positive(work)) {
		/* the old work dir, or a non-directory in its place */
		err = d_is_dir(work) ? ul_do_rmdir(ufs, base, work) :
				       ul_do_unlink(ufs, base, work);
		if (!err) {
			dput(work);
			work = lookup_one(ul_upper_idmap(ufs), UL_WORK_NAME,
					  base, strlen(UL_WORK_NAME));
			if (IS_ERR(work))
				goto out_unlock;
		}
	}
	if (!err)
		err = ul_do_mkdir(ufs, base, work, 0);
	if (!err)
		work = ul_made(ufs, base, work);
	inode_unlock(d_inode(base));
	if (err)
		goto out_dput;
	if (IS_ERR(work))
		return work;
	*created = true;
out_reset:
	err = ul_reset_workdir(ufs, work);
	if (!err)
		return work;
	if (*created) {
		inode_lock_nested(d_inode(base), I_MUTEX_PARENT);
		ul_cleanup(ufs, base, work);
		inode_unlock(d_inode(base));
		*created = false;
	}
out_dput:
	dput(work);
	return ERR_PTR(err);

out_unlock:
	inode_unlock(d_inode(base));
	return work;
}

/*
 * The work dir, then the probes of the upper filesystem. As on overlayfs,
 * a work dir that cannot be made or emptied (an immutable workdir, a
 * read-only directory) leaves the union read-only, with a warning; an
 * upper filesystem that lacks what the recipes need is refused.
 */
static int ul_make_workdir(struct fs_context *fc, struct ul_fs *ufs)
{
	struct dentry *base = ufs->workbase;
	struct dentry *work;
	bool created, d_type_ok;
	int err;

	work = ul_get_workdir(ufs, &created);
	/* work/incompat not empty: as overlayfs, no mount */
	if (work == ERR_PTR(-EINVAL))
		return -EINVAL;
	if (IS_ERR(work)) {
		pr_warn("unionlite: cannot make the work dir %s/%s (%ld): mounting read-only\n",
			ufs->config.workdir, UL_WORK_NAME, PTR_ERR(work));
		return 0;
	}
	ufs->workdir = work;

	err = ul_probe_d_type(ufs, base, &d_type_ok);
	if (!err && !d_type_ok) {
		err = -EOPNOTSUPP;
		errorfc(fc, "upper filesystem does not support d_type");
	}
	if (!err)
		err = ul_probe_upper(fc, ufs);
	if (!err && ufs->config.no_sync) {
		err = ul_mark_volatile(ufs);
		if (err)
			errorfc(fc, "cannot create %s/%s/%s/volatile/dirty (%d)",
				ufs->config.workdir, UL_WORK_NAME,
				UL_INCOMPAT_NAME, err);
	}
	if (!err)
		return 0;

	if (created) {
		inode_lock_nested(d_inode(base), I_MUTEX_PARENT);
		ul_cleanup(ufs, base, work);
		inode_unlock(d_inode(base));
	}
	ufs->workdir = NULL;
	dput(work);
	return err;
}

/* dentry_path_raw() of @dentry with @suffix appended, kmalloc()ed */
static char *ul_dentry_path(struct dentry *dentry, const char *suffix)
{
	char *buf, *path, *ret = NULL;

	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return NULL;
	path = dentry_path_raw(dentry, buf, PATH_MAX);
	if (!IS_ERR(path))
		ret = kasprintf(GFP_KERNEL, "%s%s", strcmp(path, "/") ? path : "",
				suffix);
	kfree(buf);
	return ret;
}

/* ---- super block setup ---- */

/* Mark the directory @dentry as a layer in use; false when it is already. */
static bool ul_inuse_trylock(struct dentry *dentry)
{
	struct inode *inode = d_inode(dentry);
	bool locked = false;

	spin_lock(&inode->i_lock);
	if (!(inode->i_state & I_OVL_INUSE)) {
		inode->i_state |= I_OVL_INUSE;
		locked = true;
	}
	spin_unlock(&inode->i_lock);
	return locked;
}

static void ul_inuse_unlock(struct dentry *dentry)
{
	struct inode *inode = d_inode(dentry);

	spin_lock(&inode->i_lock);
	WARN_ON(!(inode->i_state & I_OVL_INUSE));
	inode->i_state &= ~I_OVL_INUSE;
	spin_unlock(&inode->i_lock);
}

/* Clone the lower layers' mounts (read-only) into @ufs->layers. */
static int ul_setup_lower(struct fs_context *fc, struct ul_fs *ufs,
			  const struct path *lower)
{
	struct vfsmount *mnt;
	unsigned int i;

	ufs->layers = kcalloc(ufs->config.numlower, sizeof(*ufs->layers),
			      GFP_KERNEL);
	if (!ufs->layers)
		return -ENOMEM;
	for (i = 0; i < ufs->config.numlower; i++) {
		mnt = clone_private_mount(&lower[i]);
		if (IS_ERR(mnt))
			return ul_fail(fc, PTR_ERR(mnt),
				       "cannot clone lowerdir layer %u's mount (%ld)",
				       i + 1, PTR_ERR(mnt));
		/* a lower layer is never written through the union */
		mnt->mnt_flags |= MNT_READONLY | MNT_NOATIME;
		ufs->layers[i].mnt = mnt;
		ufs->layers[i].idx = i + 1;
		ufs->numlower = i + 1;
	}
	return 0;
}

static int ul_setup_layers(struct fs_context *fc, struct super_block *sb,
			   const struct path *lower, const struct path *upper,
			   const struct path *work)
{
	struct ul_fs *ufs = sb->s_fs_info;
	struct vfsmount *mnt;
	unsigned int i;
	int depth, err;

	depth = upper ? upper->mnt->mnt_sb->s_stack_depth : 0;
	for (i = 0; i < ufs->config.numlower; i++)
		depth = max(depth, lower[i].mnt->mnt_sb->s_stack_depth);
	if (++depth > FILESYSTEM_MAX_STACK_DEPTH)
		return invalfc(fc, "maximum fs stacking depth exceeded");
	sb->s_stack_depth = depth;

	if (upper) {
		mnt = clone_private_mount(upper);
		if (IS_ERR(mnt))
			return ul_fail(fc, PTR_ERR(mnt), "cannot clone the upperdir mount (%ld)",
				       PTR_ERR(mnt));
		ufs->upper_mnt = mnt;
		/*
		 * A volatile union reports the upper's writeback errors from
		 * now on; one nobody has seen yet might be a write the union
		 * would then never report. overlayfs's words.
		 */
		if (ufs->config.no_sync) {
			ufs->errseq = errseq_sample(&mnt->mnt_sb->s_wb_err);
			if (errseq_check(&mnt->mnt_sb->s_wb_err, ufs->errseq))
				return ul_fail(fc, -EIO,
					       "Cannot mount volatile when upperdir has an unseen error. Sync upperdir fs to clear state.");
		}
	}
	err = ul_setup_lower(fc, ufs, lower);
	if (err)
		return err;
	ul_init_ino_map(ufs);
	if (!upper)
		return 0;

	/*
	 * One union per upper and work dir: two unions writing one upper
	 * layer, or sharing one work dir (each empties it at mount), lose
	 * data. overlayfs marks its layers the same way (and, without
	 * index=on, only warns); the mark is shared, so neither mounts over
	 * a layer the other is using.
	 */
	if (!ul_inuse_trylock(upper->dentry))
		return ul_fail(fc, -EBUSY, "upperdir is in use by another mount");
	ufs->upper_locked = true;
	if (!ul_inuse_trylock(work->dentry))
		return ul_fail(fc, -EBUSY, "workdir is in use by another mount");
	ufs->workbase = dget(work->dentry);
	ufs->upper_prefix = ul_dentry_path(upper->dentry, "");
	ufs->work_prefix = ul_dentry_path(work->dentry, "/" UL_WORK_NAME);
	if (!ufs->upper_prefix || !ufs->work_prefix)
		return -ENOMEM;

	err = mnt_want_write(ufs->upper_mnt);
	if (err)
		return ul_fail(fc, err, "cannot write to upperdir (%d)", err);
	err = ul_make_workdir(fc, ufs);
	mnt_drop_write(ufs->upper_mnt);
	return err;
}

/* The union's root: the upper root over every lower layer's root. */
static int ul_make_root(struct super_block *sb)
{
	struct ul_fs *ufs = UL_FS(sb);
	struct ul_lower *lowers;
	struct inode *root;
	unsigned int i;

	lowers = kcalloc(ufs->numlower, sizeof(*lowers), GFP_KERNEL);
	if (!lowers)
		return -ENOMEM;
	for (i = 0; i < ufs->numlower; i++) {
		lowers[i].layer = &ufs->layers[i];
		lowers[i].dentry = dget(ufs->layers[i].mnt->mnt_root);
	}
	root = ul_get_inode(sb, ufs->upper_mnt ?
			    dget(ufs->upper_mnt->mnt_root) : NULL,
			    lowers, ufs->numlower, false, NULL);
	kfree(lowers);
	if (IS_ERR(root))
		return PTR_ERR(root);
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

static int ul_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct ul_fs *ufs = sb->s_fs_info;
	struct path *lower, upper = { }, work = { };
	unsigned int i, got = 0;
	const char *name;
	struct cred *cred;
	int err;

	cred = prepare_creds();
	if (!cred)
		return -ENOMEM;
	/*
	 * The layers are changed with these credentials on behalf of any
	 * user: never past that user's disk quota or into the blocks the
	 * filesystem reserves (as overlayfs).
	 */
	cap_lower(cred->cap_effective, CAP_SYS_RESOURCE);
	ufs->creator_cred = cred;
	lower = kcalloc(ufs->config.numlower, sizeof(*lower), GFP_KERNEL);
	if (!lower)
		return -ENOMEM;

	name = ufs->config.lowerdir;
	for (got = 0; got < ufs->config.numlower; got++) {
		err = ul_get_dir(fc, "lowerdir", name, &lower[got]);
		if (err)
			goto out_put;
		name += strlen(name) + 1;
	}
	if (ufs->config.upperdir) {
		err = ul_get_dir(fc, "upperdir", ufs->config.upperdir, &upper);
		if (err)
			goto out_put;
		err = ul_get_dir(fc, "workdir", ufs->config.workdir, &work);
		if (err)
			goto out_put;
	}

	err = ul_check_layers(fc, ufs, lower, upper.mnt ? &upper : NULL,
			      &work);
	if (err)
		goto out_put;
	err = ul_setup_layers(fc, sb, lower, upper.mnt ? &upper : NULL,
			      &work);
	if (err)
		goto out_put;

	sb->s_magic = UL_SUPER_MAGIC;
	sb->s_op = &ul_super_ops;
	sb->s_xattr = ul_xattr_handlers;
	/* the caller is checked against the real objects' ACLs (ul_get_inode_acl()) */
	if (IS_ENABLED(CONFIG_FS_POSIX_ACL))
		sb->s_flags |= SB_POSIXACL;
	/* without an upper layer, or without its work dir, nothing changes */
	if (!ufs->workdir)
		sb->s_flags |= SB_RDONLY;
	sb->s_maxbytes = ufs->upper_mnt ? ufs->upper_mnt->mnt_sb->s_maxbytes :
					  ufs->layers[0].mnt->mnt_sb->s_maxbytes;
	sb->s_time_gran = 1;
	err = ul_make_root(sb);

out_put:
	path_put(&work);
	path_put(&upper);
	for (i = 0; i < got; i++)
		path_put(&lower[i]);
	kfree(lower);
	return err;
}

/* Unmount the lower layers' clones: one RCU grace period for all */
static void ul_put_layers(struct ul_fs *ufs)
{
	struct vfsmount **mnts;
	unsigned int i;

	mnts = kcalloc(ufs->numlower, sizeof(*mnts), GFP_KERNEL);
	for (i = 0; i < ufs->numlower; i++) {
		if (mnts)
			mnts[i] = ufs->layers[i].mnt;
		else
			kern_unmount(ufs->layers[i].mnt);
	}
	if (mnts)
		kern_unmount_array(mnts, ufs->numlower);
	kfree(mnts);
	kfree(ufs->layers);
}

static void ul_free_fs(struct ul_fs *ufs)
{
	if (!ufs)
		return;
	dput(ufs->workdir);
	if (ufs->workbase)
		ul_inuse_unlock(ufs->workbase);
	dput(ufs->workbase);
	if (ufs->upper_locked)
		ul_inuse_unlock(ufs->upper_mnt->mnt_root);
	kern_unmount(ufs->upper_mnt);
	ul_put_layers(ufs);
	if (ufs->creator_cred)
		put_cred(ufs->creator_cred);
	kfree(ufs->upper_prefix);
	kfree(ufs->work_prefix);
	kfree(ufs->config.lowerdir);
	kfree(ufs->config.upperdir);
	kfree(ufs->config.workdir);
	kfree(ufs);
}

/*
 * metacopy=on finds a file's data through redirects and, with an upper
 * layer, makes them when a file moves: redirect_dir=on with an upper
 * layer, any mode but nofollow without one (overlayfs's rule).
 */
static bool ul_metacopy_redirect_ok(const struct ul_fs *ufs)
{
	if (ufs->config.upperdir)
		return ufs->config.redirect == UL_REDIRECT_ON;
	return ufs->config.redirect != UL_REDIRECT_NOFOLLOW;
}

/*
 * A union of lower layers only (no upperdir, no workdir) is read-only,
 * and as on overlayfs needs two of them at least.
 */
static int ul_get_tree(struct fs_context *fc)
{
	struct ul_fs *ufs = fc->s_fs_info;

	if (!ufs->config.lowerdir)
		return invalfc(fc, "missing 'lowerdir'");
	if (!ufs->config.upperdir && ufs->config.workdir)
		return invalfc(fc, "'workdir' without 'upperdir'");
	if (ufs->config.upperdir && !ufs->config.workdir)
		return invalfc(fc, "missing 'workdir'");
	if (!ufs->config.upperdir && ufs->config.numlower < 2)
		return invalfc(fc, "without 'upperdir', 'lowerdir' needs two layers at least");
	if (!ufs->config.upperdir && ufs->config.no_sync) {
		pr_info("unionlite: option \"volatile\" is meaningless in a non-upper mount, ignoring it.\n");
		ufs->config.no_sync = false;
	}
	if (ufs->config.metacopy && !ul_metacopy_redirect_ok(ufs)) {
		/*
		 * as overlayfs: on unless redirect_dir= said otherwise
		 * (6.12's names "off" as the "follow" it means)
		 */
		if (ufs->config.redirect_set)
			return invalfc(fc, "conflicting options: metacopy=on,redirect_dir=%s",
				       UL_LINUX_6_12 &&
				       ufs->config.redirect == UL_REDIRECT_OFF ?
				       "follow" :
				       ul_redirect_names[ufs->config.redirect].name);
		/* ul_redirect_create() says yes from here on */
	}
	return get_tree_nodev(fc, ul_fill_super);
}

/*
 * remount: nothing of the options changes; a union without upper layer,
 * or without a work dir, stays read-only.
 */
static int ul_reconfigure(struct fs_context *fc)
{
	struct ul_fs *ufs = UL_FS(fc->root->d_sb);

	if (fc->sb_flags & SB_RDONLY || ufs->workdir)
		return 0;
	if (!ufs->upper_mnt)
		return ul_fail(fc, -EROFS, "a union without 'upperdir' is read-only");
	return ul_fail(fc, -EROFS, "a union without its work dir is read-only");
}

static void ul_free_fc(struct fs_context *fc)
{
	ul_free_fs(fc->s_fs_info);
}

/*
 * mount(2)'s option string: split at each comma that no backslash escapes
 * (generic_parse_monolithic() splits at every comma), each option at its
 * first '='; the values keep their backslashes for ul_parse_param().
 */
static int ul_parse_monolithic(struct fs_context *fc, void *data)
{
	char *opts = data, *key, *value, *p;
	size_t len;
	int err;

	if (!opts)
		return 0;
	err = security_sb_eat_lsm_opts(opts, &fc->security);
	if (err)
		return err;
	while (*opts) {
		key = opts;
		for (p = key; *p && *p != ','; p++) {
			if (*p == '\\' && p[1])
				p++;
		}
		opts = *p ? p + 1 : p;
		*p = '\0';
		if (!*key)
			continue;
		value = strchr(key, '=');
		len = 0;
		if (value) {
			if (value == key)
				return invalfc(fc, "an option with no name: '%s'", key);
			*value++ = '\0';
			len = strlen(value);
		}
		err = vfs_parse_fs_string(fc, key, value, len);
		if (err)
			return err;
	}
	return 0;
}

static const struct fs_context_operations ul_context_ops = {
	.parse_monolithic = ul_parse_monolithic,
	.parse_param	= ul_parse_param,
	.get_tree	= ul_get_tree,
	.reconfigure	= ul_reconfigure,
	.free		= ul_free_fc,
};

static int ul_init_fs_context(struct fs_context *fc)
{
	struct ul_fs *ufs;

	ufs = kzalloc(sizeof(*ufs), GFP_KERNEL);
	if (!ufs)
		return -ENOMEM;
	spin_lock_init(&ufs->whiteout_lock);
	fc->s_fs_info = ufs;
	fc->ops = &ul_context_ops;
	return 0;
}

static void ul_kill_sb(struct super_block *sb)
{
	struct ul_fs *ufs = sb->s_fs_info;

	kill_anon_super(sb);
	ul_put_shared_whiteout(ufs);
	ul_free_fs(ufs);
}

static struct file_system_type ul_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "unionlite",
	.init_fs_context	= ul_init_fs_context,
	.parameters		= ul_fs_parameters,
	.kill_sb		= ul_kill_sb,
};
MODULE_ALIAS_FS("unionlite");

static void ul_inode_init_once(void *foo)
{
	struct ul_inode *ui = foo;

	inode_init_once(&ui->vfs_inode);
	mutex_init(&ui->lock);
}

static int __init ul_init(void)
{
	int err;

	ul_inode_cachep = kmem_cache_create("unionlite_inode",
					    sizeof(struct ul_inode), 0,
					    SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
					    ul_inode_init_once);
	if (!ul_inode_cachep)
		return -ENOMEM;
	err = register_filesystem(&ul_fs_type);
	if (err) {
		kmem_cache_destroy(ul_inode_cachep);
		return err;
	}
	ul_fault_init();
	return 0;
}

static void __exit ul_exit(void)
{
	ul_fault_exit();
	unregister_filesystem(&ul_fs_type);
	rcu_barrier();	/* inodes are freed after a grace period */
	kmem_cache_destroy(ul_inode_cachep);
}

module_init(ul_init);
module_exit(ul_exit);

MODULE_DESCRIPTION("unionlite: a small union filesystem with atomic whiteouts");
MODULE_LICENSE("GPL");
