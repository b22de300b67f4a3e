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
 *  - With aufs_whiteouts, in a lower layer: an object at ".wh.N" is a
 *    whiteout at N, one at ".wh..wh..opq" makes the directory opaque, and
 *    no name starting with ".wh." is an object (ul_aufs_name()). In the
 *    upper layer the same, but an object at N wins over its mark: what
 *    the union makes there is overlayfs's form, and a mark it left
 *    behind is only a mark over the layers below.
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
static struct dentry *ul_lookup_real(struct ul_idmap *idmap,
				     const struct qstr *name,
				     struct dentry *base)
{
	struct dentry *real;

	real = lookup_one_unlocked(idmap, name->name, base, name->len);
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
 * Does a lower layer show @name under the union directory @pui (the
 * first object its lower stack holds at that name is not a whiteout)?
 * An object that cannot be looked at counts as one, as in overlayfs's
 * ovl_lower_positive().
 */
static bool ul_lower_positive(struct ul_fs *ufs, struct ul_inode *pui,
			      const struct qstr *name)
{
	unsigned int i;

	if (ul_aufs_name(ufs, name->name, name->len))
		return false;
	for (i = 0; i < pui->numlower; i++) {
		const struct ul_lower *dir = ul_lower_at(pui, i);
		struct dentry *this;
		bool positive;
		int err;

		if (ufs->config.aufs_whiteouts) {
			err = ul_aufs_marked(ul_layer_idmap(dir->layer),
					     dir->dentry, name->name,
					     name->len);
			if (err)
				return err < 0;
		}
		this = ul_lookup_real(ul_layer_idmap(dir->layer), name,
				      dir->dentry);
		if (IS_ERR(this))
			return true;
		if (!this)
			continue;
		positive = !ul_is_whiteout(this);
		dput(this);
		return positive;
	}
	return false;
}

/**
 * ul_lower_name - does a lower layer show a union dentry's name?
 * @dentry: the union dentry, its parent locked
 *
 * When the upper object decided the lookup (a whiteout, a non-directory,
 * an opaque or a redirected directory), the lookup did not ask the lower
 * layers (UL_D_LOWER_UNKNOWN); they are asked here, once, when a removal
 * or a rename needs to know, as overlayfs asks ovl_lower_positive().
 *
 * Return: true if a lower layer shows the name: removing or renaming
 * the union object needs a whiteout.
 */
bool ul_lower_name(struct dentry *dentry)
{
	const struct cred *old_cred;
	bool lower;

	if (!ul_dentry_flag(dentry, UL_D_LOWER_UNKNOWN))
		return ul_dentry_flag(dentry, UL_D_LOWER_NAME);
	old_cred = ul_override_creds(dentry->d_sb);
	lower = ul_lower_positive(UL_FS(dentry->d_sb),
				  UL_I(d_inode(dentry->d_parent)),
				  &dentry->d_name);
	revert_creds(old_cred);
	ul_set_lower_name(dentry, lower);
	return lower;
}

/*
 * A directory's trusted.overlay.redirect, checked as overlayfs checks it:
 * an absolute path ("/a/b", no empty component) or one name (no '/').
 * @padding more bytes are allocated after it.
 *
 * Return: the value (kmalloc()ed, NUL-terminated), NULL when there is
 * none, or an ERR_PTR: -EINVAL (malformed, logged) or a read error.
 */
static char *ul_read_redirect(struct ul_idmap *idmap,
			      struct dentry *real, size_t padding)
{
	const char *s, *next;
	ssize_t res;
	char *buf;

