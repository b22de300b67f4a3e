// SPDX-License-Identifier: GPL-2.0
/*
 * ul-bench: timed filesystem operations for the benchmarks (make bench).
 *
 *   ul-bench mkfiles DIR N        create DIR/n0 .. DIR/n<N-1> (setup, untimed)
 *   ul-bench stat DIR N           lstat every DIR/n<i>
 *   ul-bench readdir DIR          read every entry of DIR with getdents64
 *   ul-bench read FILE            read FILE to the end, 1 MiB at a time
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
 *
 * Timed commands print one line: "<what> <count> <seconds> <rate>/s",
 * with the rate in operations per second (MiB/s for read and copyup).
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

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	const char *cmd = argc > 1 ? argv[1] : "";
	long n = argc > 3 ? strtol(argv[3], NULL, 0) : 0;
	double t0, total;
	ssize_t r;
	int fd;

	if (argc == 4 && !strcmp(cmd, "mkfiles"))
		for_each(argv[2], n, "n", "create", do_create, 0);
	else if (argc == 4 && !strcmp(cmd, "mkdirs"))
		for_each(argv[2], n, "d", "mkdir", do_mkdir, 0);
	else if (argc == 4 && !strcmp(cmd, "stat"))
		for_each(argv[2], n, "n", "stat", do_stat, 1);
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
	} else if (argc == 3 && !strcmp(cmd, "readdir")) {
		DIR *d;
		long count = 0;

		t0 = now();
		d = opendir(argv[2]);
		if (!d)
			fail("opendir", argv[2]);
		errno = 0;
		while (readdir(d))
			count++;
		if (errno)
			fail("readdir", argv[2]);
		closedir(d);
		report("readdir", count, t0, 1);
	} else if (argc == 3 && !strcmp(cmd, "read")) {
		t0 = now();
		total = 0;
		fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			fail("open", argv[2]);
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			total += r;
		if (r < 0)
			fail("read", argv[2]);
		close(fd);
		report("read-MiB", total / (1 << 20), t0, 1);
	} else if (argc == 3 && !strcmp(cmd, "copyup")) {
		struct stat st;

		if (stat(argv[2], &st))
			fail("stat", argv[2]);
		t0 = now();
		fd = open(argv[2], O_WRONLY);
		if (fd < 0)
			fail("open", argv[2]);
		close(fd);
		report("copyup-MiB", (double)st.st_size / (1 << 20), t0, 1);
	} else {
		fprintf(stderr, "usage: see the comment at the top of ul-bench.c\n");
		return 2;
	}
	return 0;
}
