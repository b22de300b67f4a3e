// SPDX-License-Identifier: GPL-2.0
/*
 * ul-crash: the workload and the checker of the power-cut tests
 * (tests/crash-*): whiteout transitions looped on a union, the number of
 * the last one completed kept on a raw log disk, and after the cut a check
 * that the union shows the state before or after the operation in flight.
 *
 *   ul-crash lower LOWER
 *   ul-crash run   --union MNT --upper UPPER --log DEV [--seconds S]
 *                  [--target CLASS [--pace FILE --pause MS]]
 *   ul-crash check --union MNT --upper UPPER --log DEV
 *   ul-crash prepare --union MNT --upper UPPER --target CLASS [--nth N]
 *   ul-crash op      --union MNT --upper UPPER --target CLASS [--nth N]
 *   ul-crash classes
 *
 * lower: makes the lower layer, one directory per workload kind (below),
 * read-only after that. The union starts with nothing done to it (the
 * upper is empty).
 *
 * The kinds. Each works in its own directory of the union; a setup (seq 0)
 * then ops 1, 2, ... forever (or S seconds, default 60), periodic but for
 * the pools: lower names used once each (Hnn, Qnn: 0 to POOL - 1), since a
 * rename leaves a whiteout at the lower name it used. Every op is labelled
 * with its transition class (the recipe of docs/recipes.md it takes):
 *
 *   classic   lower P/{c0,c1}, F. setup: unlink P/c0, P/c1. Cycle:
 *             rmdir P, mkdir P, rename F G, rename G F, unlink F, create F
 *   rmdir     lower P/{c0,c1}. setup: unlink P/c0, P/c1. Cycle:
 *             rmdir P (rmdir-whiteout), mkdir P (mkdir-over-whiteout)
 *   rename    lower F. setup: rename F G, rename G F (the copy-up of F
 *             is done: its ten-odd steps would fill the cut window of
 *             the first op). Cycle: rename F G (rename-neg-q),
 *             rename G F (rename-over-whiteout)
 *   unlink    lower F. setup: unlink F, create F (the first unlink also
 *             makes the shared whiteout). Cycle: unlink F
 *             (unlink-whiteout), create F (create-over-whiteout)
 *   lowerq    lower F, H00.. Cycle: rename F Hj (rename-lower-q),
 *             rename Hj F (rename-onto-whiteout-p-lower)
 *   whdir     lower Q00/x.. Cycle: unlink Qj/x (unlink-whiteout),
 *             mkdir D (mkdir), rename D Qj (rename-whiteouts-dir)
 *   whdirp    lower P (an empty directory), Q00/x.. setup: rmdir P.
 *             Cycle: mkdir P (mkdir-over-whiteout), unlink Qj/x,
 *             rename P Qj (rename-whiteouts-dir-p-lower)
 *   existing  lower P. setup: create Q. Cycle: rename P Q
 *             (rename-existing-q), create P (create-over-whiteout)
 *   movedir   lower A (a directory), M00/x.. Cycle: rename Mj Nj
 *             (rename-dir: recipe 6, the copy-up with its redirect and
 *             recipe 3), rename Nj A/Nj (rename-moved-dir: recipe 6, an
 *             absolute redirect set on the upper directory, a plain
 *             rename). The union is mounted with redirect_dir=on.
 *   meta      lower C00.. Cycle: chmod Cj 0600 (meta-copy-up: the copy
 *             of the metadata alone), rename Cj Rj (rename-metacopy:
 *             recipe 6 on the copy, a redirect to its data, and
 *             recipe 3), an open of Rj for write, closed without a
 *             write (meta-data-copy-up: the data copied into the copy,
 *             then its mark removed). The union is mounted with
 *             metacopy=on (tests/lib/crash-states.sh).
 *   copy      lower C00.. Cycle: chmod Cj 0600 (copy-up: the data, then
 *             the metadata, of a whole copy; metacopy off).
 *
 * Files the workload creates are empty; lower files hold "lower-NAME\n",
 * belong to 1000:1000 and, as the lower directories, have the xattr
 * user.ul=PATH (where the lower fs has user xattrs).
 *
 * run: with --target CLASS the kind is the one that CLASS is taken from
 * (without it: classic). With --pace FILE (unionlite's step_pause_ms
 * parameter) MS is written there before every op of CLASS and 0 before
 * any other op, so that ops of CLASS take most of the time and the cuts
 * fall mostly inside them. Before each op a line "ul-crash: op K start"
 * and after it "ul-crash: op K done" go to /dev/kmsg (the host reads on
 * the console of the cut boot where the cut fell: with unionlite's trace
 * parameter, the steps of op K are the lines between the two). After each
 * op (and after the setup): syncfs(2) on the union and on the upper, then
 * the op's number and the kind are written to DEV (O_DIRECT | O_SYNC, the
 * ul-seqlog record: first 512-byte sector "ulseq <N> <KIND>\n"). So when
 * DEV says S, the upper on disk must be in the state after S or after
 * S+1. It prints "UL-CUT-WINDOW" once, when the loop starts (the host
 * cuts the power some time after that line), and "run: N ops" if never
 * cut.
 *
 * A broken union (unionlite's test parameter naive, or one that leaves
 * work/ as a cut left it) is caught by the same run and check: the tests
 * load the module with step_sync, so that each step of a recipe reaches
 * the disk on its own and a cut can fall between two steps.
 *
 * check: reads S and the kind from DEV, computes the states after S and
 * after S+1 by replaying the ops on a model of the kind's directory
 * (every name, its type, a file's content), and compares the union's
 * directory with both. The union's root must list each kind's directory
 * once and nothing else; a name of the lower layer absent from the union
 * must be a whiteout (0/0 character device) in the upper. Lines:
 *
 *   stray whiteouts in upper: N
 *   check: seq S (next: OP [CLASS], kind KIND): state after S
 *   check: seq S (next: OP [CLASS], kind KIND): state after S+1
 *   check: seq S (next: OP [CLASS], kind KIND): VIOLATION: WHAT; NAME: seen
 *          .., after S .., after S+1 ..; ...
 *
 * A stray whiteout is one at a name the lower layer does not have (in the
 * kind's directory): no completed op leaves one, a cut between the steps
 * of recipe 3 or of rename-over-whiteout does (it hides nothing). WHAT is
 * one of "synced op K (OP) lost", "neither before nor after" (then each
 * name whose state is neither), "upper NAME: not a whiteout", "a name
 * listed twice", "root: ...". Exit status: 0 matched, 1 violation, 2
 * error (usage, I/O).
 *
 * prepare and op: one transition alone (tests/lib/crash-states.sh). K is
 * the number of the N-th op of CLASS (default 2: the first op of a class
 * may also copy up what it uses) in its kind's sequence. prepare does the
 * kind's setup and ops 1 to K-1, then syncfs(2) on the union and the
 * upper; op does op K alone, then the same syncfs. Each prints what it
 * did ("prepare: ...", "op K: OP [CLASS]").
 *
 * classes: prints each transition class, its kind and what it is.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define SECTOR		512
#define POOL		100	/* lower names of a pool */
#define MAX_ENT		512	/* entries of one kind's directory */
#define NAME_LEN	32	/* a path inside a kind's directory */
#define DATA_LEN	24	/* a file's content, as far as it is read */
#define LOST_DEPTH	2	/* how far back "synced op K lost" looks */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* a bounded copy that must not truncate */
static void cpy(char *dst, size_t n, const char *src)
{
	if ((size_t)snprintf(dst, n, "%s", src) >= n) {
		errno = ENAMETOOLONG;
		die("name %s", src);
	}
}

