// SPDX-License-Identifier: GPL-2.0
/*
 * ul-race: one writer and several observer processes racing on the
 * whiteout transitions of a union, to show them atomic.
 *
 *   ul-race --prepare --lower LOWER [--count N]
 *   ul-race --union MNT --upper UPPER --lower LOWER --recipe R
 *           [--count N] [--observers K] [--timeout SECS]
 *   ul-race --naive --upper UPPER --lower LOWER --recipe R
 *           [--count N] [--observers K] [--timeout SECS]
 *
 * --prepare fills LOWER (before the union is mounted) with one directory
 * per recipe: LOWER/R/P (a directory holding the files c0 and c1),
 * LOWER/R/F (a file "lower-F") and, for the recipes that use new names
 * for each transition, N sets of names in buckets of 100 (bBBB):
 * rename-over-whiteout-dir: directories bBBB/dDD holding a file x;
 * rename-whiteout: files bBBB/pDD ("lower-p") and bBBB/qDD ("lower-q");
 * rename-over-whiteout-dir-p-lower: directories bBBB/dDD and bBBB/pDD,
 * each holding a file x; rename-dir: directories bBBB/mDD holding a file
 * x; metacopy: files bBBB/fDD ("lower-f"). Files of one kind in a bucket
 * are hard links of one inode.
 *
 * Recipes (R), each a loop of N transitions through the union MNT; the
 * writer first primes the state (through the union) so that the upper
 * layer already holds every name the observers watch:
 *
 *   rmdir-mkdir      prime: unlink P/c0, P/c1 (P: dir with whiteouts);
 *                    then rmdir P, mkdir P, rmdir P, ...
 *   rename           prime: unlink P/c*, rmdir P, mkdir P, create P/u
 *                    (P: opaque dir); then rename P->Q, Q->P, ...
 *   unlink-create    prime: unlink F; then create F, unlink F, ...
 *   rename-over-whiteout-dir
 *                    for each k: unlink bB/dk/x (dk: a dir that is empty
 *                    in the union but holds a whiteout in upper), mkdir
 *                    bB/s, rename bB/s onto bB/dk (the transition),
 *                    rmdir bB/dk. Each transition uses a fresh lower dir.
 *   rename-whiteout  for each k: chmod bB/pk (copy-up), for odd k also
 *                    chmod bB/qk; rename bB/pk onto bB/qk (recipe 5: P
 *                    needs a whiteout, Q exists: only in lower for even
 *                    k, in upper too for odd k).
 *   rename-over-whiteout-dir-p-lower
 *                    for each k: unlink bB/dk/x, unlink bB/pk/x, rmdir
 *                    bB/pk, mkdir bB/pk, create bB/pk/u (pk: an opaque
 *                    upper dir over a lower one); rename bB/pk onto
 *                    bB/dk (recipe 4, then recipe 5).
 *   rename-dir       for each k: rename bB/mk to bB/nk (recipe 6: a
 *                    lower-only directory moved; the union is mounted
 *                    with redirect_dir=on).
 *   metacopy         for each k: chmod bB/fk (the copy of its metadata
 *                    alone), then append "+" to it (its data copied into
 *                    the copy, then the write); the union is mounted
 *                    with metacopy=on.
 *
 * --naive does the same transitions directly on UPPER, the way a broken
 * union would: each in several steps (rmdir then mknod the whiteout,
 * unlink the whiteout then mkdir then set opaque, unlink the whiteouts
 * then rmdir then rename, ...). MNT is not used; UPPER is written, so do
 * not have a union mounted on it. The observers must catch it.
 *
 * Observers (K processes, default 2, at most 16) loop until the writer is
 * done. With a union, even-numbered ones watch UPPER and odd-numbered
 * ones the union (K = 1: one process does both); with --naive all watch
 * UPPER. They check:
 *
 *   upper-absent           an upper name the lower has (P, F, dk, pk
 *                          once primed) is missing: the union would show
 *                          the lower object (it must be the object or a
 *                          whiteout, a character device 0/0)
 *   upper-wrong-type       an upper name is neither a whiteout nor the
 *                          kind of object the recipe puts there, or is a
 *                          whiteout where the union must show a name
 *                          throughout (qk, dk of the p-lower recipe)
 *   upper-not-opaque       an upper directory over a lower one with
 *                          content is neither opaque (trusted.overlay.
 *                          opaque=y) nor holds whiteouts for that content
 *                          (checked on one open directory, counted only
 *                          if the name still holds that directory)
 *   lower-content-visible  the union shows P/c0, P/c1 (or Q/c*), lists
 *                          them in a readdir, shows F with the lower
 *                          content, or shows dk/x, after the writer
 *                          removed them; or shows pk after qk (dk) showed
 *                          pk's content (each name is read in that order
 *                          and a transition only moves forward)
 *   duplicate-readdir-name one readdir of a union directory lists a
 *                          name twice
 *   union-wrong-type       a union name is an unexpected kind of object
 *   union-error            a union call failed other than ENOENT/ENOTDIR
 *   upper-error            an upper call failed other than ENOENT/ENOTDIR
 *   union-absent           a union name that exists before and after the
 *                          transition (qk, dk) is missing; rename-dir:
 *                          neither mk nor nk shows (mk read first), or nk
 *                          shows without its x
 *   upper-no-redirect      rename-dir: upper nk is a directory without
 *                          trusted.overlay.redirect (the union would show
 *                          it empty)
 *   torn-data              metacopy: the union reads fk as neither
 *                          "lower-f" nor "lower-f+", or upper fk without
 *                          trusted.overlay.metacopy holds less than
 *                          "lower-f" (the union would read that)
 *
 * rename-dir's "both names" (nk read first, then mk shows) counts as
 * lower-content-visible, and nk/.. that is not bB as union-wrong-type.
 *
 * Output. Standard output is deterministic when nothing is found:
 *
 *   R: N transitions, no violations
 *
 * otherwise "R: N transitions, V violations (kind=count ...)" and one
 * line "R:   first KIND near transition T: what was seen" per kind. When
 * the union refuses an operation with EXDEV (a whiteout recipe it does
 * not implement yet) the line is "R: unsupported: OP: EXDEV (...)"; any
 * other failure of the writer is "R: error: OP: ERRNO"; running out of
 * time is "R: timeout: N of M transitions"; each is followed by the
 * violations lines only if there were violations. Statistics that vary
 * from run to run go to standard error only, one line:
 *
 *   R: N transitions in S s (T/s); samples: upper U, union W
 *
 * --until-caught (for a broken union, which must be caught within the
 * same budget of N transitions): the writer stops before its next
 * transition once an observer has reported a violation.
 *
 * Overlap. The writer marks the start and the end of each transition in
 * a counter the observers share (odd while one is in flight); a look
 * (one pass of an observer over its names) overlaps a transition when
 * the counter was odd when it began or changed before it ended. With
 * two or more processors online, the writer runs on CPU 0 and the
 * observers two by two on CPU 1 and CPU 0 (observer i on CPU 1 when
 * i / 2 is even): the first pair looks in parallel with the writer, the
 * second shares its processor, at nice 19 so that the writer keeps most
 * of it, and looks when the writer is preempted or sleeps. The counts,
 * per CPU, go to standard error:
 *
 *   R: overlap: other CPU upper A/X/B union C/Y/D, same CPU upper ...
 *
 * A: looks that overlapped a transition; X: of those, the looks during
 * which one started or ended; B: all looks. --need-overlap: when no look
 * of the upper or of the union observers on the other CPU overlapped a
 * transition, say so on standard output ("R: no look on another CPU
 * overlapped a transition") and exit 2: the run did not race.
 *
 * Exit status: 0 no violation, 1 violations, 2 error or timeout (or
 * usage), 3 unsupported (EXDEV). Everything is bounded: the writer stops
 * at N transitions or after --timeout seconds (default 300), observers
 * when the writer is done (or at the timeout plus 10 s), and observers
 * that do not exit 10 s after the writer are killed (status 2).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define OPAQUE_XATTR	"trusted.overlay.opaque"
#define REDIRECT_XATTR	"trusted.overlay.redirect"
#define BUCKET		100
#define MAX_OBS		16
#define MAX_NAMES	512
#define MSG_LEN		200
#define LOWER_F		"lower-F\n"
#define UPPER_F		"upper-F\n"
#define LOWER_P		"lower-p\n"
#define LOWER_Q		"lower-q\n"
#define LOWER_MF	"lower-f\n"
#define METACOPY_XATTR	"trusted.overlay.metacopy"

enum recipe {
	R_RMDIR_MKDIR,
	R_RENAME,
	R_UNLINK_CREATE,
	R_RENAME_WH_DIR,
	R_RENAME_WHITEOUT,
	R_RENAME_WH_DIR_P_LOWER,
	R_RENAME_DIR,
	R_METACOPY,
	NR_RECIPES,
};

static const char *const recipe_names[NR_RECIPES] = {
	"rmdir-mkdir", "rename", "unlink-create", "rename-over-whiteout-dir",
	"rename-whiteout", "rename-over-whiteout-dir-p-lower", "rename-dir",
	"metacopy",
};

/* recipes with one set of lower names per transition, in buckets */
static int per_transition(int r)
{
	return r == R_RENAME_WH_DIR || r == R_RENAME_WHITEOUT ||
	       r == R_RENAME_WH_DIR_P_LOWER || r == R_RENAME_DIR ||
	       r == R_METACOPY;
}

