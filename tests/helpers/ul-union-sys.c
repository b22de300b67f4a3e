// SPDX-License-Identifier: GPL-2.0
/*
 * ul-union-sys: one system call (or a small fixed sequence) per run, with
 * the outcome printed as "ok" or the errno's name, for golden outputs.
 *
 *   ul-union-sys [as UID GID] OP ARGS...
 *
 * OP: open PATH r|w|rw|rt|wt|a   creat PATH MODE   mkdir PATH MODE
 *     mknod PATH c|b|p MAJ MIN MODE   rmdir PATH   unlink PATH
 *     link OLD NEW   symlink TARGET PATH   rename [-n|-x|-w] OLD NEW
 *     truncate PATH LEN   chmod PATH MODE   chown PATH UID GID
 *     utime PATH SECONDS   append PATH TEXT   cat PATH   mmap PATH
 *     setxattr PATH NAME VALUE   getxattr PATH NAME   removexattr PATH NAME
 *     listxattr PATH   readdir DIR   readdir-create DIR NAME
 *     race PATH NPROC
 *
 * readdir DIR: every telldir() position, then seekdir() back to every
 * seventh, then a second pass after rewinddir(): same names, same order,
 * no name twice, and the d_ino of "." and ".." equal to the st_ino of DIR
 * and DIR/.. ("entries=N seeks=S bad=B"). readdir-create DIR NAME: read
 * DIR to its end, create DIR/NAME through the same path, rewinddir(): the
 * second pass must list one more name, NAME among them.
 * Exit status 0 unless the usage is wrong (2) or a check failed (1).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

static int report(int ret)
{
	if (ret < 0) {
		const char *n = strerrorname_np(errno);

		if (n)
			printf("%s\n", n);
		else
			printf("errno %d\n", errno);
	} else {
		printf("ok\n");
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: ul-union-sys [as UID GID] OP ARGS...\n");
	return 2;
}

static int open_flags(const char *s)
{
	if (!strcmp(s, "r"))
		return O_RDONLY;
	if (!strcmp(s, "w"))
		return O_WRONLY;
	if (!strcmp(s, "rw"))
		return O_RDWR;
	if (!strcmp(s, "rt"))
		return O_RDONLY | O_TRUNC;
	if (!strcmp(s, "wt"))
		return O_WRONLY | O_TRUNC;
	if (!strcmp(s, "a"))
		return O_WRONLY | O_APPEND;
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * Read DIR several times: one pass with telldir() before each entry, a
 * check that every name comes once, then seekdir() to every 7th recorded
 * position (backwards) and a check that the same entry comes back.
 */
/* d_ino of "." or ".." against the st_ino of the directory it names */
static int dot_ino_differs(const char *dir, const struct dirent *de)
{
	char p[4096];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
	if (stat(p, &st))
		return 1;
	if (st.st_ino == de->d_ino)
		return 0;
	printf("%s: d_ino %llu, st_ino %llu\n", de->d_name,
	       (unsigned long long)de->d_ino, (unsigned long long)st.st_ino);
	return 1;
}

static size_t count_entries(DIR *d, const char *name, int *seen)
{
	struct dirent *de;
	size_t n = 0;

	*seen = 0;
	while ((de = readdir(d))) {
		n++;
		if (name && !strcmp(de->d_name, name))
			*seen = 1;
	}
	return n;
}

static int readdir_create(const char *path, const char *name)
{
	char p[4096];
	size_t before, after;
	int fd, seen;
	DIR *d = opendir(path);

	if (!d)
		return report(-1);
	before = count_entries(d, NULL, &seen);
	snprintf(p, sizeof(p), "%s/%s", path, name);
	fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0644);
	if (fd < 0)
		return report(fd);
	close(fd);
	rewinddir(d);
	after = count_entries(d, name, &seen);
	closedir(d);
	printf("after rewinddir: %s names, %s listed\n",
	       after == before + 1 ? "one more" : "NOT one more",
	       seen ? name : "NOT");
	return after == before + 1 && seen ? 0 : 1;
}