/* ---- transition classes and kinds ---- */

enum tclass {
	TC_RMDIR_WH, TC_MKDIR_WH, TC_RENAME_NEG, TC_RENAME_LOWER_Q,
	TC_RENAME_WHDIR, TC_RENAME_WHDIR_P, TC_RENAME_EXIST, TC_UNLINK_WH,
	TC_CREATE_WH, TC_RENAME_OVER_WH, TC_RENAME_DIR, TC_RENAME_MOVED_DIR,
	TC_META_COPY, TC_RENAME_META, TC_META_DATA, TC_COPY,
	/* not targeted: the ops that bring a kind back to its start */
	TC_RENAME_ONTO_WH_P, TC_PLAIN,
	NR_TC
};

enum kind { K_CLASSIC, K_RMDIR, K_RENAME, K_UNLINK, K_LOWERQ, K_WHDIR,
	    K_WHDIRP, K_EXISTING, K_MOVEDIR, K_META, K_COPY, NR_KINDS };

static const char *const kind_names[NR_KINDS] = {
	"classic", "rmdir", "rename", "unlink", "lowerq", "whdir", "whdirp",
	"existing", "movedir", "meta", "copy",
};

static const struct {
	const char *name;
	enum kind kind;
	const char *what;
} tclasses[NR_TC] = {
	[TC_RMDIR_WH] = { "rmdir-whiteout", K_RMDIR,
		"recipe 1: rmdir of a directory that needs a whiteout" },
	[TC_MKDIR_WH] = { "mkdir-over-whiteout", K_RMDIR,
		"recipe 2: mkdir over a whiteout" },
	[TC_RENAME_NEG] = { "rename-neg-q", K_RENAME,
		"recipe 3: rename P Q, P needs a whiteout, Q negative" },
	[TC_RENAME_LOWER_Q] = { "rename-lower-q", K_LOWERQ,
		"recipe 5: rename P Q, P needs a whiteout, Q only in lower" },
	[TC_RENAME_WHDIR] = { "rename-whiteouts-dir", K_WHDIR,
		"recipe 4: rename onto a directory holding only whiteouts" },
	[TC_RENAME_WHDIR_P] = { "rename-whiteouts-dir-p-lower", K_WHDIRP,
		"recipe 4+5: the same, P needs a whiteout" },
	[TC_RENAME_EXIST] = { "rename-existing-q", K_EXISTING,
		"recipe 5: rename P Q, P needs a whiteout, Q in upper" },
	[TC_UNLINK_WH] = { "unlink-whiteout", K_UNLINK,
		"unlink of a file that needs a whiteout" },
	[TC_CREATE_WH] = { "create-over-whiteout", K_UNLINK,
		"create of a file over a whiteout" },
	[TC_RENAME_OVER_WH] = { "rename-over-whiteout", K_RENAME,
		"rename P Q, P needs no whiteout, upper/Q a whiteout" },
	[TC_RENAME_DIR] = { "rename-dir", K_MOVEDIR,
		"recipe 6: rename of a lower-only directory (redirect)" },
	[TC_RENAME_MOVED_DIR] = { "rename-moved-dir", K_MOVEDIR,
		"recipe 6: a moved directory moved to another parent" },
	[TC_META_COPY] = { "meta-copy-up", K_META,
		"metacopy=on: chmod of a lower file, its metadata copied up" },
	[TC_RENAME_META] = { "rename-metacopy", K_META,
		"recipe 6: rename of a metacopy file (a redirect to its data)" },
	[TC_META_DATA] = { "meta-data-copy-up", K_META,
		"metacopy=on: an open for write of a metacopy file, its data copied up" },
	[TC_COPY] = { "copy-up", K_COPY,
		"chmod of a lower file, copied up whole" },
	[TC_RENAME_ONTO_WH_P] = { "rename-onto-whiteout-p-lower", NR_KINDS,
		"recipe 3 (exchange only): P needs a whiteout, upper/Q one" },
	[TC_PLAIN] = { "plain", NR_KINDS,
		"mkdir or create where no layer has the name" },
};