enum kind {
	V_UPPER_ABSENT,
	V_UPPER_TYPE,
	V_UPPER_NOT_OPAQUE,
	V_LOWER_VISIBLE,
	V_DUP_NAME,
	V_UNION_TYPE,
	V_UNION_ERRNO,
	V_UPPER_ERRNO,
	V_UNION_ABSENT,
	V_UPPER_NO_REDIRECT,
	V_TORN_DATA,
	NR_KINDS,
};

static const char *const kind_names[NR_KINDS] = {
	"upper-absent", "upper-wrong-type", "upper-not-opaque",
	"lower-content-visible", "duplicate-readdir-name",
	"union-wrong-type", "union-error", "upper-error", "union-absent",
	"upper-no-redirect", "torn-data",
};

enum role { ROLE_UPPER, ROLE_UNION, ROLE_BOTH };

struct obs_slot {
	unsigned long samples[2];	/* upper, union */
	unsigned long inside[2];	/* looks that overlapped a transition */
	unsigned long across[2];	/* ... during which one began or ended */
	int other_cpu;			/* pinned to a CPU the writer is not on */
	unsigned long viol[NR_KINDS];
	unsigned long first_seq[NR_KINDS];
	char first[NR_KINDS][MSG_LEN];
};

/* Shared by the writer and the observers (MAP_SHARED). */
struct shared {
	unsigned long seq;	/* transitions done */
	unsigned long mark;	/* 2 * transitions started, +1 while in flight */
	unsigned long primed;	/* rename-over-whiteout-dir: dirs set up */
	int ready;		/* observers started */
	int go;
	int done;
	struct obs_slot obs[MAX_OBS];
};

static struct shared *sh;

static const char *opt_union, *opt_upper, *opt_lower;
static int opt_naive, opt_prepare, opt_until_caught, opt_observers = 2;
static int opt_need_overlap;
static unsigned long opt_count = 10000;
static unsigned int opt_timeout = 300;
static int recipe = -1;

/* MNT/R, UPPER/R and LOWER/R */
static char mnt_r[PATH_MAX], up_r[PATH_MAX], lo_r[PATH_MAX];

