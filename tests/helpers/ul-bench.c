// SPDX-License-Identifier: GPL-2.0
/*
 * ul-bench: timed filesystem operations for the benchmarks (make bench).
 *
 *   ul-bench mkfiles DIR N [X]    create DIR/n0 .. DIR/n<N-1> (setup, untimed;
 *                                 with X, DIR/X0 .. DIR/X<N-1>)
 *   ul-bench stat DIR N [P]       lstat every DIR/n<i>, P times (default 1)
 *   ul-bench readdir DIR [P]      read every entry of DIR with getdents64,
 *                                 P times (opened again each time)
 *   ul-bench read FILE [P]        read FILE to the end, 1 MiB at a time,
 *                                 P times
 *   ul-bench copyup FILE          open FILE for writing (a copy-up on a
 *                                 union whose file is in the lower layer)
 *   ul-bench unlink DIR N         unlink DIR/n<i>
 *   ul-bench rmdir DIR N          rmdir DIR/d<i>
 *   ul-bench mkdir DIR N          mkdir DIR/d<i>
 *   ul-bench rename DIR N         rename DIR/n<i> to DIR/m<i>
 *   ul-bench mkdirs DIR N         mkdir DIR/d<i> (setup, untimed)
 *   ul-bench rmdir-raw DIR N WORK the three steps of recipe 1 done directly
 *                                 on DIR/d<i>: mknod WORK/w<i> (a whiteout,
 *                                 character device 0/0), renameat2() it
 *                                 with DIR/d<i> (RENAME_EXCHANGE), rmdir
 *                                 WORK/w<i> (now the old directory)
 *   ul-bench unlink-raw DIR N WORK   the floor of unlink-with-whiteout on
 *                                 a lower-only DIR/n<i> (no upper object):
 *                                 mknod WORK/w<i> (a whiteout), rename
 *                                 it to DIR/n<i>
 *   ul-bench whiteouts A B N      whiteouts with their own inode against
 *                                 hard links of one: mknod A/w<i> and
 *                                 link B/#whiteout to B/w<i> in turns of
 *                                 100, then unlink both in turns; prints
 *                                 "whiteout-mknod", "whiteout-link",
 *                                 "unlink-own-inode", "unlink-link" lines
 *
 *   ul-bench ab OP A B N [P]      OP (stat, ustat, unlink, rmdir, mkdir,
 *                                 rename) on A/<name><i> and B/<name><i>,
 *                                 i < N, in turns of 100 names (P passes
 *                                 for stat and ustat; ustat: the u<i>)
 *   ul-bench ab readdir A B P     readdir of A and of B in turns, P each
 *   ul-bench ab readdir-changed A B P   the same, each read after a file
 *                                 made and removed in the directory
 *                                 (untimed): a union lists it anew
 *   ul-bench ab read A B P        read of file A and of file B in turns
 *   ul-bench ab copyup A B N      copyup of A/c<i> and of B/c<i> in turns,
 *                                 i < N, each from cold caches (sync and
 *                                 drop_caches first, untimed)
 *
 * "ab" times two places interleaved, so that both see the same moments
 * of a host whose speed varies (a guest under TCG on a shared machine
 * does: the same run can take twice as long a minute later); which of
 * the two goes first alternates from turn to turn. It prints two lines,
 * A's then B's, each with the time spent on that side alone.
 *
 * Timed commands print one line: "<what> <count> <seconds> <rate>/s",
 * with the rate in operations per second (MiB/s for read and copyup);
 * with P passes, the count and rate are those of all passes together (a
 * sample long enough that one scheduling delay of the host is noise).
 * Any failing call stops the run with the errno and exit status 1.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fail(const char *what, const char *path)
{
	fprintf(stderr, "ul-bench: %s %s: %s\n", what, path,
		strerrorname_np(errno));
	exit(1);
}

static void report(const char *what, double count, double t0, double scale)
{
	double secs = now() - t0;

	printf("%s %.0f %.3f %.1f/s\n", what, count, secs,
	       secs > 0 ? count / scale / secs : 0.0);
}

/* fn on DIR/<prefix><i> for every @from <= i < @to */
static void for_range(const char *dir, long from, long to, const char *prefix,
		      const char *what, int (*fn)(const char *))
{
	char p[4096];
	long i;

	for (i = from; i < to; i++) {
		snprintf(p, sizeof(p), "%s/%s%ld", dir, prefix, i);
		if (fn(p))
			fail(what, p);
	}
}

