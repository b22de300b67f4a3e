// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: merged readdir.
 *
 * A union directory with an upper directory, or merged from several lower
 * layers, is read from a list of its names: the upper directory's names
 * in the upper directory's order, then each lower directory's names that
 * the directories above it do not have, top-down. Whiteouts (of any
 * layer) are not listed but mask the name in the layers below.
 * An rbtree keyed by name makes the merge O(n log n); an array indexed by
 * position makes every seek O(1). Positions: 0 is ".", 1 is "..", n + 2 is
 * entry n, so telldir()/seekdir() values stay valid for the life of the
 * open directory.
 *
 * The list belongs to the directory's union inode (ul_inode->dcache) and
 * is shared by every open of the directory: the first read after a change
 * made through the union (ul_inode->version) builds a new one, which the
 * next opens share; an open file keeps the list it reads (a reference)
 * until it starts over from the beginning. Its memory is charged to the
 * process that builds it (GFP_KERNEL_ACCOUNT).
 *
 * A directory that is one lower directory has nothing to merge: its
 * readdir and seeks go straight to the real directory (one open real
 * file per open union directory), with the d_ino of "." and ".." made
 * the union's. Whiteouts in it are listed, as overlayfs lists them (a
 * lookup of one finds nothing), unless it carries an origin: it was
 * merged when it was copied up (in a layer that was the upper layer
 * then), its whiteouts hid names of a layer since removed, and it is
 * read through the merged list, as overlayfs reads it. When a reader
 * starts over after the directory was copied up, it switches to the
 * merged list.
 *
 * With aufs_whiteouts a directory's ".wh.N" is not listed: after its
 * directory is read it masks N there (not an upper N) and below
 * (ul_aufs_apply()).
 * Under the option every directory is read through the merged list,
 * so that a mark can hide a name of its own directory.
 *
 * Every d_ino is the union's inode number of the entry (ino.c): a lower
 * entry's is mapped from the lower d_ino, an upper entry's from the upper
 * d_ino, except for the entries whose number is not their upper inode's:
 * a merged subdirectory and, in a directory marked impure, any
 * subdirectory (both looked up through the layers as lookup does, for
 * the redirect a moved one follows: ul_dir_entry_ino()) and a copied-up
 * non-directory (looked up in upper for its origin).
 */

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include "ops.h"

/* One per name of every layer read: kept small. */
struct ul_cache_entry {
	struct rb_node node;		/* in ul_dir_cache.root, by name */
	struct list_head next;		/* in build order */
	struct ul_cache_entry *next_check; /* of its read: type to look up */
	u64 ino;			/* d_ino: the real layer's, then the union's */
	/* a lower entry's layer; an upper entry's lower namesake's, or NULL */
	const struct ul_layer *layer;
	int len;
	u8 type;			/* DT_* */
	u8 lower_type;			/* DT_* of the lower namesake, or 0 */
	bool upper;			/* from the upper directory */
	bool whiteout;			/* a whiteout: masks, not listed */
	char name[];
};

struct ul_dir_cache {
	refcount_t ref;			/* the inode's, and each reader's */
	u64 version;			/* UL_I(dir)->version it lists */
	struct rb_root root;
	struct list_head entries;
	struct ul_cache_entry **ents;	/* listed entries, by position - 2 */
	unsigned int count;		/* number of listed entries */
	unsigned int nr;		/* number of entries, whiteouts too */
	bool impure_unneeded;		/* marked impure, and no entry needs it */
};

/* An open union directory. */
struct ul_dir_file {
	struct mutex lock;		/* protects the fields below */
	struct ul_dir_cache *cache;	/* a reference; NULL until read */
	struct file *realfile;		/* lower-only: read straight through */
};

/* Straight-through readdir: the caller's context and the union's dots. */
struct ul_real_ctx {
	struct dir_context ctx;
	struct dir_context *caller;
	struct ul_fs *ufs;
	const struct ul_layer *layer;
	bool map;			/* d_ino other than the layer's */
	u64 dot_ino, dotdot_ino;
};

/* A lower directory's ".wh.N" (aufs_whiteouts), until it is applied */
struct ul_aufs_mark {
	struct list_head next;
	int len;
	char name[];			/* N */
};