static const char *const p_content[] = { "c0", "c1" };
static const char *const x_content[] = { "x" };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long load(unsigned long *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static int load_int(int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store_int(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* pth(buf, base, fmt, ...): buf = base "/" fmt */
static const char *pth(char *buf, const char *base, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(buf, PATH_MAX, "%s/", base);
	va_start(ap, fmt);
	vsnprintf(buf + n, PATH_MAX - n, fmt, ap);
	va_end(ap);
	return buf;
}

static int is_whiteout(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(0, 0);
}

static const char *rel(const char *path);

/* ---- the writer ---- */

static char wr_msg[MSG_LEN];
static int wr_status;		/* 2 error, 3 unsupported */

/* wop(ret, fmt, ...): note a failed step of the writer; -1 if it failed */
static int wop(int ret, const char *fmt, ...)
{
	va_list ap;
	int err = errno, n;

	if (ret >= 0)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(wr_msg, sizeof(wr_msg), fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(wr_msg))
		n = 0;
	if (err == EXDEV) {
		snprintf(wr_msg + n, sizeof(wr_msg) - n,
			 ": EXDEV (the union does not implement this whiteout recipe yet)");
		wr_status = 3;
	} else {
		snprintf(wr_msg + n, sizeof(wr_msg) - n, ": %s", strerror(err));
		wr_status = 2;
	}
	return -1;
}

static int create_file(const char *path, const char *content)
{
	int fd, len = strlen(content);

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, content, len) != len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static int mkwhiteout(const char *path)
{
	return mknod(path, S_IFCHR | 0, makedev(0, 0));
}

static int set_opaque(const char *path)
{
	return setxattr(path, OPAQUE_XATTR, "y", 1, 0);
}

/* the base (MNT/R or UPPER/R) the writer works on */
static const char *wbase(void)
{
	return opt_naive ? up_r : mnt_r;
}

/* naive copy-up of a directory over a lower one with content: whiteouts */
static int naive_dir_with_whiteouts(const char *dir,
				    const char *const *names, int n)
{
	char b[PATH_MAX];
	int i;

	if (wop(mkdir(dir, 0755), "mkdir %s", dir))
		return -1;
	for (i = 0; i < n; i++)
		if (wop(mkwhiteout(pth(b, dir, "%s", names[i])), "mknod %s", b))
			return -1;
	return 0;
}

static int naive_unlink_all(const char *dir, const char *const *names, int n)
{
	char b[PATH_MAX];
	int i;

	for (i = 0; i < n; i++)
		if (unlink(pth(b, dir, "%s", names[i])) && errno != ENOENT)
			return wop(-1, "unlink %s", b);
	return 0;
}

/* prime: bring the upper layer to the state the observers expect */
static int prime(void)
{
	char p[PATH_MAX], b[PATH_MAX];
	const char *w = wbase();

	if (opt_naive && wop(mkdir(up_r, 0755), "mkdir %s", up_r))
		return -1;
	pth(p, w, "P");
	switch (recipe) {
	case R_RMDIR_MKDIR:
	case R_RENAME:
		if (opt_naive) {
			if (naive_dir_with_whiteouts(p, p_content, 2))
				return -1;
		} else {
			if (wop(unlink(pth(b, p, "c0")), "unlink P/c0") ||
			    wop(unlink(pth(b, p, "c1")), "unlink P/c1"))
				return -1;
		}
		if (recipe == R_RMDIR_MKDIR)
			return 0;
		if (opt_naive) {
			if (naive_unlink_all(p, p_content, 2) ||
			    wop(set_opaque(p), "setxattr P"))
				return -1;
		} else {
			if (wop(rmdir(p), "rmdir P") ||
			    wop(mkdir(p, 0755), "mkdir P"))
				return -1;
		}
		return wop(create_file(pth(b, p, "u"), "u\n"), "create P/u");
	case R_UNLINK_CREATE:
		if (opt_naive)
			return wop(mkwhiteout(pth(b, w, "F")), "mknod F");
		return wop(unlink(pth(b, w, "F")), "unlink F");
	}
	return 0;
}

/* the bucket of transition k, made on UPPER by hand in --naive mode */
static int naive_bucket(char *b, unsigned long k)
{
	pth(b, up_r, "b%03lu", k / BUCKET);
	if (k % BUCKET == 0 && mkdir(b, 0755) && errno != EEXIST)
		return wop(-1, "mkdir %s", b);
	return 0;
}

/*
 * The names of transition k: its bucket b (made first in --naive mode),
 * b/pKK and b/<qfmt % KK>, through the union or on UPPER
 */
static int step_names(char *b, char *p, char *q, const char *qfmt,
		      unsigned long k)
{
	if (opt_naive) {
		if (naive_bucket(b, k))
			return -1;
	} else {
		pth(b, mnt_r, "b%03lu", k / BUCKET);
	}
	pth(p, b, "p%02lu", k % BUCKET);
	pth(q, b, qfmt, k % BUCKET);
	return 0;
}

static void set_primed(unsigned long k)
{
	__atomic_store_n(&sh->primed, k + 1, __ATOMIC_RELEASE);
}

/*
 * rename-whiteout, transition k: rename(pK, qK) of two lower-only files
 * (recipe 5: P needs a whiteout, Q exists in the union); for odd k, qK
 * is copied up first (Q in upper). pK is copied up first (a chmod), as
 * every rename does, before the observers watch it.
 */
static int step_rename_whiteout(unsigned long k)
{
	char b[PATH_MAX], p[PATH_MAX], q[PATH_MAX];

	if (step_names(b, p, q, "q%02lu", k))
		return -1;
	if (!opt_naive) {
		if (wop(chmod(p, 0640), "chmod %s", rel(p)) ||
		    ((k & 1) && wop(chmod(q, 0640), "chmod %s", rel(q))))
			return -1;
		set_primed(k);
		return wop(rename(p, q), "rename %s %s", rel(p), rel(q));
	}
	if (wop(create_file(p, LOWER_P), "copy up %s", p) ||
	    ((k & 1) && wop(create_file(q, LOWER_Q), "copy up %s", q)))
		return -1;
	set_primed(k);
	return wop(rename(p, q), "rename %s %s", p, q) ||
	       wop(mkwhiteout(p), "mknod %s", p);
}

/*
 * rename-over-whiteout-dir-p-lower, transition k: rename(pK, dK) where
 * dK is a lower directory emptied through the union (upper: a directory
 * holding the whiteout x) and pK an opaque upper directory over a lower
 * one, holding u (recipe 4, then recipe 5 for its last step).
 */
static int step_wh_dir_p_lower(unsigned long k)
{
	char b[PATH_MAX], p[PATH_MAX], d[PATH_MAX], x[PATH_MAX];

	if (step_names(b, p, d, "d%02lu", k))
		return -1;
	if (!opt_naive) {
		if (wop(unlink(pth(x, d, "x")), "unlink %s", rel(x)) ||
		    wop(unlink(pth(x, p, "x")), "unlink %s", rel(x)) ||
		    wop(rmdir(p), "rmdir %s", rel(p)) ||
		    wop(mkdir(p, 0755), "mkdir %s", rel(p)) ||
		    wop(create_file(pth(x, p, "u"), "u\n"), "create %s", rel(x)))
			return -1;
		set_primed(k);
		return wop(rename(p, d), "rename %s %s", rel(p), rel(d));
	}
	if (naive_dir_with_whiteouts(d, x_content, 1) ||
	    wop(mkdir(p, 0755), "mkdir %s", p) ||
	    wop(set_opaque(p), "setxattr %s", p) ||
	    wop(create_file(pth(x, p, "u"), "u\n"), "create %s", x))
		return -1;
	set_primed(k);
	return naive_unlink_all(d, x_content, 1) ||
	       wop(rmdir(d), "rmdir %s", d) ||
	       wop(rename(p, d), "rename %s %s", p, d) ||
	       wop(mkwhiteout(p), "mknod %s", p);
}

/*
 * rename-dir, transition k: rename(mK, nK) of a lower-only directory
 * holding x (recipe 6). By hand (--naive): a directory at nK, its
 * redirect, then the whiteout at mK, each a visible step.
 */
static int step_rename_dir(unsigned long k)
{
	char b[PATH_MAX], m[PATH_MAX], n[PATH_MAX], v[16];

	if (step_names(b, m, n, "n%02lu", k))
		return -1;
	pth(m, b, "m%02lu", k % BUCKET);
	set_primed(k);
	if (!opt_naive)
		return wop(rename(m, n), "rename %s %s", rel(m), rel(n));
	snprintf(v, sizeof(v), "m%02lu", k % BUCKET);
	return wop(mkdir(n, 0755), "mkdir %s", n) ||
	       wop(setxattr(n, REDIRECT_XATTR, v, strlen(v), 0), "setxattr %s", n) ||
	       wop(mkwhiteout(m), "mknod %s", m);
}

/*
 * metacopy, transition k: chmod(fK), a copy of the metadata alone, then
 * a write to it, its data copied up first. By hand (--naive): a file at
 * fK of the size with the metacopy mark, then, as a broken data copy-up
 * would, the mark removed before the data is written.
 */
static int step_metacopy(unsigned long k)
{
	char b[PATH_MAX], f[PATH_MAX], unused[PATH_MAX];
	int fd;

	if (step_names(b, unused, f, "f%02lu", k))
		return -1;
	set_primed(k);
	if (!opt_naive) {
		if (wop(chmod(f, 0640), "chmod %s", rel(f)))
			return -1;
		fd = open(f, O_WRONLY | O_APPEND);
		if (wop(fd, "open %s", rel(f)))
			return -1;
		if (wop(write(fd, "+", 1) == 1 ? 0 : -1, "write %s", rel(f))) {
			close(fd);
			return -1;
		}
		return wop(close(fd), "close %s", rel(f));
	}
	fd = open(f, O_WRONLY | O_CREAT | O_EXCL, 0640);
	if (wop(fd, "create %s", f))
		return -1;
	if (wop(ftruncate(fd, strlen(LOWER_MF)), "truncate %s", f) ||
	    wop(fsetxattr(fd, METACOPY_XATTR, "", 0, 0), "setxattr %s", f) ||
	    wop(fremovexattr(fd, METACOPY_XATTR), "removexattr %s", f) ||
	    wop(pwrite(fd, LOWER_MF, strlen(LOWER_MF), 0) > 0 ? 0 : -1,
		"write %s", f) ||
	    wop(pwrite(fd, "+", 1, strlen(LOWER_MF)) == 1 ? 0 : -1,
		"write %s", f)) {
		close(fd);
		return -1;
	}
	return wop(close(fd), "close %s", f);
}

/* step(i): transition i of the recipe */
static int step(unsigned long i)
{
	char p[PATH_MAX], q[PATH_MAX], b[PATH_MAX], s[PATH_MAX];
	const char *w = wbase();
	unsigned long k = i;
	int odd = i & 1;

	switch (recipe) {
	case R_RMDIR_MKDIR:
		pth(p, w, "P");
		if (!opt_naive) {
			if (odd)
				return wop(mkdir(p, 0755), "mkdir P");
			return wop(rmdir(p), "rmdir P");
		}
		if (odd)
			return wop(unlink(p), "unlink P") ||
			       wop(mkdir(p, 0755), "mkdir P") ||
			       wop(set_opaque(p), "setxattr P");
		if (i == 0 && naive_unlink_all(p, p_content, 2))
			return -1;
		return wop(rmdir(p), "rmdir P") || wop(mkwhiteout(p), "mknod P");
	case R_RENAME:
		pth(p, w, "P");
		pth(q, w, "Q");
		if (!opt_naive) {
			if (odd)
				return wop(rename(q, p), "rename Q P");
			return wop(rename(p, q), "rename P Q");
		}
		if (odd)
			return wop(unlink(p), "unlink P") ||
			       wop(rename(q, p), "rename Q P");
		return wop(rename(p, q), "rename P Q") ||
		       wop(mkwhiteout(p), "mknod P");
	case R_UNLINK_CREATE:
		pth(p, w, "F");
		if (!opt_naive) {
			if (odd)
				return wop(unlink(p), "unlink F");
			return wop(create_file(p, UPPER_F), "create F");
		}
		if (odd)
			return wop(unlink(p), "unlink F") ||
			       wop(mkwhiteout(p), "mknod F");
		return wop(unlink(p), "unlink F") ||
		       wop(create_file(p, UPPER_F), "create F");
	case R_RENAME_WH_DIR:
		pth(b, w, "b%03lu", k / BUCKET);
		pth(q, b, "d%02lu", k % BUCKET);
		pth(s, b, "s");
		if (!opt_naive) {
			if (wop(unlink(pth(p, q, "x")), "unlink %s", p + strlen(w) + 1))
				return -1;
			__atomic_store_n(&sh->primed, k + 1, __ATOMIC_RELEASE);
			return wop(mkdir(s, 0755), "mkdir s") ||
			       wop(rename(s, q), "rename s onto %s", q + strlen(w) + 1) ||
			       wop(rmdir(q), "rmdir %s", q + strlen(w) + 1);
		}
		if (k % BUCKET == 0 && mkdir(b, 0755) && errno != EEXIST)
			return wop(-1, "mkdir %s", b);
		if (naive_dir_with_whiteouts(q, x_content, 1))
			return -1;
		__atomic_store_n(&sh->primed, k + 1, __ATOMIC_RELEASE);
		return wop(mkdir(s, 0755), "mkdir s") ||
		       wop(set_opaque(s), "setxattr s") ||
		       naive_unlink_all(q, x_content, 1) ||
		       wop(rmdir(q), "rmdir %s", q) ||
		       wop(rename(s, q), "rename s %s", q) ||
		       wop(rmdir(q), "rmdir %s", q) ||
		       wop(mkwhiteout(q), "mknod %s", q);
	case R_RENAME_WHITEOUT:
		return step_rename_whiteout(k);
	case R_RENAME_WH_DIR_P_LOWER:
		return step_wh_dir_p_lower(k);
	case R_RENAME_DIR:
		return step_rename_dir(k);
	case R_METACOPY:
		return step_metacopy(k);
	}
	return 0;
}

/* ---- the observers ---- */

static struct obs_slot *me;

static void viol(enum kind kind, const char *fmt, ...)
{
	unsigned long seq = load(&sh->seq);
	va_list ap;
	int n;

	if (!me->viol[kind]++) {
		me->first_seq[kind] = seq;
		n = snprintf(me->first[kind], MSG_LEN, "near transition %lu: ", seq);
		va_start(ap, fmt);
		vsnprintf(me->first[kind] + n, MSG_LEN - n, fmt, ap);
		va_end(ap);
	}
}

/* path relative to MNT/R or UPPER/R, for messages */
static const char *rel(const char *path)
{
	size_t n;

	n = strlen(mnt_r);
	if (n && !strncmp(path, mnt_r, n) && path[n] == '/')
		return path + n + 1;
	n = strlen(up_r);
	if (n && !strncmp(path, up_r, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

/*
 * An upper directory at a name the lower has with content must be opaque
 * or hold a whiteout for each lower name. Checked on one open directory;
 * a violation counts only if the name still holds that directory after
 * (an open directory keeps its inode number from being reused).
 */
static void up_cover(const char *path, const char *const *names, int n)
{
	struct stat st, a, b;
	const char *missing = NULL;
	char v[4];
	int fd, i;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return;
	if (fgetxattr(fd, OPAQUE_XATTR, v, sizeof(v)) == 1 && v[0] == 'y')
		goto out;
	for (i = 0; i < n; i++) {
		if (fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) ||
		    !is_whiteout(&st)) {
			missing = names[i];
			break;
		}
	}
	if (missing && !fstat(fd, &a) && !lstat(path, &b) &&
	    a.st_ino == b.st_ino && a.st_dev == b.st_dev)
		viol(V_UPPER_NOT_OPAQUE, "upper %s: directory neither opaque nor whiting out %s",
		     rel(path), missing);
out:
	close(fd);
}

/* up_check() flags: what the upper name may also be */
#define UP_ABSENT	1	/* absent: the lower object shows */
#define UP_WHITEOUT	2	/* a whiteout */

/*
 * up_check(path, type, cover, n, flags): the upper name is an object of
 * type (S_IFDIR, S_IFREG), or absent or a whiteout where flags allow;
 * directories are checked by up_cover() when cover names are given.
 */
static void up_check(const char *path, mode_t type, const char *const *cover,
		     int n, int flags)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno != ENOENT)
			viol(V_UPPER_ERRNO, "upper %s: %s", rel(path), strerror(errno));
		else if (!(flags & UP_ABSENT))
			viol(V_UPPER_ABSENT, "upper %s: absent", rel(path));
		return;
	}
	if (is_whiteout(&st)) {
		if (!(flags & UP_WHITEOUT))
			viol(V_UPPER_TYPE, "upper %s: a whiteout hides the name",
			     rel(path));
		return;
	}
	if ((st.st_mode & S_IFMT) != type) {
		viol(V_UPPER_TYPE, "upper %s: mode %o", rel(path), st.st_mode);
		return;
	}
	if (type == S_IFDIR && n)
		up_cover(path, cover, n);
}

/* a union name the writer removed must stay invisible */
static void un_gone(const char *path)
{
	struct stat st;

	if (!lstat(path, &st))
		viol(V_LOWER_VISIBLE, "union %s: visible", rel(path));
	else if (errno != ENOENT && errno != ENOTDIR)
		viol(V_UNION_ERRNO, "union lstat %s: %s", rel(path), strerror(errno));
}

static void un_type(const char *path, mode_t type)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno != ENOENT && errno != ENOTDIR)
			viol(V_UNION_ERRNO, "union lstat %s: %s", rel(path), strerror(errno));
		return;
	}
	if ((st.st_mode & S_IFMT) != type)
		viol(V_UNION_TYPE, "union %s: mode %o", rel(path), st.st_mode);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* one readdir of a union directory: no name twice, no forbidden name */