/* for_each DIR N PREFIX: run fn on DIR/<prefix><i> for every i < N */
static void for_each(const char *dir, long n, const char *prefix,
		     const char *what, int (*fn)(const char *), int timed)
{
	char p[4096];
	double t0 = now();
	long i;

	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/%s%ld", dir, prefix, i);
		if (fn(p))
			fail(what, p);
	}
	if (timed)
		report(what, n, t0, 1);
}

static int do_stat(const char *p)
{
	struct stat st;

	return lstat(p, &st);
}

static int do_create(const char *p)
{
	int fd = open(p, O_CREAT | O_WRONLY | O_EXCL, 0644);

	return fd < 0 ? -1 : close(fd);
}

static int do_mkdir(const char *p)
{
	return mkdir(p, 0755);
}

static int do_rename(const char *p)
{
	char q[4096];
	const char *slash = strrchr(p, '/');

	snprintf(q, sizeof(q), "%.*s/m%s", (int)(slash - p), p, slash + 2);
	return rename(p, q);
}

static const char *raw_work;

static int do_rmdir_raw(const char *p)
{
	char w[4096];

	snprintf(w, sizeof(w), "%s/w%s", raw_work, strrchr(p, '/') + 2);
	if (mknod(w, S_IFCHR, makedev(0, 0)) ||
	    renameat2(AT_FDCWD, w, AT_FDCWD, p, RENAME_EXCHANGE))
		return -1;
	return rmdir(w);
}

static int do_unlink_raw(const char *p)
{
	char w[4096];

	snprintf(w, sizeof(w), "%s/w%s", raw_work, strrchr(p, '/') + 2);
	if (mknod(w, S_IFCHR, makedev(0, 0)))
		return -1;
	return rename(w, p);
}

#define AB_TURN	100

static const char *shared_whiteout;

static int do_mknod_whiteout(const char *p)
{
	return mknod(p, S_IFCHR, makedev(0, 0));
}

static int do_link_whiteout(const char *p)
{
	return link(shared_whiteout, p);
}

/* whiteouts A B N: own inodes in A against links in B, made and removed */
static void whiteouts(char **dirs, long n)
{
	static char shared[4096];
	int (*make[2])(const char *) = { do_mknod_whiteout, do_link_whiteout };
	double mk[2] = { 0, 0 }, rm[2] = { 0, 0 }, t0;
	long i;
	int s, side;

	snprintf(shared, sizeof(shared), "%s/#whiteout", dirs[1]);
	shared_whiteout = shared;
	if (do_mknod_whiteout(shared))
		fail("mknod", shared);
	for (i = 0; i < n; i += AB_TURN)
		for (s = 0; s < 2; s++) {
			side = (s + i / AB_TURN) % 2;
			t0 = now();
			for_range(dirs[side], i, i + AB_TURN < n ? i + AB_TURN : n,
				  "w", "make", make[side]);
			mk[side] += now() - t0;
		}
	for (i = 0; i < n; i += AB_TURN)
		for (s = 0; s < 2; s++) {
			side = (s + i / AB_TURN) % 2;
			t0 = now();
			for_range(dirs[side], i, i + AB_TURN < n ? i + AB_TURN : n,
				  "w", "unlink", unlink);
			rm[side] += now() - t0;
		}
	if (unlink(shared))
		fail("unlink", shared);
	printf("whiteout-mknod %ld %.3f %.1f/s\n", n, mk[0], n / mk[0]);
	printf("whiteout-link %ld %.3f %.1f/s\n", n, mk[1], n / mk[1]);
	printf("unlink-own-inode %ld %.3f %.1f/s\n", n, rm[0], n / rm[0]);
	printf("unlink-link %ld %.3f %.1f/s\n", n, rm[1], n / rm[1]);
}

/* every entry of @path, with getdents64 through readdir(3): the count */
static long read_dir(const char *path)
{
	long count = 0;
	DIR *d;

	d = opendir(path);
	if (!d)
		fail("opendir", path);
	errno = 0;
	while (readdir(d))
		count++;
	if (errno)
		fail("readdir", path);
	closedir(d);
	return count;
}

