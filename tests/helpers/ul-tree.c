// SPDX-License-Identifier: GPL-2.0
/*
 * ul-tree: the listing of tests/union-lib/union.sh's ul_tree in one
 * process.
 *
 *   ul-tree DIR
 *
 * Prints one line per object below DIR (not DIR itself), sorted by path
 * as "find . -mindepth 1 | sort" sorts them (byte order of "./PATH"),
 * without inode numbers, sizes of directories or times:
 *
 *   PATH: dir (MODE UID:GID)[ opaque=VALUE][ redirect=REDIRECT]
 *   PATH: file (MODE UID:GID) size=N 'CONTENT'
 *   PATH: symlink -> TARGET (MODE UID:GID)
 *   PATH: WHITEOUT                      (a character device 0/0)
 *   PATH: chardev MAJ:MIN (MODE UID:GID)    (hexadecimal, as stat %t:%T)
 *   PATH: blockdev MAJ:MIN (MODE UID:GID)
 *   PATH: fifo (MODE UID:GID)
 *   PATH: socket (MODE UID:GID)
 *
 * MODE is ls's form (stat %A), VALUE the trusted.overlay.opaque xattr,
 * REDIRECT the trusted.overlay.redirect one,
 * CONTENT the file's bytes without NUL bytes and trailing newlines (as
 * the shell's $(cat FILE) gives them). The shell version forked three to five
 * processes per object; under the debug kernel a fork and exec costs
 * about 50 ms.
 *
 *   ul-tree -a DIR
 *   ul-tree -x DIR
 *
 * also prints, after each object's line, "  ino=INO nlink=N" and one line
 * "  xattr NAME=VALUE" per extended attribute the object lists, sorted by
 * name (VALUE as text when it is printable, else 0x and hexadecimal): the
 * view the crash-state test (tests/lib/crash-states.sh) compares.
 *
 * -x prints, for a file, "hash=H" (64-bit FNV-1a of its bytes, in
 * hexadecimal) instead of its content, and each object's xattrs as -a
 * does, without inode numbers and link counts: the trees of the
 * real-client tests, too big to print whole.
 *
 * Exit status: 0, or 1 when DIR or an object could not be read (the
 * reason on standard error).
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
#include <sys/xattr.h>
#include <unistd.h>

static char **paths;
static size_t npaths, cap;
static int status, all, hashed;

static void add(const char *p)
{
	if (npaths == cap) {
		cap = cap ? 2 * cap : 256;
		paths = realloc(paths, cap * sizeof(*paths));
		if (!paths) {
			perror("ul-tree");
			exit(2);
		}
	}
	paths[npaths] = strdup(p);
	if (!paths[npaths]) {
		perror("ul-tree");
		exit(2);
	}
	npaths++;
}

/* every name below @rel ("." first), as find prints it */
static void walk(const char *top, const char *rel)
{
	char abs[2 * PATH_MAX + 2], sub[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;

	snprintf(abs, sizeof(abs), "%s/%s", top, rel);
	d = opendir(abs);
	if (!d) {
		fprintf(stderr, "ul-tree: %s: %s\n", abs, strerror(errno));
		status = 1;
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", rel, de->d_name) >= (int)sizeof(sub)) {
			fprintf(stderr, "ul-tree: %s/%s: path too long\n", rel, de->d_name);
			status = 1;
			continue;
		}
		add(sub);
		snprintf(abs, sizeof(abs), "%s/%s", top, sub);
		if (!lstat(abs, &st) && S_ISDIR(st.st_mode))
			walk(top, sub);
	}
	closedir(d);
}

static int bytewise(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ls's mode string */
static void mode_string(mode_t m, char *s)
{
	static const char rwx[] = "rwxrwxrwx";
	int i;

	s[0] = S_ISDIR(m) ? 'd' : S_ISLNK(m) ? 'l' : S_ISCHR(m) ? 'c' :
	       S_ISBLK(m) ? 'b' : S_ISFIFO(m) ? 'p' : S_ISSOCK(m) ? 's' : '-';
	for (i = 0; i < 9; i++)
		s[i + 1] = m & (0400 >> i) ? rwx[i] : '-';
	if (m & S_ISUID)
		s[3] = m & S_IXUSR ? 's' : 'S';
	if (m & S_ISGID)
		s[6] = m & S_IXGRP ? 's' : 'S';
	if (m & S_ISVTX)
		s[9] = m & S_IXOTH ? 't' : 'T';
	s[10] = '\0';
}

/* the file's bytes, less the trailing newlines */
static void content(const char *p)
{
	char *buf = NULL;
	size_t len = 0, size = 0, i, k;
	ssize_t n;
	int fd = open(p, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "cat: can't open '%s': %s\n", p, strerror(errno));
		status = 1;
		return;
	}
	for (;;) {
		if (len == size) {
			size = size ? 2 * size : 4096;
			buf = realloc(buf, size);
			if (!buf) {
				perror("ul-tree");
				exit(2);
			}
		}
		n = read(fd, buf + len, size - len);
		if (n <= 0)
			break;
		len += n;
	}
	if (n < 0) {
		fprintf(stderr, "cat: read error: %s\n", strerror(errno));
		status = 1;
	}
	close(fd);
	/* the shell's $(...) drops NUL bytes, then the trailing newlines */
	for (i = 0, k = 0; i < len; i++)
		if (buf[i])
			buf[k++] = buf[i];
	len = k;
	while (len && buf[len - 1] == '\n')
		len--;
	fwrite(buf, 1, len, stdout);
	free(buf);
}

