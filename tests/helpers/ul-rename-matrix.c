// SPDX-License-Identifier: GPL-2.0
/*
 * ul-rename-matrix: run renameat2(2) over every combination of source,
 * target, parents and flag, and print one line per case describing the
 * outcome in a form that does not depend on the filesystem, so that the
 * output for ext4 and for ext2 can be compared case by case.
 *
 *   ul-rename-matrix DIR
 *
 * DIR is an empty directory on the filesystem under test. Each case is
 * built in a fresh subdirectory DIR/cNNN holding the parents "p" and "q",
 * and removed again afterwards. The source is always p/a; the target is
 * p/b ("same" parent) or q/b ("diff"erent parents). Each of them is one of
 *
 *   absent    nothing
 *   file      regular file holding its own name ("a" or "b")
 *   symlink   symbolic link pointing to its own name
 *   emptydir  empty directory
 *   fulldir   directory holding one file, "in-a" or "in-b", with that
 *             name as content
 *
 * and the flags are one of 0, NOREPLACE, EXCHANGE and WHITEOUT.
 *
 * Output, one line per case (200 lines), for example:
 *
 *   diff/file/fulldir/EXCHANGE: ok | p/a: dir [in-b] nlink=2 ..=parent |
 *     q/b: file 'a' | inode-a: nlink=1 | inode-b: nlink=2 | p: nlink=3 |
 *     q: nlink=2
 *
 * (wrapped here). After the case name comes "ok" or the errno's name,
 * then the state of both names: type and content (file data, symlink
 * target, sorted directory listing, "chr MAJOR:MINOR"), for directories
 * their link count and whether ".." is the directory holding them
 * ("parent") or not ("WRONG"). "inode-a" and "inode-b" give the link
 * count, after the call, of the inodes that were at p/a and at the target
 * before it ("-" if there was none), which shows replaced inodes losing
 * their links. Then come the link counts of both parents. No inode
 * numbers, sizes or times are printed.
 *
 * The VFS moves (or, for EXCHANGE, swaps) the dentries by itself, so what
 * the names show through the dcache proves nothing about the disk. Each
 * name is therefore also checked against its directory entry: "dino=ok"
 * when the d_ino that readdir() gives for it equals lstat()'s st_ino,
 * "dino=BAD" when not. Last, with every file of the case closed, the
 * dentries and inodes are dropped (sync, then 2 into
 * /proc/sys/vm/drop_caches) and each name is looked up again from the
 * disk: "| disk:" then, per name, its type and its directory entry check,
 * and for a directory where its ".." points.
 *
 *   ul-rename-matrix --keep DIR
 *
 * leaves every case in place (for e2fsck with the fixtures in it).
 *
 * Exit status: 0 when every case ran (whatever renameat2() returned),
 * 1 when a case could not be built, inspected or removed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

enum kind { ABSENT, REG, SYMLINK, EMPTYDIR, FULLDIR, NKINDS };

static const char *const kind_name[NKINDS] = {
	"absent", "file", "symlink", "emptydir", "fulldir",
};

static const struct {
	const char *name;
	unsigned int flags;
} flag_set[] = {
	{ "0", 0 },
	{ "NOREPLACE", RENAME_NOREPLACE },
	{ "EXCHANGE", RENAME_EXCHANGE },
	{ "WHITEOUT", RENAME_WHITEOUT },
};

#define NFLAGS (sizeof(flag_set) / sizeof(flag_set[0]))

/* The line being built for the current case. */
static char line[4096];
static size_t line_len;

static void __attribute__((format(printf, 1, 2))) out(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line + line_len, sizeof(line) - line_len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line) - line_len) {
		fprintf(stderr, "ul-rename-matrix: output line too long\n");
		exit(1);
	}
	line_len += n;
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "ul-rename-matrix: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err));
	exit(1);
}

