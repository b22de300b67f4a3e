// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: lookup across the layers.
 *
 * Rules, for a name N in a union directory D:
 *  - The upper layer is looked at first (when D has an upper directory),
 *    then D's lower directories, top-down (the layers in lowerdir=
 *    order, as far as D's lower stack goes).
 *  - A whiteout (character device 0/0) at N in any layer: N does not
 *    exist in that layer nor in any layer below it.
 *  - A non-directory at N: that object; N in the layers below is hidden.
 *  - A directory at N that is opaque (trusted.overlay.opaque = "y"): that
 *    directory with those above it; N in the layers below is hidden.
 *  - Directories at N in consecutive layers down to the first opaque one
 *    (or to a non-directory, which is hidden) merge into one directory.
 *  - The topmost object decides the type: an upper directory over a lower
 *    non-directory is the upper directory alone.
 *  - An automount point, a name of a case-insensitive directory or another
 *    real dentry the VFS handles specially in any layer: EREMOTE.
 */

#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/xattr.h>
#include "ops.h"

/*
 * Look @name up in a real directory; NULL when it is not there,
 * ERR_PTR(-EREMOTE) when it is a dentry the union does not look through
 * (ul_dentry_weird(): an automount point, a name in a case-insensitive
 * directory...), as overlayfs refuses them.
 */
static struct dentry *ul_lookup_real(struct user_namespace *userns,
				     const struct qstr *name,
				     struct dentry *base)
{
	struct dentry *real;

	real = lookup_one_unlocked(userns, name->name, base, name->len);
	if (IS_ERR(real)) {
		/* a layer whose names are shorter has no such name */
		if (PTR_ERR(real) == -ENOENT || PTR_ERR(real) == -ENAMETOOLONG)
			return NULL;
		return real;
	}
	if (d_really_is_negative(real)) {
		dput(real);
		return NULL;
	}
	if (ul_dentry_weird(real)) {
		dput(real);
		return ERR_PTR(-EREMOTE);
	}
	return real;
}

/*
 * The lower objects a name has under the union directory @pui: walk its
 * lower stack top-down (rules above) and fill @lowers (room for
 * pui->numlower entries, references). Returns how many, or a negative
 * errno. *@lower_name is set when a layer shows the name at all (the
 * first object met is not a whiteout). With @hidden (an upper object
 * hides them all), a lower object the union does not look through only
 * tells that a layer has the name: it is not an error.
 */
static int ul_lookup_lowers(struct ul_inode *pui, const struct qstr *name,
			    struct ul_lower *lowers, bool *lower_name,
			    bool hidden)
{
	unsigned int i, n = 0;
	int err;

	*lower_name = false;
	for (i = 0; i < pui->numlower; i++) {
		const struct ul_lower *dir = ul_lower_at(pui, i);
		struct dentry *this;

		this = ul_lookup_real(ul_layer_userns(dir->layer), name,
				      dir->dentry);
		if (hidden && PTR_ERR_OR_ZERO(this) == -EREMOTE) {
			*lower_name = true;
			break;
		}
		if (IS_ERR(this)) {
			err = PTR_ERR(this);
			goto out_put;
		}
		if (!this)
			continue;
		if (ul_is_whiteout(this) || (n && !d_is_dir(this))) {
			/* hides what is below; a non-dir under a dir: hidden */
			dput(this);
			break;
		}
		*lower_name = true;
		lowers[n].layer = dir->layer;
		lowers[n].dentry = this;
		n++;
		if (!d_is_dir(this))
			break;
		/* the bottom layer's opaque mark hides nothing */
		if (i + 1 < pui->numlower) {
			err = ul_check_opaque(ul_layer_userns(dir->layer), this);
			if (err < 0)
				goto out_put;
			if (err)
				break;
		}
	}
	return n;

out_put:
	ul_put_lowers(lowers, n);
	return err;
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
	struct ul_lower one, *lowers = &one;
	struct dentry *upper = NULL;
	const struct cred *old_cred;
	struct inode *inode = NULL;
	int numlower = 0, opaque = 0, err = 0;
	bool lower_name, hidden;

	if (dentry->d_name.len > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	if (pui->numlower > 1) {
		lowers = kcalloc(pui->numlower, sizeof(*lowers), GFP_KERNEL);
		if (!lowers)
			return ERR_PTR(-ENOMEM);
	}

	old_cred = ul_override_creds(dentry->d_sb);
	if (upperdir) {
		upper = ul_lookup_real(ul_upper_userns(ufs), &dentry->d_name,
				       upperdir);
		err = PTR_ERR(upper);
		if (IS_ERR(upper))
			goto out_revert;
	}
	if (upper && d_is_dir(upper)) {
		opaque = ul_check_opaque(ul_upper_userns(ufs), upper);
		err = opaque;
		if (opaque < 0)
			goto out_dput_upper;
	}
	/* a whiteout, a non-directory or an opaque directory hides them */
	hidden = upper && (!d_is_dir(upper) || opaque);
	numlower = ul_lookup_lowers(pui, &dentry->d_name, lowers, &lower_name,
				    hidden);
	err = numlower;
	if (numlower < 0)
		goto out_dput_upper;
	ul_set_lower_name(dentry, lower_name);

	ul_set_whiteout_seen(dentry, ul_is_whiteout(upper));
	if (ul_is_whiteout(upper)) {
		/* the name is whited out: a negative union dentry */
		dput(upper);
		upper = NULL;
		ul_put_lowers(lowers, numlower);
		numlower = 0;
	} else if (upper && d_is_dir(upper)) {
		if (numlower && (opaque || !d_is_dir(lowers[0].dentry))) {
			ul_put_lowers(lowers, numlower);
			numlower = 0;
		}
	} else if (upper) {
		/* an upper non-directory hides the lower name */
		ul_put_lowers(lowers, numlower);
		numlower = 0;
	}
	revert_creds(old_cred);

	if (upper || numlower) {
		inode = ul_get_inode(dentry->d_sb, upper, lowers, numlower,
				     opaque);
		if (IS_ERR(inode)) {
			err = PTR_ERR(inode);
			goto out_free;
		}
	}
	if (lowers != &one)
		kfree(lowers);
	return d_splice_alias(inode, dentry);

out_dput_upper:
	dput(upper);
out_revert:
	revert_creds(old_cred);
out_free:
	if (lowers != &one)
		kfree(lowers);
	return ERR_PTR(err);
}