enum opcode { OC_UNLINK, OC_RMDIR, OC_MKDIR, OC_CREATE, OC_RENAME,
	      OC_CHMOD, OC_OPEN_W };

static const char *const oc_names[] = {
	"unlink", "rmdir", "mkdir", "create", "rename", "chmod", "open-w",
};

struct op {
	enum opcode code;
	enum tclass cls;
	char a[NAME_LEN], b[NAME_LEN];
};

static void set_op(struct op *o, enum opcode code, enum tclass cls,
		   const char *a, const char *b)
{
	o->code = code;
	o->cls = cls;
	cpy(o->a, sizeof(o->a), a);
	cpy(o->b, sizeof(o->b), b ? b : "");
}

static void pool_name(char *buf, char c, unsigned long j, const char *sub)
{
	snprintf(buf, NAME_LEN, "%c%02lu%s", c, j % 100, sub);
}

/* setup op I of KIND (seq 0, in order); 0 when there is no such op */
static int kind_setup(enum kind kind, int i, struct op *o)
{
	switch (kind) {
	case K_CLASSIC:
	case K_RMDIR:
		if (i > 1)
			return 0;
		set_op(o, OC_UNLINK, TC_UNLINK_WH, i ? "P/c1" : "P/c0", NULL);
		return 1;
	case K_WHDIRP:
		if (i > 0)
			return 0;
		set_op(o, OC_RMDIR, TC_RMDIR_WH, "P", NULL);
		return 1;
	case K_EXISTING:
		if (i > 0)
			return 0;
		set_op(o, OC_CREATE, TC_PLAIN, "Q", NULL);
		return 1;
	case K_UNLINK:
		if (i > 1)
			return 0;
		if (i)
			set_op(o, OC_CREATE, TC_CREATE_WH, "F", NULL);
		else
			set_op(o, OC_UNLINK, TC_UNLINK_WH, "F", NULL);
		return 1;
	case K_RENAME:
		if (i > 1)
			return 0;
		if (i)
			set_op(o, OC_RENAME, TC_RENAME_OVER_WH, "G", "F");
		else
			set_op(o, OC_RENAME, TC_RENAME_NEG, "F", "G");
		return 1;
	default:
		return 0;
	}
}

/* op K >= 1 of KIND; 0 when K is beyond the kind's pool */
static int kind_op(enum kind kind, unsigned long k, struct op *o)
{
	static const struct {
		enum opcode code;
		enum tclass cls;
		const char *a, *b;
	} classic[6] = {
		{ OC_RMDIR, TC_RMDIR_WH, "P", NULL },
		{ OC_MKDIR, TC_MKDIR_WH, "P", NULL },
		{ OC_RENAME, TC_RENAME_NEG, "F", "G" },
		{ OC_RENAME, TC_RENAME_OVER_WH, "G", "F" },
		{ OC_UNLINK, TC_UNLINK_WH, "F", NULL },
		{ OC_CREATE, TC_CREATE_WH, "F", NULL },
	};
	unsigned long c = k - 1, j;
	char q[NAME_LEN], x[NAME_LEN];
	int i;

	switch (kind) {
	case K_CLASSIC:
		i = c % 6;
		set_op(o, classic[i].code, classic[i].cls, classic[i].a,
		       classic[i].b);
		return 1;
	case K_RMDIR:
		i = c % 2;
		set_op(o, classic[i].code, classic[i].cls, classic[i].a,
		       classic[i].b);
		return 1;
	case K_RENAME:
	case K_UNLINK:
		i = c % 2 + (kind == K_RENAME ? 2 : 4);
		set_op(o, classic[i].code, classic[i].cls, classic[i].a,
		       classic[i].b);
		return 1;
	case K_LOWERQ:
		j = c / 2;
		if (j >= POOL)
			return 0;
		pool_name(q, 'H', j, "");
		if (c % 2 == 0)
			set_op(o, OC_RENAME, TC_RENAME_LOWER_Q, "F", q);
		else
			set_op(o, OC_RENAME, TC_RENAME_ONTO_WH_P, q, "F");
		return 1;
	case K_WHDIR:
	case K_WHDIRP:
		j = c / 3;
		if (j >= POOL)
			return 0;
		pool_name(q, 'Q', j, "");
		pool_name(x, 'Q', j, "/x");
		if (kind == K_WHDIR) {
			/* unlink Qj/x, mkdir D, rename D Qj */
			if (c % 3 == 0)
				set_op(o, OC_UNLINK, TC_UNLINK_WH, x, NULL);
			else if (c % 3 == 1)
				set_op(o, OC_MKDIR, TC_PLAIN, "D", NULL);
			else
				set_op(o, OC_RENAME, TC_RENAME_WHDIR, "D", q);
		} else {
			/* mkdir P, unlink Qj/x, rename P Qj */
			if (c % 3 == 0)
				set_op(o, OC_MKDIR, TC_MKDIR_WH, "P", NULL);
			else if (c % 3 == 1)
				set_op(o, OC_UNLINK, TC_UNLINK_WH, x, NULL);
			else
				set_op(o, OC_RENAME, TC_RENAME_WHDIR_P, "P", q);
		}
		return 1;
	case K_EXISTING:
		if (c % 2 == 0)
			set_op(o, OC_RENAME, TC_RENAME_EXIST, "P", "Q");
		else
			set_op(o, OC_CREATE, TC_CREATE_WH, "P", NULL);
		return 1;
	case K_MOVEDIR:
		j = c / 2;
		if (j >= POOL)
			return 0;
		pool_name(q, 'N', j, "");
		if (c % 2 == 0) {
			pool_name(x, 'M', j, "");
			set_op(o, OC_RENAME, TC_RENAME_DIR, x, q);
		} else {
			snprintf(x, NAME_LEN, "A/N%02lu", j % 100);
			set_op(o, OC_RENAME, TC_RENAME_MOVED_DIR, q, x);
		}
		return 1;
	case K_META:
		j = c / 3;
		if (j >= POOL)
			return 0;
		pool_name(x, 'C', j, "");
		pool_name(q, 'R', j, "");
		if (c % 3 == 0)
			set_op(o, OC_CHMOD, TC_META_COPY, x, NULL);
		else if (c % 3 == 1)
			set_op(o, OC_RENAME, TC_RENAME_META, x, q);
		else
			set_op(o, OC_OPEN_W, TC_META_DATA, q, NULL);
		return 1;
	case K_COPY:
		if (c >= POOL)
			return 0;
		pool_name(x, 'C', c, "");
		set_op(o, OC_CHMOD, TC_COPY, x, NULL);
		return 1;
	default:
		return 0;
	}
}

