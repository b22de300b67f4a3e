// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: lookup across the two layers.
 *
 * Rules, for a name N in a union directory D:
 *  - The upper layer is looked at first (when D has an upper directory).
 *  - A whiteout (character device 0/0) at upper/N: N does not exist.
 *  - Any other upper non-directory at N: that object, the lower N is hidden.
 *  - An upper directory at N that is opaque (trusted.overlay.opaque = "y"):
 *    that directory alone; lower N is hidden.
 *  - An upper directory over a lower directory: a merged directory.
 *  - An upper directory over a lower non-directory: the upper directory.
 *  - Nothing in upper: the lower object at N (when D has a lower dir).
 * The lower layer is taken literally: nothing in it is interpreted.
 */

#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/xattr.h>
#include "ops.h"

/**
 * ul_check_opaque - is an upper directory opaque?
 * @ufs: the union
 * @upper: an upper dentry
 *
 * Called with the mounter's credentials.
 *
 * Return: 1 if @upper is a directory with trusted.overlay.opaque = "y",
 * 0 if not, a negative errno if the attribute could not be read.
 */
int ul_check_opaque(struct ul_fs *ufs, struct dentry *upper)
{
	ssize_t res;
	char val;

	if (!d_is_dir(upper))
		return 0;
	res = vfs_getxattr(ul_upper_userns(ufs), upper, UL_XATTR_OPAQUE,
			   &val, 1);
	if (res == 1 && val == 'y')
		return 1;
	if (res < 0 && res != -ENODATA && res != -EOPNOTSUPP && res != -ERANGE)
		return res;
	return 0;
}

/* Look @name up in a real directory; NULL when it is not there. */
static struct dentry *ul_lookup_real(struct user_namespace *userns,
				     const struct qstr *name,
				     struct dentry *base)
{
	struct dentry *real;

	real = lookup_one_unlocked(userns, name->name, base, name->len);
	if (IS_ERR(real)) {
		if (PTR_ERR(real) == -ENOENT)
			return NULL;
		return real;
	}
	if (d_really_is_negative(real)) {
		dput(real);
		return NULL;
	}
	return real;
}

/**
 * ul_lookup - ->lookup() of union directories
 * @dir: the union directory, locked by the VFS
 * @dentry: the union dentry to fill in
 * @flags: lookup flags (unused)
 *
 * Return: NULL, another dentry (d_splice_alias()) or an ERR_PTR.
 */
struct dentry *ul_lookup(struct inode *dir, struct dentry *dentry,
			 unsigned int flags)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct ul_inode *pui = UL_I(dir);
	struct dentry *upperdir = ul_upper(pui);
	struct dentry *lowerdir = pui->lower;
	struct dentry *upper = NULL, *lower = NULL;
	const struct cred *old_cred;
	struct inode *inode = NULL;
	int opaque = 0, err = 0;

	if (dentry->d_name.len > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);

	old_cred = ul_override_creds(dentry->d_sb);
	if (upperdir) {
		upper = ul_lookup_real(ul_upper_userns(ufs), &dentry->d_name,
				       upperdir);
		err = PTR_ERR(upper);
		if (IS_ERR(upper))
			goto out_revert;
	}
	if (lowerdir) {
		lower = ul_lookup_real(ul_lower_userns(ufs), &dentry->d_name,
				       lowerdir);
		err = PTR_ERR(lower);
		if (IS_ERR(lower))
			goto out_dput_upper;
	}
	ul_set_lower_name(dentry, lower);

	ul_set_whiteout_seen(dentry, ul_is_whiteout(upper));
	if (ul_is_whiteout(upper)) {
		/* the name is whited out: a negative union dentry */
		dput(upper);
		dput(lower);
		upper = NULL;
		lower = NULL;
	} else if (upper && d_is_dir(upper)) {
		opaque = ul_check_opaque(ufs, upper);
		err = opaque;
		if (opaque < 0)
			goto out_dput_lower;
		if (lower && (opaque || !d_is_dir(lower))) {
			dput(lower);
			lower = NULL;
		}
	} else if (upper && lower) {
		/* an upper non-directory hides the lower name */
		dput(lower);
		lower = NULL;
	}
	revert_creds(old_cred);

	if (upper || lower) {
		inode = ul_get_inode(dentry->d_sb, upper, lower, opaque);
		if (IS_ERR(inode))
			return ERR_CAST(inode);
	}
	return d_splice_alias(inode, dentry);

out_dput_lower:
	dput(lower);
out_dput_upper:
	dput(upper);
out_revert:
	revert_creds(old_cred);
	return ERR_PTR(err);
}