	res = vfs_getxattr(idmap, real, UL_XATTR_REDIRECT, NULL, 0);
	if (res == -ENODATA || res == -EOPNOTSUPP)
		return NULL;
	if (res < 0)
		goto fail;
	buf = kzalloc(res + padding + 1, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	if (res)
		res = vfs_getxattr(idmap, real, UL_XATTR_REDIRECT, buf, res);
	if (res < 0) {
		kfree(buf);
		goto fail;
	}
	if (!res)
		goto invalid;
	if (buf[0] == '/') {
		for (s = buf; *s++ == '/'; s = next) {
			next = strchrnul(s, '/');
			if (s == next)
				goto invalid;
		}
	} else if (strchr(buf, '/')) {
		goto invalid;
	}
	return buf;

invalid:
	pr_warn_ratelimited("unionlite: invalid redirect (%s)\n", buf);
	kfree(buf);
	return ERR_PTR(-EINVAL);
fail:
	pr_warn_ratelimited("unionlite: failed to get redirect (%zi)\n", res);
	return ERR_PTR(res);
}

/*
 * A regular file that carries trusted.overlay.metacopy: its data is in
 * the layers below (with metacopy=on; refused without it, as overlayfs).
 * Any value is taken (overlayfs 6.12 may store an fs-verity digest in
 * it, which unionlite does not check).
 */
static int ul_is_metacopy(struct ul_idmap *idmap, struct dentry *real)
{
	ssize_t res;

	if (!d_is_reg(real))
		return 0;
	res = vfs_getxattr(idmap, real, UL_XATTR_METACOPY, NULL, 0);
	if (res == -ENODATA || res == -EOPNOTSUPP)
		return 0;
	return res < 0 ? res : 1;
}

/*
 * The state of one walk down the layers (overlayfs's ovl_lookup_data):
 * @name: what the next layer is asked for: the union name, or a redirect
 *	(a name, or a path from the layers' roots) met on the way
 * @redirect: the buffer @name points into once a redirect was met
 * @is_dir: the object found so far is a directory (only directories
 *	merge below it)
 * @stop: nothing below the last layer looked at counts
 * @last: the layer being looked at is the last one to look at
 * @metacopy: the object found is a metacopy file: the walk goes on for
 *	its data, a regular file
 * @upper_metacopy: the upper object is a metacopy file
 * @seen: the first layer with the name held a whiteout (1) or an
 *	object (2); 0 until then
 * @ufs: the union
 */
struct ul_lookup_data {
	struct ul_fs *ufs;
	struct qstr name;
	char *redirect;
	bool is_dir;
	bool stop;
	bool last;
	bool metacopy;
	bool upper_metacopy;
	int seen;
};

/*
 * A directory or metacopy file met on the walk carries a redirect: what
 * the layers below
 * are asked for becomes it. In a path walk (@prelen bytes of the path
 * done, @post the rest), a name replaces this component; a path
 * replaces what was walked so far.
 */
static int ul_follow_redirect(struct ul_lookup_data *d,
			      struct ul_idmap *idmap,
			      struct dentry *this, size_t prelen,
			      const char *post)
{
	char *buf;

	buf = ul_read_redirect(idmap, this, prelen + strlen(post));
	if (IS_ERR_OR_NULL(buf))
		return PTR_ERR(buf);
	if (buf[0] == '/') {
		/* an absolute redirect reaches past an opaque ancestor */
		d->stop = false;
	} else {
		memmove(buf + prelen, buf, strlen(buf) + 1);
		memcpy(buf, d->name.name, prelen);
	}
	strcat(buf, post);
	kfree(d->redirect);
	d->redirect = buf;
	d->name.name = buf;
	d->name.len = strlen(buf);
	return 0;
}

/*
 * Look one component up in @base, a directory of @layer: the rules at
 * the top of this file, and the redirect a directory carries. @post is
 * what is left of a path after this component ("" for the last one).
 * *@ret is the object the walk goes on with, or NULL.
 */
static int ul_lookup_one(struct ul_lookup_data *d, struct ul_layer *layer,
			 struct dentry *base, const char *name,
			 unsigned int namelen, size_t prelen,
			 const char *post, struct dentry **ret)
{
	struct ul_idmap *idmap = ul_layer_idmap(layer);
	bool aufs = d->ufs->config.aufs_whiteouts;
	bool last_element = !post[0];
	struct dentry *this;
	int err;

	*ret = NULL;
	if (aufs) {
		if (ul_aufs_name(d->ufs, name, namelen))
			return 0;
		err = ul_aufs_marked(idmap, base, name, namelen);
		if (err < 0)
			return err;
		if (err) {
			if (!d->seen)
				d->seen = 1;
			d->stop = true;
			return 0;
		}
	}
	this = lookup_one_unlocked(idmap, name, base, namelen);
	if (IS_ERR(this)) {
		err = PTR_ERR(this);
		return err == -ENOENT || err == -ENAMETOOLONG ? 0 : err;
	}
	if (d_really_is_negative(this))
		goto out_put;
	if (ul_dentry_weird(this)) {
		dput(this);
		return -EREMOTE;
	}
	if (ul_is_whiteout(this)) {
		if (!d->seen)
			d->seen = 1;
		d->stop = true;
		goto out_put;
	}
	if (!d->seen)
		d->seen = 2;
	if (last_element && d->metacopy && !d_is_reg(this)) {
		/* a metacopy file's data is a regular file: none here */
		d->stop = true;
		goto out_put;
	}
	if (!d_can_lookup(this)) {
		if (d->is_dir || !last_element) {
			/* a non-directory under a directory: hidden */
			d->stop = true;
			goto out_put;
		}
		err = ul_is_metacopy(idmap, this);
		if (err < 0)
			goto out_err;
		d->metacopy = err;
		d->stop = !d->metacopy;
		if (d->metacopy && !d->last) {
			err = ul_follow_redirect(d, idmap, this, prelen, post);
			if (err)
				goto out_err;
		}
		*ret = this;
		return 0;
	}
	if (last_element)
		d->is_dir = true;
	if (!d->last) {
		err = ul_check_opaque(idmap, this);
		if (!err && aufs)
			err = ul_aufs_marked(idmap, this, UL_AUFS_OPAQUE,
					     strlen(UL_AUFS_OPAQUE));
		if (err < 0)
			goto out_err;
		if (err) {
			d->stop = true;
		} else {
			err = ul_follow_redirect(d, idmap, this, prelen, post);
			if (err)
				goto out_err;
		}
	}
	*ret = this;
	return 0;

out_put:
	dput(this);
	return 0;
out_err:
	dput(this);
	return err;
}

/*
 * Look @d->name up in the lower directory @dir: one name there, or a
 * path from its layer's root (@dir is then the root), component by
 * component. The path may change under the walk (a redirect met on the
 * way): what is left of it is counted from its end.
 */
static int ul_lookup_layer(struct ul_lookup_data *d, const struct ul_lower *dir,
			   struct dentry **ret)
{
	struct dentry *base = dir->dentry, *dentry = NULL;
	size_t rem = d->name.len - 1;
	int err;