static void fmt_op(char *buf, size_t n, const struct op *o)
{
	snprintf(buf, n, "%s %s%s%s [%s]", oc_names[o->code], o->a,
		 *o->b ? " " : "", o->b, tclasses[o->cls].name);
}

/* ---- the model: the entries of one kind's directory ---- */

struct ent {
	char path[NAME_LEN];
	char type;		/* f file, d directory, c char device, ? */
	char data[DATA_LEN];	/* a file's content, a device's numbers */
};

struct state {
	int n;
	int dup;		/* the observer saw a name twice */
	struct ent e[MAX_ENT];
};

static int ent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ent *)a)->path,
		      ((const struct ent *)b)->path);
}

static void st_sort(struct state *st)
{
	int i;

	qsort(st->e, st->n, sizeof(st->e[0]), ent_cmp);
	for (i = 1; i < st->n; i++)
		if (!strcmp(st->e[i - 1].path, st->e[i].path))
			st->dup = 1;
}

static struct ent *st_add(struct state *st, const char *path, char type,
			  const char *data)
{
	struct ent *e;

	if (st->n >= MAX_ENT)
		return NULL;
	e = &st->e[st->n++];
	cpy(e->path, sizeof(e->path), path);
	e->type = type;
	cpy(e->data, sizeof(e->data), data);
	return e;
}

static int st_find(const struct state *st, const char *path)
{
	int i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->e[i].path, path))
			return i;
	return -1;
}

/* is PATH below DIR (DIR/...)? */
static int below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/';
}

/* remove PATH and everything below it */
static void st_remove(struct state *st, const char *path)
{
	char p[NAME_LEN];
	int i, j;

	snprintf(p, sizeof(p), "%s", path);
	for (i = j = 0; i < st->n; i++)
		if (strcmp(st->e[i].path, p) && !below(st->e[i].path, p))
			st->e[j++] = st->e[i];
	st->n = j;
}

static void st_apply(struct state *st, const struct op *o)
{
	char np[NAME_LEN * 2];
	size_t n;
	int i;

	switch (o->code) {
	case OC_UNLINK:
	case OC_RMDIR:
		st_remove(st, o->a);
		break;
	case OC_MKDIR:
		st_add(st, o->a, 'd', "");
		break;
	case OC_CREATE:
		st_add(st, o->a, 'f', "");
		break;
	case OC_RENAME:
		st_remove(st, o->b);
		n = strlen(o->a);
		for (i = 0; i < st->n; i++) {
			if (strcmp(st->e[i].path, o->a) &&
			    !below(st->e[i].path, o->a))
				continue;
			snprintf(np, sizeof(np), "%s%s", o->b,
				 st->e[i].path + n);
			cpy(st->e[i].path, NAME_LEN, np);
		}
		break;
	case OC_CHMOD:
	case OC_OPEN_W:
		break;	/* the model has no modes; the content stays */
	}
	st_sort(st);
}

static void lower_data(char *buf, const char *path)
{
	const char *base = strrchr(path, '/');

	if ((size_t)snprintf(buf, DATA_LEN, "lower-%s\n",
			     base ? base + 1 : path) >= DATA_LEN) {
		errno = ENAMETOOLONG;
		die("lower content of %s", path);
	}
}

static void lower_file(struct state *st, const char *path)
{
	char d[DATA_LEN];

	lower_data(d, path);
	st_add(st, path, 'f', d);
}

/* the pool's directories C00.. of the lower layer, each holding x */
static void pool_dirs(struct state *st, char c)
{
	char p[NAME_LEN];
	int j;

	for (j = 0; j < POOL; j++) {
		pool_name(p, c, j, "");
		st_add(st, p, 'd', "");
		pool_name(p, c, j, "/x");
		lower_file(st, p);
	}
}