static void un_readdir(const char *path, const char *const *forbidden, int n)
{
	static char names[MAX_NAMES][NAME_MAX + 1];
	static char *sorted[MAX_NAMES];
	struct dirent *de;
	int cnt = 0, i;
	DIR *d;

	d = opendir(path);
	if (!d) {
		if (errno != ENOENT && errno != ENOTDIR)
			viol(V_UNION_ERRNO, "union opendir %s: %s", rel(path), strerror(errno));
		return;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		for (i = 0; i < n; i++)
			if (!strcmp(de->d_name, forbidden[i]))
				viol(V_LOWER_VISIBLE, "union readdir %s: lists %s",
				     rel(path), de->d_name);
		if (cnt < MAX_NAMES) {
			snprintf(names[cnt], sizeof(names[cnt]), "%s", de->d_name);
			sorted[cnt] = names[cnt];
			cnt++;
		}
	}
	if (errno && errno != ENOENT)
		viol(V_UNION_ERRNO, "union readdir %s: %s", rel(path), strerror(errno));
	closedir(d);
	qsort(sorted, cnt, sizeof(sorted[0]), cmp_name);
	for (i = 1; i < cnt; i++)
		if (!strcmp(sorted[i - 1], sorted[i]))
			viol(V_DUP_NAME, "union readdir %s: lists %s twice",
			     rel(path), sorted[i]);
}

