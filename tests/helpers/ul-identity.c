// SPDX-License-Identifier: GPL-2.0
/*
 * ul-identity: what a union's inode numbers tell tools, counted.
 *
 *   ul-identity scan UNION UPPER LOWER OUT
 *   ul-identity compare OLD NEW
 *
 * scan walks UNION (not following symlinks) and writes one line per
 * object to OUT:
 *
 *   <st_ino> <d_ino> <real> <path>
 *
 * <d_ino> is what the parent's readdir said for the name, <real> the
 * topmost real object ("<st_dev>:<st_ino>" of UPPER/path if it exists
 * and is not a whiteout, else of LOWER/path; LOWER may name several
 * layers, L1:L2:..., looked at in that order), <path> relative to UNION.
 * It prints to standard output:
 *
 *   objects N; st_dev other than the union's S; shared st_ino P;
 *   d_ino != st_ino D
 *
 * where a shared st_ino is a number that two different real objects show
 * (hard links of one object are one object), counted once per extra
 * object, and D counts the names whose d_ino is not their st_ino, and
 * the directories whose "." entry's d_ino is not their own st_ino.
 *
 * compare prints "st_ino changed: C of N" for the paths present in both
 * scans whose st_ino differs.
 *
 * Exit status: 0, or 2 on a usage or system error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct obj {
	unsigned long long ino;
	unsigned long long real_dev, real_ino;
	char *path;
};

static struct obj *objs;
static size_t nobjs, cap;
static unsigned long long union_dev;
static unsigned long n_dev, n_dino;
static const char *top_union, *top_upper, *top_lower;
static FILE *out;

static void die(const char *what, const char *path)
{
	fprintf(stderr, "ul-identity: %s %s: %s\n", what, path, strerror(errno));
	exit(2);
}

/* buf = a "/" b, which must fit in PATH_MAX */
static void join(char *buf, const char *a, const char *b)
{
	if (snprintf(buf, PATH_MAX, "%s/%s", a, b) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		die("path", b);
	}
}

/*
 * The topmost real object of @rel: the first of UPPER/rel, L1/rel,
 * L2/rel... (LOWER is L1:L2:...) that exists and is not a whiteout.
 */
static void real_of(const char *rel, unsigned long long *dev,
		    unsigned long long *ino)
{
	char p[PATH_MAX], layer[PATH_MAX];
	const char *next = top_lower, *end;
	struct stat st;

	join(p, top_upper, rel);
	for (;;) {
		if (!lstat(p, &st) &&
		    !(S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0))) {
			*dev = st.st_dev;
			*ino = st.st_ino;
			return;
		}
		if (!next)
			die("no layer has", rel);
		end = strchr(next, ':');
		if (!end)
			end = next + strlen(next);
		snprintf(layer, sizeof(layer), "%.*s", (int)(end - next), next);
		join(p, layer, rel);
		next = *end ? end + 1 : NULL;
	}
}

static void add(const char *rel, const struct stat *st, unsigned long long dino)
{
	struct obj *o;

	if (nobjs == cap) {
		cap = cap ? cap * 2 : 1024;
		objs = realloc(objs, cap * sizeof(*objs));
		if (!objs)
			die("realloc", rel);
	}
	o = &objs[nobjs++];
	o->ino = st->st_ino;
	o->path = strdup(rel);
	real_of(rel, &o->real_dev, &o->real_ino);
	if (st->st_dev != union_dev)
		n_dev++;
	if (dino != st->st_ino)
		n_dino++;
	fprintf(out, "%llu %llu %llu:%llu %s\n", (unsigned long long)st->st_ino,
		dino, o->real_dev, o->real_ino, rel);
}

/* rel: path of the directory relative to the union ("" for the root) */
static void walk(const char *rel)
{
	char dp[PATH_MAX], p[PATH_MAX], r[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;

	join(dp, top_union, rel);
	d = opendir(dp);
	if (!d)
		die("opendir", dp);
	while ((errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".")) {
			/* the directory's own entry: its d_ino is its st_ino */
			if (stat(dp, &st))
				die("stat", dp);
			if (de->d_ino != st.st_ino)
				n_dino++;
			continue;
		}
		if (!strcmp(de->d_name, ".."))
			continue;
		if (*rel)
			join(r, rel, de->d_name);
		else
			snprintf(r, sizeof(r), "%s", de->d_name);
		join(p, top_union, r);
		if (lstat(p, &st))
			die("lstat", p);
		add(r, &st, de->d_ino);
		if (S_ISDIR(st.st_mode))
			walk(r);
	}
	if (errno)
		die("readdir", dp);
	closedir(d);
}

static int by_ino(const void *a, const void *b)
{
	const struct obj *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->real_dev != y->real_dev)
		return x->real_dev < y->real_dev ? -1 : 1;
	if (x->real_ino != y->real_ino)
		return x->real_ino < y->real_ino ? -1 : 1;
	return 0;
}

static int scan(char **argv)
{
	unsigned long shared = 0;
	struct stat st;
	size_t i;

	top_union = argv[0];
	top_upper = argv[1];
	top_lower = argv[2];
	out = fopen(argv[3], "w");
	if (!out)
		die("fopen", argv[3]);
	if (lstat(top_union, &st))
		die("lstat", top_union);
	union_dev = st.st_dev;
	walk("");
	fclose(out);
	qsort(objs, nobjs, sizeof(*objs), by_ino);
	for (i = 1; i < nobjs; i++)
		if (objs[i].ino == objs[i - 1].ino &&
		    (objs[i].real_dev != objs[i - 1].real_dev ||
		     objs[i].real_ino != objs[i - 1].real_ino))
			shared++;
	printf("objects %zu; st_dev other than the union's %lu; shared st_ino %lu; d_ino != st_ino %lu\n",
	       nobjs, n_dev, shared, n_dino);
	return 0;
}

/* compare: both files sorted by path by the caller (sort -k4) */
static int compare(char **argv)
{
	char a[PATH_MAX + 100], b[PATH_MAX + 100], pa[PATH_MAX], pb[PATH_MAX];
	unsigned long long ia, ib, x;
	unsigned long n = 0, changed = 0;
	FILE *fa, *fb;
	char rd[64];
	int c, ra, rb;

	fa = fopen(argv[0], "r");
	fb = fopen(argv[1], "r");
	if (!fa || !fb)
		die("fopen", argv[!fa ? 0 : 1]);
	ra = fgets(a, sizeof(a), fa) != NULL;
	rb = fgets(b, sizeof(b), fb) != NULL;
	while (ra && rb) {
		if (sscanf(a, "%llu %llu %63s %4095[^\n]", &ia, &x, rd, pa) != 4 ||
		    sscanf(b, "%llu %llu %63s %4095[^\n]", &ib, &x, rd, pb) != 4) {
			fprintf(stderr, "ul-identity: bad line\n");
			return 2;
		}
		c = strcmp(pa, pb);
		if (!c) {
			n++;
			if (ia != ib)
				changed++;
		}
		if (c <= 0)
			ra = fgets(a, sizeof(a), fa) != NULL;
		if (c >= 0)
			rb = fgets(b, sizeof(b), fb) != NULL;
	}
	printf("st_ino changed: %lu of %lu\n", changed, n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "scan"))
		return scan(argv + 2);
	if (argc == 4 && !strcmp(argv[1], "compare"))
		return compare(argv + 2);
	fprintf(stderr, "usage: ul-identity scan UNION UPPER LOWER OUT\n"
			"       ul-identity compare OLD NEW\n");
	return 2;
}