static int check_readdir(const char *path)
{
	long *pos = NULL;
	char **names = NULL;
	size_t n = 0, cap = 0, i, bad = 0, seeks = 0;
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d)
		return report(-1);
	for (;;) {
		long p = telldir(d);

		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			pos = realloc(pos, cap * sizeof(*pos));
			names = realloc(names, cap * sizeof(*names));
			if (!pos || !names)
				return 1;
		}
		pos[n] = p;
		names[n++] = strdup(de->d_name);
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			bad += dot_ino_differs(path, de);
	}
	if (errno)
		return report(-1);
	for (i = n; i-- > 0; ) {
		if (i % 7)
			continue;
		seekdir(d, pos[i]);
		de = readdir(d);
		seeks++;
		if (!de || strcmp(de->d_name, names[i]))
			bad++;
	}
	/* a second full pass after rewinddir() gives the same order */
	rewinddir(d);
	for (i = 0; (de = readdir(d)); i++)
		if (i >= n || strcmp(de->d_name, names[i]))
			bad++;
	if (i != n)
		bad++;
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 1; i < n; i++)
		if (!strcmp(names[i - 1], names[i]))
			bad++;
	printf("entries=%zu seeks=%zu bad=%zu\n", n, seeks, bad);
	return bad ? 1 : 0;
}

/* NPROC processes open PATH for writing at the same moment. */
static int race(const char *path, int nproc)
{
	int go[2], i, status, fails = 0;

	if (pipe(go))
		return 1;
	for (i = 0; i < nproc; i++) {
		if (fork() == 0) {
			char c;
			int fd;

			close(go[1]);
			if (read(go[0], &c, 1) != 0)
				_exit(3);
			fd = open(path, O_WRONLY | O_APPEND);
			if (fd < 0)
				_exit(1);
			close(fd);
			_exit(0);
		}
	}
	close(go[0]);
	close(go[1]);		/* EOF releases all of them at once */
	for (i = 0; i < nproc; i++) {
		wait(&status);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			fails++;
	}
	printf("race: %d opens, %d failed\n", nproc, fails);
	return 0;
}