/* the union file must never show the lower content once removed */
static void un_content(const char *path, const char *lower)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			viol(V_UNION_ERRNO, "union open %s: %s", rel(path), strerror(errno));
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		viol(V_UNION_ERRNO, "union read %s: %s", rel(path), strerror(errno));
	} else {
		buf[n] = 0;
		if (!strcmp(buf, lower))
			viol(V_LOWER_VISIBLE, "union %s: lower content", rel(path));
	}
	close(fd);
}

/* the bucket and index of the names the writer works on (none: -1) */
static long cur_bucket(char *b, const char *base)
{
	unsigned long primed = load(&sh->primed);

	if (!primed)
		return -1;
	pth(b, base, "b%03lu", (primed - 1) / BUCKET);
	return (primed - 1) % BUCKET;
}

/*
 * rename-dir: is the upper name a directory with a redirect (the moved
 * directory)? A directory there without one is a violation.
 */
static int up_redirected(const char *path)
{
	struct stat st;
	char v[PATH_MAX];

	if (lstat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	if (getxattr(path, REDIRECT_XATTR, v, sizeof(v)) > 0)
		return 1;
	if (errno == ENOENT)
		return 0;	/* gone since */
	viol(V_UPPER_NO_REDIRECT, "upper %s: a directory without redirect",
	     rel(path));
	return 0;
}

/*
 * metacopy: upper fK, once it has no metacopy mark, holds the whole
 * data (the write may have added "+")
 */
static void up_metacopy(const char *path)
{
	char buf[32];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return;
	if (fgetxattr(fd, METACOPY_XATTR, buf, sizeof(buf)) < 0 &&
	    errno == ENODATA) {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n < 0)
			n = 0;
		buf[n] = 0;
		if (strncmp(buf, LOWER_MF, strlen(LOWER_MF)))
			viol(V_TORN_DATA, "upper %s: no metacopy mark, %zd bytes of data",
			     rel(path), n);
	}
	close(fd);
}

static void obs_upper_per_transition(void)
{
	char b[PATH_MAX], p[PATH_MAX], q[PATH_MAX];
	long k = cur_bucket(b, up_r);

	if (k < 0)
		return;
	switch (recipe) {
	case R_RENAME_WH_DIR:
		up_check(pth(q, b, "d%02ld", k), S_IFDIR, x_content, 1, UP_WHITEOUT);
		break;
	case R_RENAME_WHITEOUT:
		/* Q first: the transition only moves forward */
		up_check(pth(q, b, "q%02ld", k), S_IFREG, NULL, 0, UP_ABSENT);
		up_check(pth(p, b, "p%02ld", k), S_IFREG, NULL, 0, UP_WHITEOUT);
		break;
	case R_RENAME_WH_DIR_P_LOWER:
		up_check(pth(q, b, "d%02ld", k), S_IFDIR, x_content, 1, 0);
		up_check(pth(p, b, "p%02ld", k), S_IFDIR, x_content, 1, UP_WHITEOUT);
		break;
	case R_METACOPY:
		up_check(pth(p, b, "f%02ld", k), S_IFREG, NULL, 0, UP_ABSENT);
		up_metacopy(p);
		break;
	case R_RENAME_DIR:
		/* nK first: once it holds the moved directory, mK is a whiteout */
		if (up_redirected(pth(q, b, "n%02ld", k)))
			up_check(pth(p, b, "m%02ld", k), S_IFCHR, NULL, 0,
				 UP_WHITEOUT);
		else
			up_check(pth(p, b, "m%02ld", k), S_IFDIR, NULL, 0,
				 UP_ABSENT | UP_WHITEOUT);
		break;
	}
}