	if (d->name.name[0] != '/')
		return ul_lookup_one(d, dir->layer, base, d->name.name,
				     d->name.len, 0, "", ret);
	while (base && d_can_lookup(base)) {
		const char *s = d->name.name + d->name.len - rem;
		const char *next = strchrnul(s, '/');
		size_t len = next - s;
		bool end = !*next;

		err = ul_lookup_one(d, dir->layer, base, s, len,
				    d->name.len - rem, next, &base);
		dput(dentry);
		if (err)
			return err;
		dentry = base;
		if (end)
			break;
		rem -= len + 1;
		if (WARN_ON(rem >= d->name.len)) {
			dput(dentry);
			return -EIO;
		}
	}
	*ret = dentry;
	return 0;
}

/* Entry @i of the lower stack a walk goes down: @pui's, or the layers' roots. */
static struct ul_lower ul_walk_dir(struct ul_fs *ufs, struct ul_inode *pui,
				   bool roots, unsigned int i)
{
	if (!roots)
		return *ul_lower_at(pui, i);
	return (struct ul_lower){ &ufs->layers[i],
				  ufs->layers[i].mnt->mnt_root };
}

/*
 * The lower objects a name has under the union directory @pui: walk its
 * lower stack top-down (the rules above), following redirects, and fill
 * @lowers (room for every layer, references). An absolute redirect moves
 * the walk to the layers' roots, from the next layer down.
 *
 * A metacopy file's walk keeps the topmost lower object and the data
 * under it, not the metacopy files between them.
 *
 * Return: how many, or a negative errno (-EPERM for a redirect or a
 * metacopy file the mount does not follow, -EIO for a metacopy file
 * without data under it, as overlayfs).
 */
static int ul_lookup_lowers(struct ul_fs *ufs, struct dentry *dentry,
			    struct ul_inode *pui, struct ul_lookup_data *d,
			    struct ul_lower *lowers)
{
	bool roots = d->redirect && d->redirect[0] == '/';
	unsigned int i, n = 0;
	int err;