static int do_op(int argc, char **argv)
{
	const char *op = argv[0];
	char buf[65536];
	ssize_t len;
	int fd;

	if (!strcmp(op, "open") && argc == 3) {
		int flags = open_flags(argv[2]);

		if (flags < 0)
			return usage();
		fd = open(argv[1], flags);
		if (fd >= 0)
			close(fd);
		return report(fd);
	}
	if (!strcmp(op, "creat") && argc == 3) {
		fd = open(argv[1], O_CREAT | O_EXCL | O_WRONLY,
			  strtol(argv[2], NULL, 8));
		if (fd >= 0)
			close(fd);
		return report(fd);
	}
	if (!strcmp(op, "mkdir") && argc == 3)
		return report(mkdir(argv[1], strtol(argv[2], NULL, 8)));
	if (!strcmp(op, "mknod") && argc == 6) {
		mode_t type = argv[2][0] == 'c' ? S_IFCHR :
			      argv[2][0] == 'b' ? S_IFBLK : S_IFIFO;

		return report(mknod(argv[1], type | strtol(argv[5], NULL, 8),
				    makedev(atoi(argv[3]), atoi(argv[4]))));
	}
	if (!strcmp(op, "readdir-create") && argc == 3)
		return readdir_create(argv[1], argv[2]);
	if (!strcmp(op, "rmdir") && argc == 2)
		return report(rmdir(argv[1]));
	if (!strcmp(op, "unlink") && argc == 2)
		return report(unlink(argv[1]));
	if (!strcmp(op, "link") && argc == 3)
		return report(link(argv[1], argv[2]));
	if (!strcmp(op, "symlink") && argc == 3)
		return report(symlink(argv[1], argv[2]));
	if (!strcmp(op, "rename") && (argc == 3 || argc == 4)) {
		unsigned int flags = 0;

		if (argc == 4) {
			if (!strcmp(argv[1], "-n"))
				flags = RENAME_NOREPLACE;
			else if (!strcmp(argv[1], "-x"))
				flags = RENAME_EXCHANGE;
			else if (!strcmp(argv[1], "-w"))
				flags = RENAME_WHITEOUT;
			else
				return usage();
		}
		return report(syscall(SYS_renameat2, AT_FDCWD, argv[argc - 2],
				       AT_FDCWD, argv[argc - 1], flags));
	}
	if (!strcmp(op, "truncate") && argc == 3)
		return report(truncate(argv[1], atol(argv[2])));
	if (!strcmp(op, "chmod") && argc == 3)
		return report(chmod(argv[1], strtol(argv[2], NULL, 8)));
	if (!strcmp(op, "chown") && argc == 4)
		return report(lchown(argv[1], atoi(argv[2]), atoi(argv[3])));
	if (!strcmp(op, "utime") && argc == 3) {
		struct timespec ts[2] = {
			{ .tv_sec = atol(argv[2]) }, { .tv_sec = atol(argv[2]) }
		};

		return report(utimensat(AT_FDCWD, argv[1], ts,
					AT_SYMLINK_NOFOLLOW));
	}
	if (!strcmp(op, "append") && argc == 3) {
		fd = open(argv[1], O_WRONLY | O_APPEND);
		if (fd < 0)
			return report(fd);
		len = write(fd, argv[2], strlen(argv[2]));
		close(fd);
		return report(len < 0 ? -1 : 0);
	}
	if (!strcmp(op, "cat") && argc == 2) {
		fd = open(argv[1], O_RDONLY);
		if (fd < 0)
			return report(fd);
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len < 0)
			return report(-1);
		buf[len] = '\0';
		printf("'%s'\n", buf);
		return 0;
	}
	if (!strcmp(op, "mmap") && argc == 2) {
		struct stat st;
		char *p;

		fd = open(argv[1], O_RDONLY);
		if (fd < 0 || fstat(fd, &st))
			return report(-1);
		p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		if (p == MAP_FAILED)
			return report(-1);
		printf("mmap: '%.*s'\n", (int)st.st_size, p);
		munmap(p, st.st_size);
		return 0;
	}
	if (!strcmp(op, "setxattr") && argc == 4)
		return report(lsetxattr(argv[1], argv[2], argv[3],
					strlen(argv[3]), 0));
	if (!strcmp(op, "getxattr") && argc == 3) {
		len = lgetxattr(argv[1], argv[2], buf, sizeof(buf) - 1);
		if (len < 0)
			return report(-1);
		printf("'%.*s'\n", (int)len, buf);
		return 0;
	}
	if (!strcmp(op, "removexattr") && argc == 3)
		return report(lremovexattr(argv[1], argv[2]));
	if (!strcmp(op, "listxattr") && argc == 2) {
		char *names[256], *s;
		int n = 0, i;

		len = llistxattr(argv[1], buf, sizeof(buf));
		if (len < 0)
			return report(-1);
		for (s = buf; s < buf + len && n < 256; s += strlen(s) + 1)
			names[n++] = s;
		qsort(names, n, sizeof(*names), cmp_str);
		printf("[");
		for (i = 0; i < n; i++)
			printf("%s%s", i ? " " : "", names[i]);
		printf("]\n");
		return 0;
	}
	if (!strcmp(op, "readdir") && argc == 2)
		return check_readdir(argv[1]);
	if (!strcmp(op, "race") && argc == 3)
		return race(argv[1], atoi(argv[2]));
	return usage();
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "as")) {
		gid_t gid = atoi(argv[3]);

		if (setgroups(1, &gid) || setgid(gid) || setuid(atoi(argv[2]))) {
			perror("ul-union-sys: as");
			return 1;
		}
		argc -= 3;
		argv += 3;
	}
	if (argc < 2)
		return usage();
	return do_op(argc - 1, argv + 1);
}