/* a union name that exists throughout the transition */
static int un_exists(const char *path, mode_t type)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			viol(V_UNION_ABSENT, "union %s: absent", rel(path));
		else
			viol(V_UNION_ERRNO, "union lstat %s: %s", rel(path), strerror(errno));
		return 0;
	}
	if ((st.st_mode & S_IFMT) != type) {
		viol(V_UNION_TYPE, "union %s: mode %o", rel(path), st.st_mode);
		return 0;
	}
	return 1;
}

/* the content of a union file ("" when it cannot be read) */
static void un_read(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	buf[0] = 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return;
	n = read(fd, buf, size - 1);
	if (n > 0)
		buf[n] = 0;
	close(fd);
}

/*
 * rename-dir, transition k in bucket b: mK moves to nK. Never both
 * names (nK read first, then mK), never neither (mK read first, then
 * nK); nK shows x and its ".." is b throughout.
 */
static void un_rename_dir(const char *b, long k)
{
	char m[PATH_MAX], n[PATH_MAX], x[PATH_MAX];
	struct stat st, sb;

	pth(m, b, "m%02ld", k);
	pth(n, b, "n%02ld", k);
	if (!lstat(n, &st)) {
		if (!lstat(m, &st))
			viol(V_LOWER_VISIBLE, "union %s: visible after %s showed",
			     rel(m), rel(n));
	} else if (errno != ENOENT) {
		viol(V_UNION_ERRNO, "union lstat %s: %s", rel(n), strerror(errno));
	}
	if (lstat(m, &st) && errno == ENOENT && lstat(n, &st) && errno == ENOENT)
		viol(V_UNION_ABSENT, "union %s and %s: both absent", rel(m), rel(n));
	if (lstat(n, &st))
		return;
	if (lstat(pth(x, n, "x"), &st))
		viol(V_UNION_ABSENT, "union %s: absent in the moved directory",
		     rel(x));
	if (!stat(pth(x, n, ".."), &st) && !stat(b, &sb) &&
	    (st.st_ino != sb.st_ino || st.st_dev != sb.st_dev))
		viol(V_UNION_TYPE, "union %s/..: not %s", rel(n), rel(b));
}

static void obs_union_per_transition(void)
{
	char b[PATH_MAX], p[PATH_MAX], q[PATH_MAX], x[PATH_MAX], c[64];
	long k = cur_bucket(b, mnt_r);
	struct stat st;

	if (k < 0)
		return;
	switch (recipe) {
	case R_RENAME_WH_DIR:
		pth(q, b, "d%02ld", k);
		un_type(q, S_IFDIR);
		un_gone(pth(p, q, "x"));
		un_readdir(q, x_content, 1);
		break;
	case R_RENAME_WHITEOUT:
		pth(q, b, "q%02ld", k);
		pth(p, b, "p%02ld", k);
		if (!un_exists(q, S_IFREG))
			break;
		/* once Q shows P's content, P is gone for good */
		un_read(q, c, sizeof(c));
		if (!strcmp(c, LOWER_P) && !lstat(p, &st))
			viol(V_LOWER_VISIBLE, "union %s: visible after %s showed its content",
			     rel(p), rel(q));
		break;
	case R_RENAME_WH_DIR_P_LOWER:
		pth(q, b, "d%02ld", k);
		pth(p, b, "p%02ld", k);
		if (!un_exists(q, S_IFDIR))
			break;
		un_gone(pth(x, q, "x"));
		un_readdir(q, x_content, 1);
		/* once Q holds u, P is gone for good */
		if (!lstat(pth(x, q, "u"), &st) && !lstat(p, &st))
			viol(V_LOWER_VISIBLE, "union %s: visible after %s/u showed",
			     rel(p), rel(q));
		un_gone(pth(x, p, "x"));
		break;
	case R_RENAME_DIR:
		un_rename_dir(b, k);
		break;
	case R_METACOPY:
		pth(p, b, "f%02ld", k);
		if (!un_exists(p, S_IFREG))
			break;
		un_read(p, c, sizeof(c));
		if (strcmp(c, LOWER_MF) && strcmp(c, LOWER_MF "+"))
			viol(V_TORN_DATA, "union %s: read %zu bytes, not the data",
			     rel(p), strlen(c));
		break;
	}
	un_readdir(b, NULL, 0);
}

static void obs_upper(void)
{
	char p[PATH_MAX], q[PATH_MAX];

	switch (recipe) {
	case R_RMDIR_MKDIR:
		up_check(pth(p, up_r, "P"), S_IFDIR, p_content, 2, UP_WHITEOUT);
		break;
	case R_RENAME:
		up_check(pth(p, up_r, "P"), S_IFDIR, p_content, 2, UP_WHITEOUT);
		up_check(pth(q, up_r, "Q"), S_IFDIR, NULL, 0, UP_ABSENT | UP_WHITEOUT);
		break;
	case R_UNLINK_CREATE:
		up_check(pth(p, up_r, "F"), S_IFREG, NULL, 0, UP_WHITEOUT);
		break;
	default:
		obs_upper_per_transition();
		break;
	}
}

static void obs_union(void)
{
	char p[PATH_MAX], q[PATH_MAX], b[PATH_MAX];

	switch (recipe) {
	case R_RENAME:
		pth(q, mnt_r, "Q");
		un_type(q, S_IFDIR);
		un_gone(pth(b, q, "c0"));
		un_gone(pth(b, q, "c1"));
		un_readdir(q, p_content, 2);
		/* fall through */
	case R_RMDIR_MKDIR:
		pth(p, mnt_r, "P");
		un_type(p, S_IFDIR);
		un_gone(pth(b, p, "c0"));
		un_gone(pth(b, p, "c1"));
		un_readdir(p, p_content, 2);
		un_readdir(mnt_r, NULL, 0);
		break;
	case R_UNLINK_CREATE:
		pth(p, mnt_r, "F");
		un_type(p, S_IFREG);
		un_content(p, LOWER_F);
		un_readdir(mnt_r, NULL, 0);
		break;
	default:
		obs_union_per_transition();
		break;
	}
}

/* pin(cpu): run on that CPU only; 0 when done, -1 with one CPU online */
static int pin(int cpu)
{
	cpu_set_t set;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("ul-race: sched_setaffinity");
		exit(2);
	}
	return 0;
}