static const char *errno_name(int err)
{
	static char buf[32];
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static void write_file(const char *path, const char *data)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	size_t len = strlen(data);

	if (fd < 0)
		die("create %s", path);
	if (write(fd, data, len) != (ssize_t)len)
		die("write %s", path);
	if (close(fd))
		die("close %s", path);
}

/* Create @path as @kind; @name is its last component. */
static void build(const char *path, const char *name, enum kind kind)
{
	char inner[256];

	switch (kind) {
	case ABSENT:
		break;
	case REG:
		write_file(path, name);
		break;
	case SYMLINK:
		if (symlink(name, path))
			die("symlink %s", path);
		break;
	case EMPTYDIR:
	case FULLDIR:
		if (mkdir(path, 0755))
			die("mkdir %s", path);
		if (kind == FULLDIR) {
			snprintf(inner, sizeof(inner), "%s/in-%s", path, name);
			write_file(inner, strrchr(inner, '/') + 1);
		}
		break;
	default:
		break;
	}
}

/* Append @len bytes of @s in single quotes, escaping anything unusual. */
static void out_quoted(const char *s, size_t len)
{
	size_t i;

	out("'");
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
			out("%c", c);
		else
			out("\\x%02x", c);
	}
	out("'");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void out_listing(const char *path)
{
	char *names[64];
	size_t n = 0, i;
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d)
		die("opendir %s", path);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == sizeof(names) / sizeof(names[0])) {
			errno = E2BIG;
			die("readdir %s", path);
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			die("strdup");
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	out("[");
	for (i = 0; i < n; i++) {
		out("%s%s", i ? " " : "", names[i]);
		free(names[i]);
	}
	out("]");
}

static int keep;

/* d_ino of @name in directory @dir, 0 when readdir() does not list it */
static ino_t dirent_ino(const char *dir, const char *name)
{
	struct dirent *de;
	ino_t ino = 0;
	DIR *d = opendir(dir);

	if (!d)
		die("opendir %s", dir);
	while ((de = readdir(d)))
		if (!strcmp(de->d_name, name))
			ino = de->d_ino;
	closedir(d);
	return ino;
}

/* "dino=ok" when the entry of @path in @parent names lstat()'s inode */
static void out_dino(const char *path, const char *parent, ino_t ino)
{
	out(" dino=%s", dirent_ino(parent, strrchr(path, '/') + 1) == ino ?
	    "ok" : "BAD");
}

static ino_t ino_of(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		die("stat %s", path);
	return st.st_ino;
}

/* Describe the name @path, which lives in the directory @parent. */
static void describe(const char *path, const char *parent)
{
	char buf[256];
	struct stat st;
	ssize_t n;
	int fd;

	out(" | %s: ", path);
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			die("lstat %s", path);
		out("absent");
		return;
	}

	switch (st.st_mode & S_IFMT) {
	case S_IFREG:
		fd = open(path, O_RDONLY);
		if (fd < 0)
			die("open %s", path);
		n = read(fd, buf, sizeof(buf));
		if (n < 0)
			die("read %s", path);
		close(fd);
		out("file ");
		out_quoted(buf, n);
		break;
	case S_IFLNK:
		n = readlink(path, buf, sizeof(buf));
		if (n < 0)
			die("readlink %s", path);
		out("symlink -> ");
		out_quoted(buf, n);
		break;
	case S_IFDIR:
		out("dir ");
		out_listing(path);
		snprintf(buf, sizeof(buf), "%s/..", path);
		out(" nlink=%lu ..=%s", (unsigned long)st.st_nlink,
		    ino_of(buf) == ino_of(parent) ? "parent" : "WRONG");
		break;
	case S_IFCHR:
		out("chr %u:%u", major(st.st_rdev), minor(st.st_rdev));
		break;
	default:
		out("other");
		break;
	}
	out_dino(path, parent, st.st_ino);
}