/* a file made and removed in directory @path: a change of it */
static void change_dir(const char *path)
{
	char name[PATH_MAX];
	int fd;

	snprintf(name, sizeof(name), "%s/.ul-bench-change", path);
	fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		fail("create", name);
	close(fd);
	if (unlink(name))
		fail("unlink", name);
}

/* @path read to the end into @buf: the bytes read */
static double read_file(const char *path, char *buf, size_t size)
{
	double total = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		fail("open", path);
	while ((r = read(fd, buf, size)) > 0)
		total += r;
	if (r < 0)
		fail("read", path);
	close(fd);
	return total;
}

static const struct ab_op {
	const char *name, *prefix;
	int (*fn)(const char *p);
} ab_ops[] = {
	{ "stat", "n", do_stat },
	{ "ustat", "u", do_stat },
	{ "unlink", "n", unlink },
	{ "rmdir", "d", rmdir },
	{ "mkdir", "d", do_mkdir },
	{ "rename", "n", do_rename },
};

/* the two lines of "ab": A's and B's counts, times and rates */
static void ab_report(const char *what, double count, const double *secs,
		      double scale)
{
	int s;

	for (s = 0; s < 2; s++)
		printf("%s-%c %.0f %.3f %.1f/s\n", what, 'a' + s, count,
		       secs[s], secs[s] > 0 ? count / scale / secs[s] : 0.0);
}

/* open @path for writing: the seconds it took and the file's MiB */
static double copy_up(const char *path, double *mib)
{
	struct stat st;
	double t0;
	int fd;

	if (stat(path, &st))
		fail("stat", path);
	*mib = (double)st.st_size / (1 << 20);
	t0 = now();
	fd = open(path, O_WRONLY);
	if (fd < 0)
		fail("open", path);
	close(fd);
	return now() - t0;
}

/* write back everything dirty and drop the clean caches: a cold start */
static void drop_caches(void)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		fail("write", "/proc/sys/vm/drop_caches");
	close(fd);
}

/* ab copyup A B N: A/c<i> and B/c<i> copied up in turns, each cold */
static void ab_copyup(char **dirs, long n)
{
	double secs[2] = { 0, 0 }, amount = 0, mib;
	char p[4096];
	long i;
	int s, side;

	for (i = 0; i < n; i++)
		for (s = 0; s < 2; s++) {
			side = (s + i) % 2;
			snprintf(p, sizeof(p), "%s/c%ld", dirs[side], i);
			drop_caches();
			secs[side] += copy_up(p, &mib);
			if (!side)
				amount += mib;
		}
	ab_report("copyup-MiB", amount, secs, 1);
}