/* the lower layer's entries of KIND's directory, sorted */
static void fixture(enum kind kind, struct state *st)
{
	char p[NAME_LEN];
	int j;

	memset(st, 0, sizeof(*st));
	switch (kind) {
	case K_CLASSIC:
	case K_RMDIR:
		st_add(st, "P", 'd', "");
		lower_file(st, "P/c0");
		lower_file(st, "P/c1");
		if (kind == K_CLASSIC)
			lower_file(st, "F");
		break;
	case K_RENAME:
	case K_UNLINK:
		lower_file(st, "F");
		break;
	case K_LOWERQ:
		lower_file(st, "F");
		for (j = 0; j < POOL; j++) {
			pool_name(p, 'H', j, "");
			lower_file(st, p);
		}
		break;
	case K_WHDIRP:
		st_add(st, "P", 'd', "");
		/* fall through */
	case K_WHDIR:
		pool_dirs(st, 'Q');
		break;
	case K_EXISTING:
		lower_file(st, "P");
		break;
	case K_MOVEDIR:
		st_add(st, "A", 'd', "");
		pool_dirs(st, 'M');
		break;
	case K_META:
	case K_COPY:
		for (j = 0; j < POOL; j++) {
			pool_name(p, 'C', j, "");
			lower_file(st, p);
		}
		break;
	default:
		break;
	}
	st_sort(st);
}

/* the model's state after op S of KIND (S = 0: after the setup) */
static void state_after(enum kind kind, unsigned long s, struct state *st)
{
	struct op o;
	unsigned long k;
	int i;

	fixture(kind, st);
	for (i = 0; kind_setup(kind, i, &o); i++)
		st_apply(st, &o);
	for (k = 1; k <= s && kind_op(kind, k, &o); k++)
		st_apply(st, &o);
}

static int same(const struct state *a, const struct state *b)
{
	int i;

	if (a->n != b->n || a->dup || b->dup)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->e[i].path, b->e[i].path) ||
		    a->e[i].type != b->e[i].type ||
		    strcmp(a->e[i].data, b->e[i].data))
			return 0;
	return 1;
}

/* ---- helpers ---- */

static const char *opt_union, *opt_upper, *opt_log, *opt_target, *opt_pace;
static unsigned int opt_seconds = 60, opt_pause;
static unsigned long opt_nth = 2;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stdout, "ul-crash: ");
	vfprintf(stdout, fmt, ap);
	fprintf(stdout, ": %s\n", strerror(errno));
	va_end(ap);
	fflush(stdout);
	exit(2);
}

static const char *pth(char *buf, const char *base, const char *name)
{
	if (snprintf(buf, PATH_MAX, "%s/%s", base, name) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		die("%s", base);
	}
	return buf;
}

static enum kind kind_by_name(const char *name)
{
	int i;

	for (i = 0; i < NR_KINDS; i++)
		if (!strcmp(kind_names[i], name))
			return i;
	return NR_KINDS;
}

/* ---- the log disk (the ul-seqlog record) ---- */

static char secbuf[SECTOR] __attribute__((aligned(4096)));

static int log_open(int write)
{
	int fd = open(opt_log, write ? O_WRONLY | O_DIRECT | O_SYNC : O_RDONLY | O_DIRECT);

	if (fd < 0)
		die("open %s", opt_log);
	return fd;
}

static void log_write(int fd, unsigned long n, enum kind kind)
{
	memset(secbuf, 0, sizeof(secbuf));
	snprintf(secbuf, sizeof(secbuf), "ulseq %lu %s\n", n, kind_names[kind]);
	if (pwrite(fd, secbuf, SECTOR, 0) != SECTOR)
		die("write %s", opt_log);
}

/* the last op logged, or ULONG_MAX; *KIND its kind */
static unsigned long log_read(enum kind *kind)
{
	char name[16];
	unsigned long n;
	int fd = log_open(0);

	if (pread(fd, secbuf, SECTOR, 0) != SECTOR)
		die("read %s", opt_log);
	close(fd);
	if (sscanf(secbuf, "ulseq %lu %15s", &n, name) != 2)
		return ULONG_MAX;
	*kind = kind_by_name(name);
	return *kind == NR_KINDS ? ULONG_MAX : n;
}

/* ---- the workload ---- */

static int sync_fds[2] = { -1, -1 };
static int kmsg_fd = -1, pace_fd = -1;

static void do_sync(void)
{
	int i;

	for (i = 0; i < 2; i++)
		if (sync_fds[i] >= 0 && syncfs(sync_fds[i]))
			die("syncfs");
}

static void open_sync_fds(void)
{
	sync_fds[0] = open(opt_union, O_RDONLY | O_DIRECTORY);
	if (sync_fds[0] < 0)
		die("open %s", opt_union);
	sync_fds[1] = open(opt_upper, O_RDONLY | O_DIRECTORY);
	if (sync_fds[1] < 0)
		die("open %s", opt_upper);
}

static void kmsg(unsigned long k, const char *what)
{
	char buf[160];
	int n;

	if (kmsg_fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "ul-crash: op %lu %s\n", k, what);
	if (n >= (int)sizeof(buf) || write(kmsg_fd, buf, n) != n)
		die("write /dev/kmsg");
}