/* The name @path (in @parent) as the disk has it, after drop_caches. */
static void describe_disk(const char *path, const char *parent)
{
	char buf[256];
	struct stat st;

	out(" %s: ", path);
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			die("lstat %s", path);
		out("absent");
		return;
	}
	out("%s", S_ISDIR(st.st_mode) ? "dir" : S_ISREG(st.st_mode) ? "file" :
	    S_ISLNK(st.st_mode) ? "symlink" : "other");
	out_dino(path, parent, st.st_ino);
	if (S_ISDIR(st.st_mode)) {
		snprintf(buf, sizeof(buf), "%s/..", path);
		out(" ..=%s", ino_of(buf) == ino_of(parent) ? "parent" : "WRONG");
	}
}

/* Write back, then drop every unused dentry and inode. */
static void drop_caches(void)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "2", 1) != 1)
		die("drop_caches");
	close(fd);
}

/* Link count, now, of the inode @fd refers to ("-" if there was none). */
static void describe_inode(const char *label, int fd)
{
	struct stat st;

	if (fd < 0) {
		out(" | %s: -", label);
		return;
	}
	if (fstat(fd, &st))
		die("fstat %s", label);
	out(" | %s: nlink=%lu", label, (unsigned long)st.st_nlink);
}

static void describe_nlink(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		die("lstat %s", path);
	out(" | %s: nlink=%lu", path, (unsigned long)st.st_nlink);
}

static int open_inode(const char *path)
{
	int fd = open(path, O_PATH | O_NOFOLLOW);

	if (fd < 0 && errno != ENOENT)
		die("open %s", path);
	return fd;
}

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	if (remove(path))
		die("remove %s", path);
	return 0;
}

static void run_case(int nr, int diff, enum kind src, enum kind dst,
		     unsigned int fl)
{
	const char *b = diff ? "q/b" : "p/b";
	const char *bparent = diff ? "q" : "p";
	char top[32];
	int fd_a, fd_b, err;

	/* the case lives in DIR/cNNN; names are printed relative to it */
	snprintf(top, sizeof(top), "c%03d", nr);
	if (mkdir(top, 0755) || chdir(top))
		die("mkdir %s", top);
	if (mkdir("p", 0755) || mkdir("q", 0755))
		die("mkdir %s/p, %s/q", top, top);
	build("p/a", "a", src);
	build(b, "b", dst);
	fd_a = open_inode("p/a");
	fd_b = open_inode(b);

	err = 0;
	if (syscall(SYS_renameat2, AT_FDCWD, "p/a", AT_FDCWD, b,
		    flag_set[fl].flags))
		err = errno;

	line_len = 0;
	out("%s/%s/%s/%s: %s", diff ? "diff" : "same", kind_name[src],
	    kind_name[dst], flag_set[fl].name, err ? errno_name(err) : "ok");
	describe("p/a", "p");
	describe(b, bparent);
	describe_inode("inode-a", fd_a);
	describe_inode("inode-b", fd_b);
	describe_nlink("p");
	describe_nlink("q");

	if (fd_a >= 0)
		close(fd_a);
	if (fd_b >= 0)
		close(fd_b);
	drop_caches();
	out(" | disk:");
	describe_disk("p/a", "p");
	describe_disk(b, bparent);
	puts(line);

	if (chdir(".."))
		die("chdir ..");
	if (!keep && nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		die("remove %s", top);
}

int main(int argc, char **argv)
{
	int nr = 0, diff, src, dst;
	unsigned int fl;

	if (argc == 3 && !strcmp(argv[1], "--keep")) {
		keep = 1;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: ul-rename-matrix [--keep] DIR\n");
		return 2;
	}
	if (chdir(argv[1]))
		die("chdir %s", argv[1]);
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (diff = 0; diff < 2; diff++)
		for (src = 0; src < NKINDS; src++)
			for (dst = 0; dst < NKINDS; dst++)
				for (fl = 0; fl < NFLAGS; fl++)
					run_case(nr++, diff, src, dst, fl);
	return 0;
}