struct ul_readdir_data {
	struct dir_context ctx;
	struct ul_dir_cache *cache;
	const struct ul_layer *layer;	/* the lower layer read, or NULL */
	bool last;			/* no directory is read after this one */
	bool lower_unknown;		/* an upper dir's namesake: DT_UNKNOWN */
	const struct ul_fs *ufs;	/* under aufs_whiteouts (else NULL) */
	struct list_head marks;		/* the marks of the directory read */
	struct ul_cache_entry *check;	/* entries of the read: DT_CHR, ... */
	struct ul_cache_entry **check_tail; /* ... DT_UNKNOWN: look them up */
	int err;
};

static void ul_cache_free(struct ul_dir_cache *cache)
{
	struct ul_cache_entry *e, *tmp;

	if (!cache)
		return;
	list_for_each_entry_safe(e, tmp, &cache->entries, next)
		kfree(e);
	kvfree(cache->ents);
	kfree(cache);
}

static void ul_cache_put(struct ul_dir_cache *cache)
{
	if (cache && refcount_dec_and_test(&cache->ref))
		ul_cache_free(cache);
}

/* Find @name, or the link where it would go. */
static struct ul_cache_entry *ul_cache_find(struct ul_dir_cache *cache,
					    const char *name, int len,
					    struct rb_node ***linkp,
					    struct rb_node **parentp)
{
	struct rb_node **link = &cache->root.rb_node, *parent = NULL;

	while (*link) {
		struct ul_cache_entry *e;
		int cmp;

		parent = *link;
		e = rb_entry(parent, struct ul_cache_entry, node);
		cmp = strncmp(name, e->name, len);
		if (!cmp)
			cmp = len - e->len;
		if (!cmp)
			return e;
		link = cmp < 0 ? &parent->rb_left : &parent->rb_right;
	}
	if (linkp) {
		*linkp = link;
		*parentp = parent;
	}
	return NULL;
}

/* A new entry of the directory @rdd reads, on the list (not the tree) */
static struct ul_cache_entry *ul_cache_new(struct ul_readdir_data *rdd,
					   const char *name, int len, u64 ino,
					   unsigned int type)
{
	struct ul_cache_entry *e;

	e = kmalloc(struct_size(e, name, len + 1), GFP_KERNEL_ACCOUNT);
	if (!e)
		return NULL;
	e->ino = ino;
	e->layer = rdd->layer;
	e->next_check = NULL;
	e->type = type;
	e->lower_type = 0;
	e->upper = !rdd->layer;
	e->whiteout = false;
	e->len = len;
	memcpy(e->name, name, len);
	e->name[len] = '\0';
	list_add_tail(&e->next, &rdd->cache->entries);
	rdd->cache->nr++;
	return e;
}

static bool ul_fill_merge(struct dir_context *ctx, const char *name, int len,
			  loff_t pos, u64 ino, unsigned int type)
{
	struct ul_readdir_data *rdd =
		container_of(ctx, struct ul_readdir_data, ctx);
	struct ul_dir_cache *cache = rdd->cache;
	struct rb_node **link = NULL, *parent = NULL;
	struct ul_cache_entry *e;

	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	if (rdd->ufs && ul_aufs_name(rdd->ufs, name, len)) {
		struct ul_aufs_mark *m;

		len -= UL_AUFS_PREFIX_LEN;
		m = kmalloc(struct_size(m, name, len), GFP_KERNEL_ACCOUNT);
		if (!m) {
			rdd->err = -ENOMEM;
			return false;
		}
		m->len = len;
		memcpy(m->name, name + UL_AUFS_PREFIX_LEN, len);
		list_add_tail(&m->next, &rdd->marks);
		return true;
	}
	/*
	 * Names of the last directory read are looked for, not inserted: no
	 * directory after it has to find them (overlayfs reads its lowest
	 * layer the same way). One real directory holds each name once.
	 */
	e = ul_cache_find(cache, name, len, rdd->last ? NULL : &link, &parent);
	if (e) {
		/* the upper entry wins; a lower directory may merge with it */
		if (e->upper && rdd->layer && !e->layer) {
			e->lower_type = type;
			e->layer = rdd->layer;
			if (e->type == DT_DIR && type == DT_UNKNOWN)
				rdd->lower_unknown = true;
		}
		return true;
	}

	e = ul_cache_new(rdd, name, len, ino, type);
	if (!e) {
		rdd->err = -ENOMEM;
		return false;
	}
	if (type == DT_CHR || type == DT_UNKNOWN) {
		*rdd->check_tail = e;
		rdd->check_tail = &e->next_check;
	}
	if (!rdd->last) {
		rb_link_node(&e->node, parent, link);
		rb_insert_color(&e->node, &cache->root);
	}
	return true;
}