/* ab OP A B N P: the per-name OP on A and B in turns of AB_TURN names */
static int ab_names(const char *op, char **dirs, long n, long passes)
{
	double secs[2] = { 0, 0 }, t0;
	const struct ab_op *o = NULL;
	long turn = 0, i, p;
	unsigned int k;
	int s, side;

	for (k = 0; k < sizeof(ab_ops) / sizeof(ab_ops[0]); k++)
		if (!strcmp(op, ab_ops[k].name))
			o = &ab_ops[k];
	if (!o)
		return -1;
	for (p = 0; p < passes; p++)
		for (i = 0; i < n; i += AB_TURN, turn++)
			for (s = 0; s < 2; s++) {
				side = (s + turn) % 2;
				t0 = now();
				for_range(dirs[side], i,
					  i + AB_TURN < n ? i + AB_TURN : n,
					  o->prefix, o->name, o->fn);
				secs[side] += now() - t0;
			}
	ab_report(o->name, (double)n * passes, secs, 1);
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	const char *cmd = argc > 1 ? argv[1] : "";
	long n = argc > 3 ? strtol(argv[3], NULL, 0) : 0;
	long i, passes;
	double t0, total;

	if ((argc == 4 || argc == 5) && !strcmp(cmd, "mkfiles"))
		for_each(argv[2], n, argc == 5 ? argv[4] : "n", "create",
			 do_create, 0);
	else if (argc == 4 && !strcmp(cmd, "mkdirs"))
		for_each(argv[2], n, "d", "mkdir", do_mkdir, 0);
	else if ((argc == 4 || argc == 5) && !strcmp(cmd, "stat")) {
		passes = argc == 5 ? strtol(argv[4], NULL, 0) : 1;
		t0 = now();
		for (i = 0; i < passes; i++)
			for_each(argv[2], n, "n", "stat", do_stat, 0);
		report("stat", (double)n * passes, t0, 1);
	}
	else if (argc == 4 && !strcmp(cmd, "unlink"))
		for_each(argv[2], n, "n", "unlink", unlink, 1);
	else if (argc == 4 && !strcmp(cmd, "rmdir"))
		for_each(argv[2], n, "d", "rmdir", rmdir, 1);
	else if (argc == 4 && !strcmp(cmd, "mkdir"))
		for_each(argv[2], n, "d", "mkdir", do_mkdir, 1);
	else if (argc == 4 && !strcmp(cmd, "rename"))
		for_each(argv[2], n, "n", "rename", do_rename, 1);
	else if (argc == 5 && !strcmp(cmd, "rmdir-raw")) {
		raw_work = argv[4];
		for_each(argv[2], n, "d", "rmdir-raw", do_rmdir_raw, 1);
	} else if (argc == 5 && !strcmp(cmd, "unlink-raw")) {
		raw_work = argv[4];
		for_each(argv[2], n, "n", "unlink-raw", do_unlink_raw, 1);
	} else if (argc == 5 && !strcmp(cmd, "whiteouts")) {
		whiteouts(argv + 2, strtol(argv[4], NULL, 0));
	} else if (argc == 6 && !strcmp(cmd, "ab") &&
		   !strcmp(argv[2], "copyup")) {
		ab_copyup(argv + 3, strtol(argv[5], NULL, 0));
	} else if (argc >= 6 && !strcmp(cmd, "ab") &&
		   strcmp(argv[2], "readdir") && strcmp(argv[2], "read") &&
		   strcmp(argv[2], "readdir-changed")) {
		passes = argc == 7 ? strtol(argv[6], NULL, 0) : 1;
		if (ab_names(argv[2], argv + 3, strtol(argv[5], NULL, 0),
			     passes))
			goto usage;
	} else if (argc == 6 && !strcmp(cmd, "ab")) {
		double secs[2] = { 0, 0 }, amount = 0, got;
		int s, side;

		passes = strtol(argv[5], NULL, 0);
		for (i = 0; i < passes; i++)
			for (s = 0; s < 2; s++) {
				side = (s + i) % 2;
				if (!strcmp(argv[2], "readdir-changed"))
					change_dir(argv[3 + side]);
				t0 = now();
				if (strcmp(argv[2], "read"))
					got = read_dir(argv[3 + side]);
				else
					got = read_file(argv[3 + side], buf,
							sizeof(buf)) / (1 << 20);
				secs[side] += now() - t0;
				if (!side)
					amount += got;
			}
		ab_report(!strcmp(argv[2], "read") ? "read-MiB" : "readdir",
			  amount, secs, 1);
	} else if ((argc == 3 || argc == 4) && !strcmp(cmd, "readdir")) {
		long count = 0;

		passes = argc == 4 ? strtol(argv[3], NULL, 0) : 1;
		t0 = now();
		for (i = 0; i < passes; i++)
			count += read_dir(argv[2]);
		report("readdir", count, t0, 1);
	} else if ((argc == 3 || argc == 4) && !strcmp(cmd, "read")) {
		passes = argc == 4 ? strtol(argv[3], NULL, 0) : 1;
		t0 = now();
		total = 0;
		for (i = 0; i < passes; i++)
			total += read_file(argv[2], buf, sizeof(buf));
		report("read-MiB", total / (1 << 20), t0, 1);
	} else if (argc == 3 && !strcmp(cmd, "copyup")) {
		double mib, secs = copy_up(argv[2], &mib);

		printf("copyup-MiB %.0f %.3f %.1f/s\n", mib, secs,
		       secs > 0 ? mib / secs : 0.0);
	} else {
usage:
		fprintf(stderr, "usage: see the comment at the top of ul-bench.c\n");
		return 2;
	}
	return 0;
}