static void observer(int idx, enum role role)
{
	double deadline = now() + opt_timeout + 10;
	unsigned long n = 0, m0, m1;
	int w;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	me = &sh->obs[idx];
	me->other_cpu = !pin((idx / 2) % 2 ? 0 : 1) && !((idx / 2) % 2);
	errno = 0;
	if ((idx / 2) % 2 && nice(19) == -1 && errno) {
		perror("ul-race: nice");
		_exit(2);
	}
	__atomic_fetch_add(&sh->ready, 1, __ATOMIC_ACQ_REL);
	while (!load_int(&sh->go)) {
		if (load_int(&sh->done))
			_exit(0);
		sched_yield();
	}
	while (!load_int(&sh->done)) {
		w = role == ROLE_UNION || (role == ROLE_BOTH && !(n & 1));
		m0 = load(&sh->mark);
		if (w)
			obs_union();
		else
			obs_upper();
		me->samples[w]++;
		m1 = load(&sh->mark);
		if (m1 != m0)
			me->across[w]++;
		if ((m0 & 1) || m1 != m0)
			me->inside[w]++;
		if ((++n & 63) == 0 && now() > deadline)
			break;
	}
	_exit(0);
}

/* --until-caught: has any observer reported a violation yet? */
static int caught(void)
{
	int i, j;

	for (i = 0; i < opt_observers; i++)
		for (j = 0; j < NR_KINDS; j++)
			if (__atomic_load_n(&sh->obs[i].viol[j], __ATOMIC_RELAXED))
				return 1;
	return 0;
}

/* ---- --prepare ---- */