/* unionlite's step_pause_ms: MS before ops of the target class, else 0 */
static void pace(unsigned int ms)
{
	static unsigned int cur = UINT_MAX;
	char buf[16];
	int n;

	if (pace_fd < 0 || ms == cur)
		return;
	n = snprintf(buf, sizeof(buf), "%u\n", ms);
	if (pwrite(pace_fd, buf, n, 0) != n)
		die("write %s", opt_pace);
	cur = ms;
}

static int open_write(const char *path)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return -1;
	return close(fd);
}

static int create_empty(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		return -1;
	return close(fd);
}

static void do_op(const char *dir, unsigned long k, const struct op *o)
{
	char a[PATH_MAX], b[PATH_MAX], desc[96];
	int ret = 0;

	pth(a, dir, o->a);
	pth(b, dir, o->b);
	switch (o->code) {
	case OC_UNLINK:
		ret = unlink(a);
		break;
	case OC_RMDIR:
		ret = rmdir(a);
		break;
	case OC_MKDIR:
		ret = mkdir(a, 0755);
		break;
	case OC_CREATE:
		ret = create_empty(a);
		break;
	case OC_RENAME:
		ret = rename(a, b);
		break;
	case OC_CHMOD:
		ret = chmod(a, 0600);
		break;
	case OC_OPEN_W:
		ret = open_write(a);
		break;
	}
	if (ret < 0) {
		fmt_op(desc, sizeof(desc), o);
		die("op %lu: %s", k, desc);
	}
}

/* the class of --target (exits when there is none) */
static enum tclass target_class(void)
{
	int i;

	for (i = 0; opt_target && i < NR_TC; i++)
		if (!strcmp(tclasses[i].name, opt_target) &&
		    tclasses[i].kind != NR_KINDS)
			return i;
	fprintf(stdout, "ul-crash: no such target class: %s\n",
		opt_target ? opt_target : "(none)");
	exit(2);
}

static int run(void)
{
	char dir[PATH_MAX], desc[96], mark[104];
	enum kind kind = K_CLASSIC;
	enum tclass target = NR_TC;
	struct op o;
	double end;
	unsigned long k;
	struct timespec ts;
	int lfd, i;

	if (opt_target) {
		target = target_class();
		kind = tclasses[target].kind;
	}
	pth(dir, opt_union, kind_names[kind]);
	lfd = log_open(1);
	open_sync_fds();
	kmsg_fd = open("/dev/kmsg", O_WRONLY);
	if (opt_pace) {
		pace_fd = open(opt_pace, O_WRONLY);
		if (pace_fd < 0)
			die("open %s", opt_pace);
	}
	printf("run: kind %s, target %s\n", kind_names[kind],
	       opt_target ? opt_target : "none");
	for (i = 0; kind_setup(kind, i, &o); i++)
		do_op(dir, 0, &o);
	do_sync();
	log_write(lfd, 0, kind);
	printf("UL-CUT-WINDOW\n");
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = ts.tv_sec + ts.tv_nsec / 1e9 + opt_seconds;
	for (k = 1; ; k++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (ts.tv_sec + ts.tv_nsec / 1e9 >= end)
			break;
		if (!kind_op(kind, k, &o)) {
			printf("run: the pool of %d lower names is used up after %lu ops\n",
			       POOL, k - 1);
			return 0;
		}
		pace(o.cls == target ? opt_pause : 0);
		fmt_op(desc, sizeof(desc), &o);
		snprintf(mark, sizeof(mark), "start %s", desc);
		kmsg(k, mark);
		do_op(dir, k, &o);
		kmsg(k, "done");
		do_sync();
		log_write(lfd, k, kind);
	}
	printf("run: %lu ops, the power was not cut\n", k - 1);
	return 0;
}

/*
 * prepare and op: one transition alone, for tests/crash-states. K is the
 * number of the NTH op of the target class in its kind's sequence.
 */
static unsigned long target_op(enum tclass target, struct op *o)
{
	unsigned long k, seen = 0;

	for (k = 1; kind_op(tclasses[target].kind, k, o); k++)
		if (o->cls == target && ++seen == opt_nth)
			return k;
	fprintf(stdout, "ul-crash: %s has no op number %lu\n", opt_target, opt_nth);
	exit(2);
}

static int step(int prepare)
{
	enum tclass target = target_class();
	enum kind kind = tclasses[target].kind;
	unsigned long k, last;
	char dir[PATH_MAX], desc[96];
	struct op o;
	int i;

	pth(dir, opt_union, kind_names[kind]);
	open_sync_fds();
	last = target_op(target, &o);
	fmt_op(desc, sizeof(desc), &o);
	if (!prepare) {
		do_op(dir, last, &o);
		do_sync();
		printf("op %lu: %s\n", last, desc);
		return 0;
	}
	for (i = 0; kind_setup(kind, i, &o); i++)
		do_op(dir, 0, &o);
	for (k = 1; k < last; k++) {
		kind_op(kind, k, &o);
		do_op(dir, k, &o);
	}
	do_sync();
	printf("prepare: kind %s, %d setup ops and ops 1-%lu done, next op %lu: %s\n",
	       kind_names[kind], i, last - 1, last, desc);
	return 0;
}

/* ---- the checker ---- */

static int is_whiteout(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(0, 0);
}

static void read_data(const char *path, char *data)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open %s", path);
	n = read(fd, data, DATA_LEN - 1);
	if (n < 0)
		die("read %s", path);
	close(fd);
	data[n] = 0;
}