static int ul_read_real_dir(const struct path *path,
			    struct ul_readdir_data *rdd)
{
	struct file *file;
	int err;

	file = dentry_open(path, O_RDONLY | O_DIRECTORY | O_LARGEFILE,
			   current_cred());
	if (IS_ERR(file))
		return PTR_ERR(file);
	do {
		loff_t pos = rdd->ctx.pos;

		err = iterate_dir(file, &rdd->ctx);
		if (!err && rdd->err)
			err = rdd->err;
		if (!err && pos == rdd->ctx.pos)
			break;
	} while (!err);
	fput(file);
	return err;
}

/*
 * Mark the whiteouts among the entries that the read of real directory
 * @dir added as DT_CHR or DT_UNKNOWN (and fill in unknown types) by
 * looking them up; the next read starts a new chain.
 */
static int ul_mark_whiteouts(struct ul_idmap *idmap, struct dentry *dir,
			     struct ul_readdir_data *rdd)
{
	struct ul_cache_entry *e = rdd->check;
	struct dentry *d;

	rdd->check = NULL;
	rdd->check_tail = &rdd->check;
	for (; e; e = e->next_check) {
		d = lookup_one_unlocked(idmap, e->name, dir, e->len);
		if (IS_ERR(d))
			return PTR_ERR(d);
		if (d_really_is_positive(d)) {
			e->whiteout = ul_is_whiteout(d);
			e->type = fs_umode_to_dtype(d_inode(d)->i_mode);
		}
		dput(d);
	}
	return 0;
}

/*
 * The marks of the directory just read (aufs_whiteouts): ".wh.N" masks
 * N, whether that lower directory holds N (then not listed) or a layer
 * below it does (a whiteout entry). N from a directory above, or in the
 * upper directory beside its mark, stays.
 * The marks are freed; with @err (the read failed) none is applied.
 *
 * Return: @err, or -ENOMEM.
 */
static int ul_aufs_apply(struct ul_readdir_data *rdd, int err)
{
	struct ul_dir_cache *cache = rdd->cache;
	struct rb_node **link, *parent;
	struct ul_aufs_mark *m, *tmp;
	struct ul_cache_entry *e;

	list_for_each_entry_safe(m, tmp, &rdd->marks, next) {
		list_del(&m->next);
		if (!err && m->len) {
			e = ul_cache_find(cache, m->name, m->len, &link,
					  &parent);
			if (e && !e->upper && e->layer == rdd->layer)
				e->whiteout = true;
			if (!e) {
				e = ul_cache_new(rdd, m->name, m->len, 0,
						 DT_UNKNOWN);
				if (e) {
					e->whiteout = true;
					rb_link_node(&e->node, parent, link);
					rb_insert_color(&e->node, &cache->root);
				} else {
					err = -ENOMEM;
				}
			}
		}
		kfree(m);
	}
	return err;
}

/*
 * The upper directories whose namesake in lower directory @lo came with
 * DT_UNKNOWN (a layer without d_type): is it a directory, merging with
 * them? Looked up, as for the whiteouts. The upper directory was read
 * first: its entries lead the list.
 */
static int ul_mark_lower_types(const struct ul_lower *lo,
			       struct ul_dir_cache *cache)
{
	struct ul_cache_entry *e;
	struct dentry *d;

	list_for_each_entry(e, &cache->entries, next) {
		if (!e->upper)
			break;
		if (e->type != DT_DIR ||
		    e->layer != lo->layer || e->lower_type != DT_UNKNOWN)
			continue;
		d = lookup_one_unlocked(ul_layer_idmap(lo->layer), e->name,
					lo->dentry, e->len);
		if (IS_ERR(d))
			return PTR_ERR(d);
		if (d_really_is_positive(d))
			e->lower_type = fs_umode_to_dtype(d_inode(d)->i_mode);
		dput(d);
	}
	return 0;
}