static int prep_file(const char *path, const char *content)
{
	if (create_file(path, content)) {
		fprintf(stderr, "ul-race: create %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int prep_dir(const char *path)
{
	if (mkdir(path, 0755)) {
		fprintf(stderr, "ul-race: mkdir %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * prep_linked(path, first, content): the file at path; the first one of
 * a bucket (first empty) is made and its path kept in first, the others
 * are hard links of it (one inode per bucket)
 */
static int prep_linked(const char *path, char *first, const char *content)
{
	if (!first[0]) {
		if (prep_file(path, content))
			return -1;
		snprintf(first, PATH_MAX, "%s", path);
		return 0;
	}
	if (link(first, path)) {
		fprintf(stderr, "ul-race: link %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* the names of the recipes with one set of lower names per transition */
static int prepare_per_transition(int r)
{
	char dir[PATH_MAX], b[PATH_MAX], n[PATH_MAX], x[PATH_MAX];
	char first_a[PATH_MAX], first_b[PATH_MAX];
	unsigned long k, i;

	pth(dir, opt_lower, "%s", recipe_names[r]);
	for (k = 0; k < opt_count; k++) {
		i = k % BUCKET;
		pth(b, dir, "b%03lu", k / BUCKET);
		if (!i) {
			if (prep_dir(b))
				return -1;
			first_a[0] = first_b[0] = 0;
		}
		switch (r) {
		case R_RENAME_WHITEOUT:
			if (prep_linked(pth(n, b, "p%02lu", i), first_a, LOWER_P) ||
			    prep_linked(pth(n, b, "q%02lu", i), first_b, LOWER_Q))
				return -1;
			break;
		case R_RENAME_WH_DIR_P_LOWER:
			if (prep_dir(pth(n, b, "p%02lu", i)) ||
			    prep_linked(pth(x, n, "x"), first_b, "lower-x\n"))
				return -1;
			/* fall through */
		case R_RENAME_WH_DIR:
			if (prep_dir(pth(n, b, "d%02lu", i)) ||
			    prep_linked(pth(x, n, "x"), first_a, "lower-x\n"))
				return -1;
			break;
		case R_RENAME_DIR:
			if (prep_dir(pth(n, b, "m%02lu", i)) ||
			    prep_linked(pth(x, n, "x"), first_a, "lower-x\n"))
				return -1;
			break;
		case R_METACOPY:
			if (prep_linked(pth(n, b, "f%02lu", i), first_a, LOWER_MF))
				return -1;
			break;
		}
	}
	return 0;
}

static int prepare(void)
{
	char r[PATH_MAX], p[PATH_MAX], b[PATH_MAX];
	int i;

	for (i = 0; i < NR_RECIPES; i++) {
		if (prep_dir(pth(r, opt_lower, "%s", recipe_names[i])) ||
		    prep_dir(pth(p, r, "P")) ||
		    prep_file(pth(b, p, "c0"), "lower-c0\n") ||
		    prep_file(pth(b, p, "c1"), "lower-c1\n") ||
		    prep_file(pth(b, r, "F"), LOWER_F))
			return 2;
	}
	for (i = 0; i < NR_RECIPES; i++)
		if (per_transition(i) && prepare_per_transition(i))
			return 2;
	return 0;
}

/* ---- main ---- */

static void usage(void)
{
	fprintf(stderr,
		"usage: ul-race --prepare --lower LOWER [--count N]\n"
		"       ul-race --union MNT --upper UPPER --lower LOWER --recipe R\n"
		"               [--count N] [--observers K] [--timeout SECS]\n"
		"               [--until-caught] [--need-overlap]\n"
		"       ul-race --naive --upper UPPER --lower LOWER --recipe R ...\n"
		"R: rmdir-mkdir | rename | unlink-create | rename-over-whiteout-dir |\n"
		"   rename-whiteout | rename-over-whiteout-dir-p-lower | rename-dir |\n"
		"   metacopy\n");
	exit(2);
}

static void parse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "union", required_argument, NULL, 'u' },
		{ "upper", required_argument, NULL, 'U' },
		{ "lower", required_argument, NULL, 'L' },
		{ "recipe", required_argument, NULL, 'r' },
		{ "count", required_argument, NULL, 'n' },
		{ "observers", required_argument, NULL, 'k' },
		{ "timeout", required_argument, NULL, 't' },
		{ "naive", no_argument, NULL, 'N' },
		{ "prepare", no_argument, NULL, 'P' },
		{ "until-caught", no_argument, NULL, 'C' },
		{ "need-overlap", no_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	int c, i;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'u': opt_union = optarg; break;
		case 'U': opt_upper = optarg; break;
		case 'L': opt_lower = optarg; break;
		case 'n': opt_count = strtoul(optarg, NULL, 0); break;
		case 'k': opt_observers = atoi(optarg); break;
		case 't': opt_timeout = strtoul(optarg, NULL, 0); break;
		case 'N': opt_naive = 1; break;
		case 'P': opt_prepare = 1; break;
		case 'C': opt_until_caught = 1; break;
		case 'O': opt_need_overlap = 1; break;
		case 'r':
			for (i = 0; i < NR_RECIPES; i++)
				if (!strcmp(optarg, recipe_names[i]))
					recipe = i;
			if (recipe < 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !opt_lower || !opt_count)
		usage();
	if (opt_prepare)
		return;
	if (recipe < 0 || !opt_upper || !opt_timeout ||
	    opt_observers < 1 || opt_observers > MAX_OBS ||
	    (opt_naive ? !!opt_union : !opt_union))
		usage();
}

/* wait for the observers, at most 10 s; kill the ones still running */
static int reap(pid_t *pids, int n)
{
	double deadline = now() + 10;
	int left = n, i, hung = 0, status;

	while (left && now() < deadline) {
		for (i = 0; i < n; i++) {
			if (pids[i] > 0 && waitpid(pids[i], &status, WNOHANG) == pids[i]) {
				pids[i] = 0;
				left--;
			}
		}
		if (left)
			usleep(10000);
	}
	for (i = 0; i < n; i++) {
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], &status, 0);
			hung++;
		}
	}
	return hung;
}

int main(int argc, char **argv)
{
	const char *rn;
	unsigned long done = 0, total = 0, samples[2] = { 0, 0 };
	unsigned long looks[2][2] = { { 0 } }, inside[2][2] = { { 0 } };
	unsigned long across[2][2] = { { 0 } };
	unsigned long viol[NR_KINDS] = { 0 };
	pid_t pids[MAX_OBS];
	double t0, t1, deadline;
	int i, j, hung, timed_out = 0, stopped_early = 0, status = 0;
	struct stat st;
	char b[PATH_MAX];

	parse(argc, argv);
	if (opt_prepare)
		return prepare();

	rn = recipe_names[recipe];
	setvbuf(stdout, NULL, _IOLBF, 0);
	pth(lo_r, opt_lower, "%s", rn);
	pth(up_r, opt_upper, "%s", rn);
	if (opt_union)
		pth(mnt_r, opt_union, "%s", rn);
	if (lstat(pth(b, lo_r, per_transition(recipe) ? "b000" : "P"), &st)) {
		printf("%s: error: lower %s: %s (run --prepare first)\n", rn, b,
		       strerror(errno));
		return 2;
	}
	if (per_transition(recipe) &&
	    lstat(pth(b, lo_r, "b%03lu/d%02lu", (opt_count - 1) / BUCKET,
		      (opt_count - 1) % BUCKET), &st) &&
	    lstat(pth(b, lo_r, "b%03lu/p%02lu", (opt_count - 1) / BUCKET,
		      (opt_count - 1) % BUCKET), &st) &&
	    lstat(pth(b, lo_r, "b%03lu/m%02lu", (opt_count - 1) / BUCKET,
		      (opt_count - 1) % BUCKET), &st) &&
	    lstat(pth(b, lo_r, "b%03lu/f%02lu", (opt_count - 1) / BUCKET,
		      (opt_count - 1) % BUCKET), &st)) {
		printf("%s: error: lower %s: %s (prepared for fewer transitions)\n",
		       rn, b, strerror(errno));
		return 2;
	}

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("ul-race: mmap");
		return 2;
	}
	memset(sh, 0, sizeof(*sh));

	if (prime()) {
		printf("%s: %s: %s, after 0 transitions\n", rn,
		       wr_status == 3 ? "unsupported" : "error", wr_msg);
		return wr_status;
	}

	for (i = 0; i < opt_observers; i++) {
		enum role role = ROLE_UPPER;

		if (!opt_naive)
			role = opt_observers == 1 ? ROLE_BOTH :
			       (i & 1) ? ROLE_UNION : ROLE_UPPER;
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("ul-race: fork");
			store_int(&sh->done, 1);
			reap(pids, i);
			return 2;
		}
		if (!pids[i])
			observer(i, role);
	}
	deadline = now() + 30;
	while (load_int(&sh->ready) < opt_observers && now() < deadline)
		usleep(1000);

	pin(0);
	t0 = now();
	deadline = t0 + opt_timeout;
	store_int(&sh->go, 1);
	for (done = 0; done < opt_count; done++) {
		if (opt_until_caught && caught()) {
			stopped_early = 1;
			break;
		}
		__atomic_store_n(&sh->mark, 2 * done + 1, __ATOMIC_SEQ_CST);
		if (step(done))
			break;
		__atomic_store_n(&sh->mark, 2 * done + 2, __ATOMIC_SEQ_CST);
		__atomic_store_n(&sh->seq, done + 1, __ATOMIC_RELEASE);
		if ((done & 63) == 63 && now() > deadline) {
			done++;
			timed_out = done < opt_count;
			break;
		}
	}
	t1 = now();
	store_int(&sh->done, 1);
	hung = reap(pids, opt_observers);

	for (i = 0; i < opt_observers; i++) {
		for (j = 0; j < 2; j++) {
			samples[j] += sh->obs[i].samples[j];
			looks[sh->obs[i].other_cpu][j] += sh->obs[i].samples[j];
			inside[sh->obs[i].other_cpu][j] += sh->obs[i].inside[j];
			across[sh->obs[i].other_cpu][j] += sh->obs[i].across[j];
		}
		for (j = 0; j < NR_KINDS; j++) {
			viol[j] += sh->obs[i].viol[j];
			total += sh->obs[i].viol[j];
		}
	}

	fprintf(stderr, "%s: %lu transitions in %.2f s (%.0f/s); samples: upper %lu, union %lu%s\n",
		rn, done, t1 - t0, done / (t1 - t0 > 0 ? t1 - t0 : 1e-9),
		samples[0], samples[1],
		stopped_early ? "; stopped at the first violation" : "");
	fprintf(stderr, "%s: overlap: other CPU upper %lu/%lu/%lu union %lu/%lu/%lu, same CPU upper %lu/%lu/%lu union %lu/%lu/%lu\n",
		rn, inside[1][0], across[1][0], looks[1][0],
		inside[1][1], across[1][1], looks[1][1],
		inside[0][0], across[0][0], looks[0][0],
		inside[0][1], across[0][1], looks[0][1]);
	if (wr_status) {
		printf("%s: %s: %s, after %lu transitions\n", rn,
		       wr_status == 3 ? "unsupported" : "error", wr_msg, done);
		status = wr_status;
	} else if (timed_out) {
		printf("%s: timeout: %lu of %lu transitions in %u s\n", rn,
		       done, opt_count, opt_timeout);
		status = 2;
	}
	if (hung) {
		printf("%s: error: %d observers did not stop\n", rn, hung);
		status = 2;
	}
	if (opt_need_overlap && !status &&
	    (!inside[1][0] || (!opt_naive && !inside[1][1]))) {
		printf("%s: no look on another CPU overlapped a transition\n", rn);
		status = 2;
	}
	if (!total) {
		if (!status)
			printf("%s: %lu transitions, no violations\n", rn, done);
		return status;
	}
	printf("%s: %lu transitions, %lu violations (", rn, done, total);
	for (j = 0, i = 0; j < NR_KINDS; j++)
		if (viol[j])
			printf("%s%s=%lu", i++ ? " " : "", kind_names[j], viol[j]);
	printf(")\n");
	for (j = 0; j < NR_KINDS; j++) {
		int best = -1;

		for (i = 0; i < opt_observers; i++)
			if (sh->obs[i].viol[j] &&
			    (best < 0 || sh->obs[i].first_seq[j] < sh->obs[best].first_seq[j]))
				best = i;
		if (best >= 0)
			printf("%s:   first %s %s\n", rn, kind_names[j],
			       sh->obs[best].first[j]);
	}
	return status ? status : 1;
}