	for (i = 0; !d->stop && i < (roots ? ufs->numlower : pui->numlower);
	     i++) {
		struct ul_lower dir = ul_walk_dir(ufs, pui, roots, i);
		struct dentry *this;

		if (ul_redirect_follow(ufs))
			d->last = dir.layer->idx == ufs->numlower;
		else
			d->last = i + 1 == (roots ? ufs->numlower :
					    pui->numlower);
		err = ul_lookup_layer(d, &dir, &this);
		if (err)
			goto out_put;
		if (!this)
			continue;
		if ((d->metacopy || d->upper_metacopy) &&
		    !ufs->config.metacopy) {
			dput(this);
			pr_warn_ratelimited("unionlite: refusing to follow metacopy origin for (%pd2)\n",
					    dentry);
			err = -EPERM;
			goto out_put;
		}
		if (d->metacopy && n) {
			/*
			 * a metacopy file between the topmost lower one and
			 * the data: neither the object's metadata nor its data
			 */
			dput(this);
		} else {
			lowers[n].layer = dir.layer;
			lowers[n].dentry = this;
			n++;
		}
		/*
		 * Following a redirect is like following a symlink into a
		 * lower layer without its permission checks: only done
		 * when the mount allows it (docs/unionlite.md).
		 */
		if (d->redirect && !ul_redirect_follow(ufs)) {
			pr_warn_ratelimited("unionlite: refusing to follow redirect for (%pd2)\n",
					    dentry);
			err = -EPERM;
			goto out_put;
		}
		if (!roots && d->redirect && d->redirect[0] == '/') {
			roots = true;
			/* go on with the layer under this one */
			i = dir.layer->idx - 1;
		}
	}
	if (d->metacopy || (d->upper_metacopy && !n)) {
		pr_warn_ratelimited("unionlite: metacopy with no lower data found - abort lookup (%pd2)\n",
				    dentry);
		err = -EIO;
		goto out_put;
	}
	return n;

out_put:
	ul_put_lowers(lowers, n);
	return err;
}

/*
 * Whether a lookup in @pui reads an upper directory's redirect. As
 * overlayfs: under redirect_dir=nofollow only where lower directories
 * could be reached, and then only to refuse it.
 */
static bool ul_redirect_read(const struct ul_fs *ufs,
			     const struct ul_inode *pui)
{
	return ul_redirect_follow(ufs) || pui->numlower;
}

/*
 * Is the upper directory @upper opaque: its trusted.overlay.opaque, or
 * under aufs_whiteouts a mark ".wh..wh..opq" in it (the layers
 * containers/storage applies for a mount program carry that form, and
 * it mounts one as the upper layer of its own diff)?
 */
static int ul_upper_opaque(struct ul_fs *ufs, struct dentry *upper)
{
	int opaque = ul_check_opaque(ul_upper_idmap(ufs), upper);

	if (!opaque && ufs->config.aufs_whiteouts)
		opaque = ul_aufs_marked(ul_upper_idmap(ufs), upper,
					UL_AUFS_OPAQUE, strlen(UL_AUFS_OPAQUE));
	return opaque;
}

/**
 * ul_dir_entry_ino - the union inode number of an upper directory entry
 * @sb: the union super block
 * @pui: the union directory being listed
 * @upper: the upper directory at one of its names
 * @ino: set to the number ul_lookup() would give the entry's inode
 *
 * A directory keeps the number of its topmost lower directory, which a
 * redirect may find under another name (recipe 6). Mounter's
 * credentials.
 *
 * Return: 0 or a negative errno.
 */
int ul_dir_entry_ino(struct super_block *sb, struct ul_inode *pui,
		     struct dentry *upper, u64 *ino)
{
	struct ul_fs *ufs = UL_FS(sb);
	struct ul_lookup_data d = {
		.ufs = ufs, .name = upper->d_name, .is_dir = true
	};
	struct ul_lower *lowers;
	int opaque, n = 0, err;
	bool origin;

	opaque = ul_upper_opaque(ufs, upper);
	if (opaque < 0)
		return opaque;
	lowers = kcalloc(max(ufs->numlower, 1U), sizeof(*lowers), GFP_KERNEL);
	if (!lowers)
		return -ENOMEM;
	if (!opaque) {
		err = 0;
		if (ul_redirect_read(ufs, pui))
			err = ul_follow_redirect(&d, ul_upper_idmap(ufs), upper,
						 0, "");
		if (!err) {
			n = ul_lookup_lowers(ufs, upper, pui, &d, lowers);
			err = min(n, 0);
		}
		if (err)
			goto out;
	}
	err = ul_object_ino(sb, upper, n ? lowers : NULL, opaque, ino, &origin);
	ul_put_lowers(lowers, max(n, 0));
out:
	kfree(d.redirect);
	kfree(lowers);
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
	struct ul_lookup_data d = { .ufs = ufs, .name = dentry->d_name };
	struct ul_lower one, *lowers = &one;
	struct dentry *upper = NULL;
	const struct cred *old_cred;
	struct inode *inode = NULL;
	char *upper_redirect = NULL;
	int numlower = 0, opaque = 0, err = 0;
	bool upper_metacopy = false;