/*
 * The union's d_ino of an upper entry (see the top of this file), in
 * *@ino. Return: 0, or a negative errno when it could not be worked out
 * (the readdir then fails, as on overlayfs).
 */
static int ul_upper_entry_ino(struct super_block *sb, struct ul_inode *pui,
			      struct dentry *upperdir,
			      struct ul_cache_entry *e, bool impure, u64 *ino)
{
	struct ul_fs *ufs = UL_FS(sb);
	bool merged = e->type == DT_DIR && e->lower_type == DT_DIR;
	struct dentry *d;
	bool origin;
	int err = 0;

	*ino = ul_upper_d_ino(ufs, e->ino);
	if (!merged && !impure)
		return 0;
	d = lookup_one_unlocked(ul_upper_idmap(ufs), e->name, upperdir,
				e->len);
	if (IS_ERR(d))
		return PTR_ERR(d);
	/* a directory's lower may be under another name (a redirect) */
	if (d_is_dir(d))
		err = ul_dir_entry_ino(sb, pui, d, ino);
	else if (d_really_is_positive(d))
		err = ul_object_ino(sb, d, NULL, false, ino, &origin);
	dput(d);
	return err;
}

/*
 * Count the entries that are not whiteouts. With @want_ino (a listing,
 * not ul_check_empty()), also put them in cache->ents, in list order,
 * replace each one's real layer's d_ino by the union's, and set
 * cache->impure_unneeded when the upper directory is marked impure and
 * no entry's number is other than its upper inode's. One walk of the
 * list. Return: 0, -ENOMEM, or the negative errno of an entry whose
 * number could not be worked out.
 */
static int ul_cache_list(struct super_block *sb, struct ul_inode *ui,
			 struct dentry *upper, struct ul_dir_cache *cache,
			 bool want_ino)
{
	struct ul_fs *ufs = UL_FS(sb);
	bool impure = want_ino && upper && ul_is_impure(ufs, upper);
	bool needed = false;
	struct ul_cache_entry *e;
	u64 ino;
	int err;

	/* room for the whiteouts too: one walk, not a count first */
	if (want_ino) {
		cache->ents = kvmalloc_array(max(cache->nr, 1U),
					     sizeof(*cache->ents),
					     GFP_KERNEL_ACCOUNT);
		if (!cache->ents)
			return -ENOMEM;
	}
	list_for_each_entry(e, &cache->entries, next) {
		if (e->whiteout)
			continue;
		if (!want_ino) {
			cache->count++;
			continue;
		}
		cache->ents[cache->count++] = e;
		if (!e->upper) {
			/* one filesystem: every number is the layer's (ino.c) */
			if (!ufs->same_fs)
				e->ino = ul_lower_d_ino(ufs, e->layer, e->ino);
			continue;
		}
		err = ul_upper_entry_ino(sb, ui, upper, e, impure, &ino);
		if (err) {
			pr_warn_ratelimited("unionlite: failed to work out the inode number of %.*s (%i)\n",
					    e->len, e->name, err);
			return err;
		}
		needed |= ino != ul_upper_d_ino(ufs, e->ino);
		e->ino = ino;
	}
	cache->impure_unneeded = impure && !needed;
	return 0;
}

/*
 * The names of a union directory; with @want_ino, each with the union's
 * d_ino (ul_check_empty() needs only the names).
 */