/* -x: the FNV-1a hash of a file's bytes */
static void hash(const char *p)
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	unsigned char buf[65536];
	ssize_t n, i;
	int fd = open(p, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "ul-tree: %s: %s\n", p, strerror(errno));
		status = 1;
		return;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ULL;
	if (n < 0) {
		fprintf(stderr, "ul-tree: %s: %s\n", p, strerror(errno));
		status = 1;
	}
	close(fd);
	printf("hash=%016llx", h);
}

/* -a: inode number, link count and every listed xattr of @p; -x: xattrs */
static void show_more(const char *p, const struct stat *st)
{
	char names[4096], val[1024], *nm, *sorted[256];
	ssize_t len, vl, i;
	int n = 0, a, b;

	if (all)
		printf("  ino=%llu nlink=%lu\n", (unsigned long long)st->st_ino,
		       (unsigned long)st->st_nlink);
	len = llistxattr(p, names, sizeof(names));
	if (len < 0) {
		if (errno == ENOTSUP)
			return;
		fprintf(stderr, "ul-tree: listxattr %s: %s\n", p, strerror(errno));
		status = 1;
		return;
	}
	for (nm = names; nm < names + len && n < 256; nm += strlen(nm) + 1)
		sorted[n++] = nm;
	for (a = 1; a < n; a++)
		for (b = a; b > 0 && strcmp(sorted[b - 1], sorted[b]) > 0; b--) {
			nm = sorted[b];
			sorted[b] = sorted[b - 1];
			sorted[b - 1] = nm;
		}
	for (a = 0; a < n; a++) {
		vl = lgetxattr(p, sorted[a], val, sizeof(val));
		if (vl < 0) {
			fprintf(stderr, "ul-tree: getxattr %s %s: %s\n", p,
				sorted[a], strerror(errno));
			status = 1;
			continue;
		}
		for (i = 0; i < vl && val[i] >= 0x20 && val[i] < 0x7f; i++)
			;
		printf("  xattr %s=", sorted[a]);
		if (i == vl) {
			printf("%.*s\n", (int)vl, val);
		} else {
			printf("0x");
			for (i = 0; i < vl; i++)
				printf("%02x", (unsigned char)val[i]);
			printf("\n");
		}
	}
}

static void show(const char *top, const char *rel)
{
	const char *n = rel + 2;	/* without "./" */
	char p[2 * PATH_MAX + 2], o[64], mode[11], buf[PATH_MAX];
	struct stat st;
	ssize_t len;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if (lstat(p, &st)) {
		fprintf(stderr, "ul-tree: %s: %s\n", p, strerror(errno));
		status = 1;
		return;
	}
	mode_string(st.st_mode, mode);
	snprintf(o, sizeof(o), "%s %u:%u", mode, st.st_uid, st.st_gid);
	switch (st.st_mode & S_IFMT) {
	case S_IFLNK:
		len = readlink(p, buf, sizeof(buf) - 1);
		buf[len < 0 ? 0 : len] = '\0';
		printf("%s: symlink -> %s (%s)\n", n, buf, o);
		break;
	case S_IFDIR:
		len = getxattr(p, "trusted.overlay.opaque", buf, sizeof(buf) - 1);
		buf[len < 0 ? 0 : len] = '\0';
		printf("%s: dir (%s)%s%s", n, o, len > 0 ? " opaque=" : "", buf);
		len = getxattr(p, "trusted.overlay.redirect", buf,
			       sizeof(buf) - 1);
		buf[len < 0 ? 0 : len] = '\0';
		printf("%s%s\n", len > 0 ? " redirect=" : "", buf);
		break;
	case S_IFCHR:
		if (!major(st.st_rdev) && !minor(st.st_rdev))
			printf("%s: WHITEOUT\n", n);
		else
			printf("%s: chardev %x:%x (%s)\n", n, major(st.st_rdev),
			       minor(st.st_rdev), o);
		break;
	case S_IFBLK:
		printf("%s: blockdev %x:%x (%s)\n", n, major(st.st_rdev),
		       minor(st.st_rdev), o);
		break;
	case S_IFIFO:
		printf("%s: fifo (%s)\n", n, o);
		break;
	case S_IFREG:
		if (hashed) {
			printf("%s: file (%s) size=%lld ", n, o, (long long)st.st_size);
			hash(p);
			printf("\n");
			break;
		}
		printf("%s: file (%s) size=%lld '", n, o, (long long)st.st_size);
		content(p);
		printf("'\n");
		break;
	default:
		printf("%s: socket (%s)\n", n, o);
		break;
	}
	if (all || hashed)
		show_more(p, &st);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc == 3 && (!strcmp(argv[1], "-a") || !strcmp(argv[1], "-x"))) {
		all = argv[1][1] == 'a';
		hashed = !all;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: ul-tree [-a|-x] DIR\n");
		return 2;
	}
	walk(argv[1], ".");
	qsort(paths, npaths, sizeof(*paths), bytewise);
	for (i = 0; i < npaths; i++)
		show(argv[1], paths[i]);
	return status;
}