/* the entries below DIR (REL: its path in the kind's directory) */
static void observe_dir(const char *dir, const char *rel, struct state *st,
			int depth)
{
	char p[PATH_MAX], r[NAME_LEN * 2], data[DATA_LEN];
	struct dirent *de;
	struct ent *e;
	struct stat s;
	DIR *d;

	d = opendir(dir);
	if (!d)
		die("opendir %s", dir);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((size_t)snprintf(r, sizeof(r), "%s%s%s", rel, *rel ? "/" : "",
				     de->d_name) >= sizeof(r)) {
			errno = ENAMETOOLONG;
			die("observe %s/%s", dir, de->d_name);
		}
		pth(p, dir, de->d_name);
		if (lstat(p, &s))
			die("lstat %s", p);
		*data = 0;
		if (S_ISREG(s.st_mode))
			read_data(p, data);
		else if (S_ISCHR(s.st_mode))
			snprintf(data, sizeof(data), "%u,%u",
				 major(s.st_rdev), minor(s.st_rdev));
		e = st_add(st, r, S_ISDIR(s.st_mode) ? 'd' : S_ISREG(s.st_mode) ?
			   'f' : S_ISCHR(s.st_mode) ? 'c' : '?', data);
		if (!e) {
			errno = EFBIG;
			die("observe %s", dir);
		}
		if (S_ISDIR(s.st_mode) && depth < 3)
			observe_dir(p, r, st, depth + 1);
	}
	closedir(d);
}

static void fmt_ent(char *buf, size_t n, const struct state *st, const char *path)
{
	const struct ent *e;
	char data[DATA_LEN];
	int i = st_find(st, path);

	if (i < 0) {
		snprintf(buf, n, "absent");
		return;
	}
	e = &st->e[i];
	snprintf(data, sizeof(data), "%s", e->data);
	if (*data && data[strlen(data) - 1] == '\n')
		data[strlen(data) - 1] = 0;
	if (e->type == 'd')
		snprintf(buf, n, "dir");
	else if (e->type == 'f')
		snprintf(buf, n, "file '%s'", data);
	else if (e->type == 'c')
		snprintf(buf, n, "chardev %s", data);
	else
		snprintf(buf, n, "other");
}

static int ent_same(const struct state *x, const struct state *y, const char *path)
{
	int i = st_find(x, path), j = st_find(y, path);

	if (i < 0 || j < 0)
		return i == j;
	return x->e[i].type == y->e[j].type && !strcmp(x->e[i].data, y->e[j].data);
}

/*
 * The names whose state in SEEN is neither that in A nor that in B; when
 * there is none (a mix of the two), the names that differ between A and
 * B, each with the state it is seen in.
 */
static void print_neither(const struct state *seen, const struct state *a,
			  const struct state *b)
{
	const struct state *all[3] = { seen, a, b };
	char s0[48], s1[48], s2[48];
	const char *path;
	int i, j, pass, shown = 0;

	for (pass = 0; pass < 2 && !shown; pass++) {
		for (j = 0; j < 3; j++) {
			for (i = 0; i < all[j]->n; i++) {
				path = all[j]->e[i].path;
				/* each path once: where it first occurs */
				if ((j > 0 && st_find(seen, path) >= 0) ||
				    (j > 1 && st_find(a, path) >= 0))
					continue;
				if (pass ? ent_same(a, b, path) :
				    ent_same(seen, a, path) || ent_same(seen, b, path))
					continue;
				if (shown++ >= 4)
					continue;
				fmt_ent(s0, sizeof(s0), seen, path);
				fmt_ent(s1, sizeof(s1), a, path);
				fmt_ent(s2, sizeof(s2), b, path);
				printf("; %s: seen %s, after S %s, after S+1 %s",
				       path, s0, s1, s2);
			}
		}
	}
}

static struct state st_a, st_b, st_seen, st_old, st_lower;