static struct ul_dir_cache *ul_cache_build(struct dentry *dentry,
					   bool want_ino)
{
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct ul_inode *ui = UL_E(dentry);
	struct dentry *upper = ul_upper(ui);
	struct ul_readdir_data rdd = {
		.ctx.actor = ul_fill_merge,
		.ufs = ufs->config.aufs_whiteouts ? ufs : NULL,
	};
	struct ul_dir_cache *cache;
	const struct cred *old_cred;
	unsigned int i;
	int err = 0;

	cache = kzalloc(sizeof(*cache), GFP_KERNEL_ACCOUNT);
	if (!cache)
		return ERR_PTR(-ENOMEM);
	refcount_set(&cache->ref, 1);
	cache->root = RB_ROOT;
	INIT_LIST_HEAD(&cache->entries);
	INIT_LIST_HEAD(&rdd.marks);
	rdd.cache = cache;
	rdd.check_tail = &rdd.check;

	old_cred = ul_override_creds(dentry->d_sb);
	if (upper) {
		struct path path = { .mnt = ufs->upper_mnt, .dentry = upper };

		rdd.last = !ui->numlower;
		err = ul_read_real_dir(&path, &rdd);
		if (!err)
			err = ul_mark_whiteouts(ul_upper_idmap(ufs), upper,
						&rdd);
		err = ul_aufs_apply(&rdd, err);
	}
	for (i = 0; !err && i < ui->numlower; i++) {
		const struct ul_lower *lo = ul_lower_at(ui, i);
		struct path path;

		ul_lower_path(lo, &path);
		rdd.ctx.pos = 0;
		rdd.layer = lo->layer;
		rdd.lower_unknown = false;
		/* a mark may name an entry of its own directory */
		rdd.last = i + 1 == ui->numlower &&
			   !ufs->config.aufs_whiteouts;
		err = ul_read_real_dir(&path, &rdd);
		if (!err)
			err = ul_mark_whiteouts(ul_layer_idmap(lo->layer),
						lo->dentry, &rdd);
		err = ul_aufs_apply(&rdd, err);
		if (!err && want_ino && rdd.lower_unknown)
			err = ul_mark_lower_types(lo, cache);
	}
	if (!err)
		err = ul_cache_list(dentry->d_sb, ui, upper, cache, want_ino);
	revert_creds(old_cred);
	if (err) {
		ul_cache_free(cache);
		return ERR_PTR(err);
	}
	return cache;
}

/*
 * The directory's list for its current version (a reference): the shared
 * one if it is current, else a new one, which becomes the shared one.
 */
static struct ul_dir_cache *ul_cache_get(struct dentry *dentry)
{
	struct ul_inode *ui = UL_E(dentry);
	u64 version = atomic64_read(&ui->version);
	struct ul_dir_cache *cache;

	mutex_lock(&ui->lock);
	cache = ui->dcache;
	if (cache && cache->version == version) {
		refcount_inc(&cache->ref);
		goto out_unlock;
	}
	cache = ul_cache_build(dentry, true);
	if (IS_ERR(cache))
		goto out_unlock;
	cache->version = version;
	refcount_inc(&cache->ref);	/* the inode's */
	ul_cache_put(ui->dcache);
	ui->dcache = cache;
out_unlock:
	mutex_unlock(&ui->lock);
	return cache;
}

/**
 * ul_dir_cache_release - drop a directory's shared readdir list
 * @inode: the union inode, being evicted
 */
void ul_dir_cache_release(struct inode *inode)
{
	struct ul_inode *ui = UL_I(inode);

	ul_cache_put(ui->dcache);
	ui->dcache = NULL;
}

/**
 * ul_check_empty - does a union directory list no names?
 * @dentry: the union directory
 * @whiteouts: set to whether its upper directory holds whiteouts (which
 *	the upper filesystem counts as entries)
 *
 * Whiteouts do not count: those over lower names, and stale ones, whose
 * lower name is gone (a lower layer changed while unmounted).
 *
 * Return: 0 if empty, -ENOTEMPTY if not, another negative errno on error.
 */
int ul_check_empty(struct dentry *dentry, bool *whiteouts)
{
	struct ul_dir_cache *cache = ul_cache_build(dentry, false);
	struct ul_cache_entry *e;
	int err;

	if (IS_ERR(cache))
		return PTR_ERR(cache);
	err = cache->count ? -ENOTEMPTY : 0;
	*whiteouts = false;
	list_for_each_entry(e, &cache->entries, next) {
		if (e->whiteout && e->upper) {
			*whiteouts = true;
			break;
		}
	}
	ul_cache_put(cache);
	return err;
}