	if (dentry->d_name.len > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	/* a redirect can lead the walk into every layer */
	if (ufs->numlower > 1) {
		lowers = kcalloc(ufs->numlower, sizeof(*lowers), GFP_KERNEL);
		if (!lowers)
			return ERR_PTR(-ENOMEM);
	}

	old_cred = ul_override_creds(dentry->d_sb);
	if (ul_aufs_name(ufs, dentry->d_name.name, dentry->d_name.len)) {
		/* a mark, or a name no union object has */
		ul_set_lower_name(dentry, false);
		goto out_negative;
	}
	if (upperdir) {
		upper = ul_lookup_real(ul_upper_idmap(ufs), &dentry->d_name,
				       upperdir);
		err = PTR_ERR(upper);
		if (IS_ERR(upper))
			goto out_revert;
	}
	if (upperdir && !upper && ufs->config.aufs_whiteouts) {
		/* a mark in the upper layer: a whiteout, not a 0/0 one */
		err = ul_aufs_marked(ul_upper_idmap(ufs), upperdir,
				     dentry->d_name.name, dentry->d_name.len);
		if (err < 0)
			goto out_revert;
		if (err) {
			ul_set_lower_name(dentry, false);
			goto out_negative;
		}
	}
	if (upper && d_is_dir(upper)) {
		d.is_dir = true;
		opaque = ul_upper_opaque(ufs, upper);
		err = opaque;
		if (opaque < 0)
			goto out_dput_upper;
		if (!opaque && ul_redirect_read(ufs, pui)) {
			err = ul_follow_redirect(&d, ul_upper_idmap(ufs),
						 upper, 0, "");
			if (err)
				goto out_dput_upper;
		}
		if (d.redirect) {
			upper_redirect = kstrdup(d.redirect, GFP_KERNEL);
			err = -ENOMEM;
			if (!upper_redirect)
				goto out_dput_upper;
		}
	} else if (upper && !ul_is_whiteout(upper)) {
		err = ul_is_metacopy(ul_upper_idmap(ufs), upper);
		if (err < 0)
			goto out_dput_upper;
		upper_metacopy = err;
		d.upper_metacopy = err;
		d.metacopy = err;
	}
	if (upper_metacopy && ul_redirect_read(ufs, pui)) {
		/* where the data is, when the file moved */
		err = ul_follow_redirect(&d, ul_upper_idmap(ufs), upper, 0, "");
		if (!err && d.redirect) {
			upper_redirect = kstrdup(d.redirect, GFP_KERNEL);
			err = upper_redirect ? 0 : -ENOMEM;
		}
		if (err)
			goto out_dput_upper;
	}

	if (upper && (!upper_metacopy || d.redirect) &&
	    (!d_is_dir(upper) || opaque || d.redirect)) {
		/* the upper object decides: the lower layers are not asked */
		ul_set_dentry_flag(dentry, UL_D_LOWER_UNKNOWN, true);
	}
	if (!upper || upper_metacopy || (d_is_dir(upper) && !opaque)) {
		numlower = ul_lookup_lowers(ufs, dentry, pui, &d, lowers);
		err = numlower;
		if (numlower < 0)
			goto out_dput_upper;
		if (!upper || !d.redirect)
			ul_set_lower_name(dentry, d.seen == 2);
	}
	ul_set_whiteout_seen(dentry, ul_is_whiteout(upper));
	if (ul_is_whiteout(upper)) {
		/* the name is whited out: a negative union dentry */
		dput(upper);
		upper = NULL;
	}
	revert_creds(old_cred);

	if (upper || numlower) {
		inode = ul_get_inode(dentry->d_sb, upper, lowers, numlower,
				     opaque, upper_redirect);
		upper_redirect = NULL;
		if (IS_ERR(inode)) {
			err = PTR_ERR(inode);
			goto out_free;
		}
	}
	kfree(d.redirect);
	if (lowers != &one)
		kfree(lowers);
	return d_splice_alias(inode, dentry);

out_negative:
	revert_creds(old_cred);
	if (lowers != &one)
		kfree(lowers);
	return d_splice_alias(NULL, dentry);

out_dput_upper:
	dput(upper);
out_revert:
	revert_creds(old_cred);
out_free:
	kfree(upper_redirect);
	kfree(d.redirect);
	if (lowers != &one)
		kfree(lowers);
	return ERR_PTR(err);
}