static int check(void)
{
	char dir[PATH_MAX], p[PATH_MAX], desc[96], seen_msg[160];
	char extra[256] = "";
	enum kind kind = NR_KINDS;
	struct state *root = &st_old;
	unsigned long s, k;
	struct op next, o;
	struct stat sb;
	int i, stray = 0, bad;

	s = log_read(&kind);
	if (s == ULONG_MAX) {
		printf("check: no record on %s (the workload never logged)\n", opt_log);
		return 2;
	}
	pth(dir, opt_union, kind_names[kind]);
	state_after(kind, s, &st_a);
	state_after(kind, s + 1, &st_b);
	if (!kind_op(kind, s + 1, &next)) {
		errno = ERANGE;
		die("seq %lu beyond the pool", s);
	}
	memset(&st_seen, 0, sizeof(st_seen));
	observe_dir(dir, "", &st_seen, 1);
	st_sort(&st_seen);

	/* the root: each kind's directory once, nothing else */
	memset(root, 0, sizeof(*root));
	observe_dir(opt_union, "", root, 3);
	st_sort(root);
	bad = root->dup || root->n != NR_KINDS;
	for (i = 0; !bad && i < NR_KINDS; i++)
		bad = st_find(root, kind_names[i]) < 0 ||
		      root->e[st_find(root, kind_names[i])].type != 'd';
	if (bad)
		snprintf(extra, sizeof(extra),
			 "root: not the %d kind directories once each", NR_KINDS);
	else if (st_seen.dup)
		snprintf(extra, sizeof(extra), "a name listed twice");

	/* the upper: lower names absent from the union are whiteouts */
	fixture(kind, &st_lower);
	for (i = 0; !*extra && i < st_lower.n; i++) {
		if (strchr(st_lower.e[i].path, '/') ||
		    st_find(&st_seen, st_lower.e[i].path) >= 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s/%s", opt_upper,
			 kind_names[kind], st_lower.e[i].path);
		if (lstat(p, &sb) || !is_whiteout(&sb))
			snprintf(extra, sizeof(extra), "upper %s: not a whiteout",
				 st_lower.e[i].path);
	}
	/* stray whiteouts: at names the lower layer does not have */
	memset(&st_old, 0, sizeof(st_old));
	pth(p, opt_upper, kind_names[kind]);
	if (!lstat(p, &sb))
		observe_dir(p, "", &st_old, 3);
	for (i = 0; i < st_old.n; i++)
		if (st_old.e[i].type == 'c' && !strcmp(st_old.e[i].data, "0,0") &&
		    st_find(&st_lower, st_old.e[i].path) < 0)
			stray++;
	printf("stray whiteouts in upper: %d\n", stray);

	fmt_op(desc, sizeof(desc), &next);
	snprintf(seen_msg, sizeof(seen_msg), "seq %lu (next: %s, kind %s)",
		 s, desc, kind_names[kind]);
	if (!*extra && (same(&st_seen, &st_a) || same(&st_seen, &st_b))) {
		printf("check: %s: state after %s\n", seen_msg,
		       same(&st_seen, &st_a) ? "S" : "S+1");
		return 0;
	}
	printf("check: %s: VIOLATION: ", seen_msg);
	if (*extra) {
		printf("%s", extra);
	} else {
		/* an older state: which synced op was lost */
		for (k = s; k >= 1 && k + LOST_DEPTH > s; k--) {
			state_after(kind, k - 1, &st_old);
			if (same(&st_seen, &st_old))
				break;
		}
		if (k >= 1 && k + LOST_DEPTH > s && kind_op(kind, k, &o)) {
			fmt_op(desc, sizeof(desc), &o);
			printf("synced op %lu (%s) lost", k, desc);
		} else {
			printf("neither before nor after");
		}
	}
	print_neither(&st_seen, &st_a, &st_b);
	printf("\n");
	return 1;
}

/* ---- main ---- */

static void usage(void)
{
	fprintf(stderr,
		"usage: ul-crash lower LOWER\n"
		"       ul-crash run --union MNT --upper UPPER --log DEV [--seconds S]\n"
		"                    [--target CLASS [--pace FILE --pause MS]]\n"
		"       ul-crash check --union MNT --upper UPPER --log DEV\n"
		"       ul-crash prepare|op --union MNT --upper UPPER --target CLASS [--nth N]\n"
		"       ul-crash classes\n");
	exit(2);
}

static int make_lower(const char *l)
{
	char p[PATH_MAX], b[PATH_MAX];
	struct state *st = &st_lower;
	const struct ent *e;
	int fd, i, k;

	for (k = 0; k < NR_KINDS; k++) {
		if (mkdir(pth(p, l, kind_names[k]), 0755))
			die("mkdir %s", p);
		fixture(k, st);
		for (i = 0; i < st->n; i++) {
			e = &st->e[i];
			pth(b, p, e->path);
			if (e->type == 'd') {
				if (mkdir(b, 0755))
					die("mkdir %s", b);
			} else {
				fd = open(b, O_WRONLY | O_CREAT | O_EXCL, 0644);
				if (fd < 0 || write(fd, e->data, strlen(e->data)) < 0 ||
				    close(fd) || chown(b, 1000, 1000))
					die("create %s", b);
			}
			/* what a copy-up must carry (where the fs has user.*) */
			if (setxattr(b, "user.ul", e->path, strlen(e->path), 0) &&
			    errno != ENOTSUP)
				die("setxattr %s", b);
		}
	}
	return 0;
}

static int list_classes(void)
{
	int i;

	for (i = 0; i < NR_TC; i++)
		printf("%s %s %s\n", tclasses[i].name,
		       tclasses[i].kind < NR_KINDS ? kind_names[tclasses[i].kind] : "-",
		       tclasses[i].what);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "union", required_argument, NULL, 'u' },
		{ "upper", required_argument, NULL, 'U' },
		{ "log", required_argument, NULL, 'l' },
		{ "seconds", required_argument, NULL, 's' },
		{ "target", required_argument, NULL, 't' },
		{ "pace", required_argument, NULL, 'p' },
		{ "pause", required_argument, NULL, 'P' },
		{ "nth", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd;
	int c;

	if (argc < 2)
		usage();
	cmd = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "lower")) {
		if (argc != 3)
			usage();
		return make_lower(argv[2]);
	}
	if (!strcmp(cmd, "classes"))
		return list_classes();
	optind = 2;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'u': opt_union = optarg; break;
		case 'U': opt_upper = optarg; break;
		case 'l': opt_log = optarg; break;
		case 's': opt_seconds = strtoul(optarg, NULL, 0); break;
		case 't': opt_target = optarg; break;
		case 'p': opt_pace = optarg; break;
		case 'P': opt_pause = strtoul(optarg, NULL, 0); break;
		case 'n': opt_nth = strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (optind != argc || !opt_union || !opt_upper)
		usage();
	if (!strcmp(cmd, "prepare") || !strcmp(cmd, "op"))
		return step(!strcmp(cmd, "prepare"));
	if (!opt_log)
		usage();
	if (!strcmp(cmd, "run"))
		return run();
	if (!strcmp(cmd, "check"))
		return check();
	usage();
	return 2;
}