static bool ul_fill_real(struct dir_context *ctx, const char *name, int len,
			 loff_t pos, u64 ino, unsigned int type)
{
	struct ul_real_ctx *rc = container_of(ctx, struct ul_real_ctx, ctx);

	if (len == 1 && name[0] == '.')
		ino = rc->dot_ino;
	else if (len == 2 && name[0] == '.' && name[1] == '.')
		ino = rc->dotdot_ino;
	else if (rc->map)
		ino = ul_lower_d_ino(rc->ufs, rc->layer, ino);
	return rc->caller->actor(rc->caller, name, len, pos, ino, type);
}

/*
 * Caller holds od->lock; od->realfile's f_pos follows the union file's
 * (iterate_dir() starts rc.ctx at the real file's f_pos).
 */
static int ul_iterate_real(struct file *file, struct ul_dir_file *od,
			   struct dir_context *ctx)
{
	struct ul_real_ctx rc = {
		.ctx.actor = ul_fill_real,
		.caller = ctx,
		.ufs = UL_FS(file_inode(file)->i_sb),
		.layer = UL_I(file_inode(file))->lower.layer,
		/* one filesystem: every number is the layer's (ino.c) */
		.map = !UL_FS(file_inode(file)->i_sb)->same_fs,
		.dot_ino = file_inode(file)->i_ino,
		.dotdot_ino = d_parent_ino(file->f_path.dentry),
	};
	const struct cred *old_cred;
	int err = 0;

	old_cred = ul_override_creds(file_inode(file)->i_sb);
	if (od->realfile->f_pos != ctx->pos) {
		loff_t res = vfs_llseek(od->realfile, ctx->pos, SEEK_SET);

		if (res < 0)
			err = res;
	}
	if (!err)
		err = iterate_dir(od->realfile, &rc.ctx);
	revert_creds(old_cred);
	ctx->pos = rc.ctx.pos;
	return err;
}

/*
 * A directory of the upper layer alone whose listing found no entry that
 * needs the impure mark (the moved-in copies are gone) loses it, as on
 * overlayfs: its next listings read the upper d_ino as they are. Not one
 * with an origin (it was merged once; overlayfs reads it as merged and
 * keeps the mark). Best effort: a read-only union keeps it. The caller
 * holds the directory's i_rwsem (shared), so nothing moves a copy in
 * meanwhile.
 */
static void ul_drop_impure(struct dentry *dentry)
{
	struct super_block *sb = dentry->d_sb;
	struct ul_inode *ui = UL_E(dentry);
	struct dentry *upper = ul_upper(ui);
	const struct cred *old_cred;
	bool keep;
	int err = 0;

	if (!upper || ui->numlower || ul_want_write(sb))
		return;
	old_cred = ul_override_creds(sb);
	keep = ul_has_origin(ul_upper_idmap(UL_FS(sb)), upper);
	/* another reader of the same list may have dropped it already */
	if (!keep && ul_is_impure(UL_FS(sb), upper))
		err = ul_do_removexattr(UL_FS(sb), upper, UL_XATTR_IMPURE);
	revert_creds(old_cred);
	if (!keep && (!err || err == -ENODATA))
		clear_bit(UL_IMPURE, &ui->flags);
	ul_drop_write(sb);
}

static int ul_iterate(struct file *file, struct dir_context *ctx)
{
	struct ul_dir_file *od = file->private_data;
	struct inode *inode = file_inode(file);
	u64 version = atomic64_read(&UL_I(inode)->version);
	struct ul_dir_cache *cache;
	int err = 0;

	mutex_lock(&od->lock);
	if (od->realfile && ctx->pos == 0 && ul_upper(UL_I(inode))) {
		/* copied up since the open: merge from now on */
		fput(od->realfile);
		od->realfile = NULL;
	}
	if (od->realfile) {
		err = ul_iterate_real(file, od, ctx);
		goto out_unlock;
	}
	if (!od->cache || (ctx->pos <= 2 && od->cache->version != version)) {
		cache = ul_cache_get(file->f_path.dentry);
		err = PTR_ERR(cache);
		if (IS_ERR(cache))
			goto out_unlock;
		err = 0;
		ul_cache_put(od->cache);
		od->cache = cache;
		if (cache->impure_unneeded)
			ul_drop_impure(file->f_path.dentry);
	}
	if (!dir_emit_dots(file, ctx))
		goto out_unlock;
	cache = od->cache;
	while (ctx->pos - 2 < cache->count) {
		struct ul_cache_entry *e = cache->ents[ctx->pos - 2];

		if (!dir_emit(ctx, e->name, e->len, e->ino, e->type))
			break;
		ctx->pos++;
	}
out_unlock:
	mutex_unlock(&od->lock);
	return err;
}

static loff_t ul_dir_llseek(struct file *file, loff_t offset, int whence)
{
	struct ul_dir_file *od = file->private_data;
	loff_t res = -EINVAL;

	mutex_lock(&od->lock);
	if (od->realfile) {
		const struct cred *old_cred;

		old_cred = ul_override_creds(file_inode(file)->i_sb);
		res = vfs_llseek(od->realfile, offset, whence);
		revert_creds(old_cred);
		if (res >= 0)
			file->f_pos = res;
		goto out_unlock;
	}
	switch (whence) {
	case SEEK_CUR:
		offset += file->f_pos;
		fallthrough;
	case SEEK_SET:
		if (offset < 0)
			break;
		file->f_pos = offset;
		res = offset;
		break;
	}
out_unlock:
	mutex_unlock(&od->lock);
	return res;
}

/*
 * The lock of an open directory, in a class per stacking depth: reading
 * a union whose lower layer is a union reads that one inside it.
 */
static void ul_dir_file_lock_init(struct ul_dir_file *od, struct inode *inode)
{
	static struct lock_class_key keys[FILESYSTEM_MAX_STACK_DEPTH];
	int depth = inode->i_sb->s_stack_depth - 1;

	if (WARN_ON_ONCE(depth < 0 || depth >= FILESYSTEM_MAX_STACK_DEPTH))
		depth = 0;
	__mutex_init(&od->lock, "ul_dir_file->lock", &keys[depth]);
}

static int ul_dir_open(struct inode *inode, struct file *file)
{
	struct ul_inode *ui = UL_I(inode);
	const struct cred *old_cred;
	struct ul_dir_file *od;

	od = kzalloc(sizeof(*od), GFP_KERNEL);
	if (!od)
		return -ENOMEM;
	ul_dir_file_lock_init(od, inode);
	if (!ul_upper(ui) && ui->numlower == 1 &&
	    !test_bit(UL_WHITEOUTS, &ui->flags) &&
	    !UL_FS(inode->i_sb)->config.aufs_whiteouts) {
		struct path path;

		ul_lower_path(&ui->lower, &path);
		old_cred = ul_override_creds(inode->i_sb);
		od->realfile = dentry_open(&path, O_RDONLY | O_DIRECTORY |
					   O_LARGEFILE, current_cred());
		revert_creds(old_cred);
		if (IS_ERR(od->realfile)) {
			int err = PTR_ERR(od->realfile);

			kfree(od);
			return err;
		}
	}
	file->private_data = od;
	return 0;
}

static int ul_dir_release(struct inode *inode, struct file *file)
{
	struct ul_dir_file *od = file->private_data;

	if (od->realfile)
		fput(od->realfile);
	ul_cache_put(od->cache);
	kfree(od);
	return 0;
}

static int ul_dir_fsync(struct file *file, loff_t start, loff_t end,
			int datasync)
{
	struct dentry *dentry = file->f_path.dentry;
	struct ul_fs *ufs = UL_FS(dentry->d_sb);
	struct dentry *upper = ul_dentry_upper(dentry);
	struct path path = { .mnt = ufs->upper_mnt, .dentry = upper };
	const struct cred *old_cred;
	struct file *real;
	int err;

	if (!upper)
		return 0;	/* nothing of it is in the upper layer */
	err = ul_sync_status(ufs);
	if (err <= 0)
		return err;
	old_cred = ul_override_creds(dentry->d_sb);
	real = dentry_open(&path, O_RDONLY | O_DIRECTORY, current_cred());
	err = PTR_ERR(real);
	if (!IS_ERR(real)) {
		err = vfs_fsync_range(real, start, end, datasync);
		fput(real);
	}
	revert_creds(old_cred);
	return err;
}

const struct file_operations ul_dir_fops = {
	.open		= ul_dir_open,
	.release	= ul_dir_release,
	.read		= generic_read_dir,
	.iterate_shared	= ul_iterate,
	.llseek		= ul_dir_llseek,
	.fsync		= ul_dir_fsync,
};
