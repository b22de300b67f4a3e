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
 *     race PATH NPROC   stat PATH   write PATH TEXT
 *     fallocate PATH OFFSET LEN   fcntl-append PATH TEXT
 *     fcntl-noappend PATH   getflags PATH   setflags PATH +a|-a|+i|-i
 *     setflags PATH +A|-A|+S|-S   lsattr PATH
 *     setacl PATH access|default ACL|-   getacl PATH access|default
 *     removed-cwd DIR NAME   syncfs PATH   odirect PATH
 *     odirect-setfl PATH   odirect-follow PATH   lseek PATH
 *     chmod-signals PATH MODE   inos PATH   statx-attr PATH   fill PATH
 *     fsync PATH   write-sync PATH rwf|osync TEXT
 *
 * "as UID GID" drops every supplementary group, then sets the gid and
 * the uid. stat PATH (lstat): "mode=%06o uid=U gid=G", and " nlink=N"
 * for anything but a directory (a merged directory's count is not the
 * same on every union). write PATH TEXT writes at offset 0 without
 * O_TRUNC. fcntl-append opens PATH without O_APPEND, sets O_APPEND with
 * F_SETFL and writes TEXT; fcntl-noappend opens PATH with O_APPEND and
 * clears it with F_SETFL. getflags prints the append-only and immutable
 * inode flags ("flags=a-", "flags=-i", ...); setflags sets or clears one
 * (append-only, immutable, noatime or sync); lsattr prints those four
 * ("ai--", "--AS", ...).
 * setacl and getacl use the raw system.posix_acl_access and
 * system.posix_acl_default xattrs, written and printed in a short text
 * form: "u::rw-,u:1000:---,g::r--,g:100:r-x,m::r--,o::r--" (entries
 * sorted by tag, then id, as the kernel keeps them); "setacl PATH access
 * -" removes the xattr. removed-cwd DIR NAME: chdir to DIR, rmdir DIR,
 * then chmod, setxattr, readdir of "." and open and create NAME in it,
 * each reported on a line of its own.
 * fill PATH: creates PATH (0644) and writes zeros to it until a write
 * fails: "KIB ERRNO", the KiB written and the errno's name.
 * statx-attr PATH: the append-only and immutable bits of statx()'s
 * stx_attributes and stx_attributes_mask ("attr=-i mask=ai").
 * fsync PATH: open (read-only, so a directory too), fsync(). write-sync
 * PATH rwf TEXT: pwritev2() at offset 0 with RWF_DSYNC; write-sync PATH
 * osync TEXT: open with O_SYNC, pwrite() at offset 0.
 * lseek PATH: "end=E data=D", the offsets SEEK_END and SEEK_DATA give.
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
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/fs.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/uio.h>
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

/* The kernel's POSIX ACL xattr format (include/uapi/linux/posix_acl_xattr.h) */
#define UL_ACL_VERSION		0x0002
#define UL_ACL_USER_OBJ		0x01
#define UL_ACL_USER		0x02
#define UL_ACL_GROUP_OBJ	0x04
#define UL_ACL_GROUP		0x08
#define UL_ACL_MASK		0x10
#define UL_ACL_OTHER		0x20
#define UL_ACL_UNDEFINED_ID	((uint32_t)-1)
#define UL_ACL_MAX		64

struct ul_acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};

static const char *acl_xattr(const char *type)
{
	if (!strcmp(type, "access"))
		return "system.posix_acl_access";
	if (!strcmp(type, "default"))
		return "system.posix_acl_default";
	return NULL;
}

static int cmp_acl(const void *a, const void *b)
{
	const struct ul_acl_entry *x = a, *y = b;

	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return 0;
}

/* One entry of the text form ("u:1000:r-x"), or -1 */
static int parse_acl_entry(char *s, struct ul_acl_entry *e)
{
	char *id, *perm;
	int i;

	id = strchr(s, ':');
	if (!id)
		return -1;
	*id++ = '\0';
	perm = strchr(id, ':');
	if (!perm || strlen(perm + 1) != 3)
		return -1;
	*perm++ = '\0';
	if (!strcmp(s, "u"))
		e->tag = *id ? UL_ACL_USER : UL_ACL_USER_OBJ;
	else if (!strcmp(s, "g"))
		e->tag = *id ? UL_ACL_GROUP : UL_ACL_GROUP_OBJ;
	else if (!strcmp(s, "m") && !*id)
		e->tag = UL_ACL_MASK;
	else if (!strcmp(s, "o") && !*id)
		e->tag = UL_ACL_OTHER;
	else
		return -1;
	e->id = *id ? (uint32_t)strtoul(id, NULL, 10) : UL_ACL_UNDEFINED_ID;
	e->perm = 0;
	for (i = 0; i < 3; i++) {
		if (perm[i] == "rwx"[i])
			e->perm |= 4 >> i;
		else if (perm[i] != '-')
			return -1;
	}
	return 0;
}

static int set_acl(const char *path, const char *type, const char *text)
{
	struct ul_acl_entry acl[UL_ACL_MAX];
	unsigned char buf[4 + UL_ACL_MAX * 8], *p = buf;
	const char *name = acl_xattr(type);
	char *copy, *tok, *save;
	uint32_t v;
	uint16_t h;
	int n = 0, i;

	if (!name)
		return usage();
	if (!strcmp(text, "-"))
		return report(lremovexattr(path, name));
	copy = strdup(text);
	if (!copy)
		return 1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == UL_ACL_MAX || parse_acl_entry(tok, &acl[n++])) {
			free(copy);
			return usage();
		}
	}
	free(copy);
	qsort(acl, n, sizeof(*acl), cmp_acl);
	v = htole32(UL_ACL_VERSION);
	memcpy(p, &v, 4);
	p += 4;
	for (i = 0; i < n; i++) {
		h = htole16(acl[i].tag);
		memcpy(p, &h, 2);
		h = htole16(acl[i].perm);
		memcpy(p + 2, &h, 2);
		v = htole32(acl[i].id);
		memcpy(p + 4, &v, 4);
		p += 8;
	}
	return report(lsetxattr(path, name, buf, p - buf, 0));
}

static int get_acl(const char *path, const char *type)
{
	const char *name = acl_xattr(type);
	unsigned char buf[4 + UL_ACL_MAX * 8];
	uint32_t v, id;
	uint16_t tag, perm;
	ssize_t len, off;
	int i;

	if (!name)
		return usage();
	len = lgetxattr(path, name, buf, sizeof(buf));
	if (len < 0)
		return report(-1);
	memcpy(&v, buf, 4);
	if (len < 4 || (len - 4) % 8 || le32toh(v) != UL_ACL_VERSION) {
		printf("bad acl xattr (%zd bytes)\n", len);
		return 1;
	}
	for (off = 4; off < len; off += 8) {
		memcpy(&tag, buf + off, 2);
		memcpy(&perm, buf + off + 2, 2);
		memcpy(&id, buf + off + 4, 4);
		tag = le16toh(tag);
		perm = le16toh(perm);
		id = le32toh(id);
		printf("%s", off > 4 ? "," : "");
		switch (tag) {
		case UL_ACL_USER_OBJ:
			printf("u::");
			break;
		case UL_ACL_USER:
			printf("u:%u:", id);
			break;
		case UL_ACL_GROUP_OBJ:
			printf("g::");
			break;
		case UL_ACL_GROUP:
			printf("g:%u:", id);
			break;
		case UL_ACL_MASK:
			printf("m::");
			break;
		case UL_ACL_OTHER:
			printf("o::");
			break;
		default:
			printf("tag%#x:%u:", tag, id);
		}
		for (i = 0; i < 3; i++)
			putchar(perm & (4 >> i) ? "rwx"[i] : '-');
	}
	printf("\n");
	return 0;
}

static int stat_path(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return report(-1);
	printf("mode=%06o uid=%u gid=%u", (unsigned int)st.st_mode,
	       (unsigned int)st.st_uid, (unsigned int)st.st_gid);
	if (!S_ISDIR(st.st_mode))
		printf(" nlink=%u", (unsigned int)st.st_nlink);
	printf("\n");
	return 0;
}

/*
 * The inode flags of PATH, or -1 with the outcome reported.
 * FS_IOC_GETFLAGS and FS_IOC_SETFLAGS take an int, whatever their type says.
 */
static int read_flags(const char *path, int *flags)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return report(fd), -1;
	ret = ioctl(fd, FS_IOC_GETFLAGS, flags);
	close(fd);
	if (ret < 0)
		return report(ret), -1;
	return 0;
}

static int get_flags(const char *path)
{
	int flags;

	if (!read_flags(path, &flags))
		printf("flags=%c%c\n", flags & FS_APPEND_FL ? 'a' : '-',
		       flags & FS_IMMUTABLE_FL ? 'i' : '-');
	return 0;
}

/* lsattr PATH: "aiAS" with '-' for each flag not set */
static int ls_attr(const char *path)
{
	int flags;

	if (!read_flags(path, &flags))
		printf("%c%c%c%c\n", flags & FS_APPEND_FL ? 'a' : '-',
		       flags & FS_IMMUTABLE_FL ? 'i' : '-',
		       flags & FS_NOATIME_FL ? 'A' : '-',
		       flags & FS_SYNC_FL ? 'S' : '-');
	return 0;
}

static int set_flags(const char *path, const char *change)
{
	int fd, flags, bit, ret;

	if (strlen(change) != 2 || (change[0] != '+' && change[0] != '-'))
		return usage();
	if (change[1] == 'a')
		bit = FS_APPEND_FL;
	else if (change[1] == 'i')
		bit = FS_IMMUTABLE_FL;
	else if (change[1] == 'A')
		bit = FS_NOATIME_FL;
	else if (change[1] == 'S')
		bit = FS_SYNC_FL;
	else
		return usage();
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return report(fd);
	ret = ioctl(fd, FS_IOC_GETFLAGS, &flags);
	if (!ret) {
		if (change[0] == '+')
			flags |= bit;
		else
			flags &= ~bit;
		ret = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
	return report(ret);
}

/* open PATH with FLAGS, change its O_APPEND with F_SETFL, write TEXT */
static int fcntl_append(const char *path, int flags, int set,
			const char *text)
{
	int fd, fl, ret;

	fd = open(path, flags);
	if (fd < 0)
		return report(fd);
	fl = fcntl(fd, F_GETFL);
	ret = fl < 0 ? fl : fcntl(fd, F_SETFL, set ? fl | O_APPEND :
					      fl & ~O_APPEND);
	if (!ret && text && write(fd, text, strlen(text)) < 0)
		ret = -1;
	close(fd);
	return report(ret);
}

static void label(const char *what)
{
	printf("%s: ", what);
	fflush(stdout);
}

/*
 * chdir(DIR), rmdir(DIR), then what a process whose working directory
 * was removed can still try in it.
 */
static int removed_cwd(const char *dir, const char *name)
{
	struct dirent *de;
	size_t n = 0;
	int fd, old;
	DIR *d;

	/* DIR may be relative: removed from where it was named */
	old = open(".", O_RDONLY | O_DIRECTORY);
	if (old < 0 || chdir(dir))
		return report(-1);
	label("rmdir");
	report(unlinkat(old, dir, AT_REMOVEDIR));
	close(old);
	label("chmod .");
	report(chmod(".", 0700));
	label("setxattr .");
	report(lsetxattr(".", "user.x", "1", 1, 0));
	label("readdir .");
	d = opendir(".");
	if (!d) {
		report(-1);
	} else {
		errno = 0;
		while ((de = readdir(d)))
			n++;
		if (errno)
			report(-1);
		else
			printf("%zu entries\n", n);
		closedir(d);
	}
	label("open name");
	fd = open(name, O_RDONLY);
	if (fd >= 0)
		close(fd);
	report(fd);
	label("creat name");
	fd = open(name, O_CREAT | O_WRONLY, 0644);
	if (fd >= 0)
		close(fd);
	report(fd);
	return 0;
}

/*
 * The three inode numbers of PATH: st_ino and st_dev (stat), d_ino (its
 * entry in the parent's readdir) and i_ino (the number the kernel shows
 * in /proc/locks for a flock() on it). "inos: dev=D st_ino=S d_ino=N
 * i_ino=I".
 */
static int inos(const char *path)
{
	unsigned long long i_ino = 0, ino;
	char dir[4096], *name, line[256];
	unsigned int maj, min;
	struct dirent *de;
	struct stat st;
	ino_t d_ino = 0;
	FILE *locks;
	DIR *d;
	int fd;

	if (lstat(path, &st))
		return report(-1);
	snprintf(dir, sizeof(dir), "%s", path);
	name = strrchr(dir, '/');
	if (!name)
		return usage();
	*name++ = '\0';
	d = opendir(*dir ? dir : "/");
	if (!d)
		return report(-1);
	while ((de = readdir(d)))
		if (!strcmp(de->d_name, name))
			d_ino = de->d_ino;
	closedir(d);
	fd = open(path, O_RDONLY);
	if (fd < 0 || flock(fd, LOCK_SH))
		return report(-1);
	locks = fopen("/proc/locks", "r");
	while (locks && fgets(line, sizeof(line), locks))
		if (strstr(line, "FLOCK") &&
		    sscanf(strstr(line, "READ") ? strstr(line, "READ") + 4 : line,
			   " %*d %x:%x:%llu", &maj, &min, &ino) == 3 &&
		    makedev(maj, min) == st.st_dev)
			i_ino = ino;
	if (locks)
		fclose(locks);
	close(fd);
	printf("inos: dev=%llu st_ino=%llu d_ino=%llu i_ino=%llu\n",
	       (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
	       (unsigned long long)d_ino, i_ino);
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * chmod PATH with a timer signal (handled, not fatal) every millisecond:
 * a copy-up in its way must finish, not fail with EINTR.
 */
static int chmod_signals(const char *path, mode_t mode)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval on = { { 0, 1000 }, { 0, 1000 } }, off = { };
	int ret;

	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &on, NULL))
		return report(-1);
	ret = chmod(path, mode);
	setitimer(ITIMER_REAL, &off, NULL);
	return report(ret);
}

/* one write of LEN bytes at OFF from an aligned buffer: "w LEN@OFF: X" */
static void odirect_write(int fd, size_t len, off_t off)
{
	static char buf[8192] __attribute__((aligned(4096)));

	memset(buf, 'd', sizeof(buf));
	printf("w %zu@%lld: ", len, (long long)off);
	report(pwrite(fd, buf, len, off) == (ssize_t)len ? 0 : -1);
}

/* set or clear O_DIRECT with F_SETFL: "setfl +d: X" */
static void odirect_setfl(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	printf("setfl %cd: ", on ? '+' : '-');
	report(fcntl(fd, F_SETFL, on ? fl | O_DIRECT : fl & ~O_DIRECT));
}

/*
 * odirect-setfl PATH: O_DIRECT set and cleared with F_SETFL must reach
 * the writes: opened with O_DIRECT, an aligned write, O_DIRECT cleared,
 * an unaligned one; opened without, O_DIRECT set, an unaligned write
 * (EINVAL where the filesystem wants alignment) and an aligned one.
 */
static int odirect_fcntl(const char *path)
{
	int fd;

	fd = open(path, O_WRONLY | O_DIRECT);
	if (fd < 0)
		return report(fd);
	odirect_write(fd, 4096, 0);
	odirect_setfl(fd, 0);
	odirect_write(fd, 1, 1);
	close(fd);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return report(fd);
	odirect_setfl(fd, 1);
	odirect_write(fd, 1, 1);
	odirect_write(fd, 4096, 4096);
	close(fd);
	return 0;
}

/*
 * odirect-follow PATH: a descriptor opened read-only is given O_DIRECT
 * with F_SETFL and reads 4 KiB; then the file is opened for write (a
 * copy-up of a lower-only file) and the first descriptor reads again.
 */
static int odirect_follow(const char *path)
{
	static char buf[4096] __attribute__((aligned(4096)));
	int fd, wfd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return report(fd);
	odirect_setfl(fd, 1);
	printf("read: ");
	report(pread(fd, buf, sizeof(buf), 0) == sizeof(buf) ? 0 : -1);
	wfd = open(path, O_WRONLY);
	printf("open for write: ");
	report(wfd);
	if (wfd >= 0)
		close(wfd);
	printf("read again: ");
	report(pread(fd, buf, sizeof(buf), 0) == sizeof(buf) ? 0 : -1);
	close(fd);
	return 0;
}

/* read the first 4 KiB of PATH with O_DIRECT */
static int odirect_read(const char *path)
{
	void *buf;
	ssize_t len;
	int fd;

	if (posix_memalign(&buf, 4096, 4096))
		return 1;
	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0)
		return report(fd);
	len = read(fd, buf, 4096);
	close(fd);
	if (len < 0)
		return report(-1);
	printf("read %zd bytes, the first '%c'\n", len, *(char *)buf);
	free(buf);
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
	if (!strcmp(op, "inos") && argc == 2)
		return inos(argv[1]);
	if (!strcmp(op, "chmod-signals") && argc == 3)
		return chmod_signals(argv[1], strtol(argv[2], NULL, 8));
	if (!strcmp(op, "odirect") && argc == 2)
		return odirect_read(argv[1]);
	if (!strcmp(op, "odirect-setfl") && argc == 2)
		return odirect_fcntl(argv[1]);
	if (!strcmp(op, "odirect-follow") && argc == 2)
		return odirect_follow(argv[1]);
	if (!strcmp(op, "lseek") && argc == 2) {
		off_t end, data;

		fd = open(argv[1], O_RDONLY);
		if (fd < 0)
			return report(fd);
		end = lseek(fd, 0, SEEK_END);
		data = lseek(fd, 0, SEEK_DATA);
		close(fd);
		if (end < 0 || data < 0)
			return report(-1);
		printf("end=%lld data=%lld\n", (long long)end, (long long)data);
		return 0;
	}
	if (!strcmp(op, "fill") && argc == 2) {
		static char zeros[65536];
		unsigned long long kib = 0;

		fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return report(fd);
		while ((len = write(fd, zeros, sizeof(zeros))) > 0)
			kib += len / 1024;
		printf("%llu ", kib);
		report(-1);
		close(fd);
		return 0;
	}
	if (!strcmp(op, "statx-attr") && argc == 2) {
		struct statx stx;

		if (statx(AT_FDCWD, argv[1], AT_SYMLINK_NOFOLLOW,
			  STATX_BASIC_STATS, &stx))
			return report(-1);
		printf("attr=%c%c mask=%c%c\n",
		       stx.stx_attributes & STATX_ATTR_APPEND ? 'a' : '-',
		       stx.stx_attributes & STATX_ATTR_IMMUTABLE ? 'i' : '-',
		       stx.stx_attributes_mask & STATX_ATTR_APPEND ? 'a' : '-',
		       stx.stx_attributes_mask & STATX_ATTR_IMMUTABLE ? 'i' : '-');
		return 0;
	}
	if (!strcmp(op, "syncfs") && argc == 2) {
		fd = open(argv[1], O_RDONLY);
		if (fd < 0)
			return report(fd);
		len = syncfs(fd);
		close(fd);
		return report(len);
	}
	if (!strcmp(op, "fsync") && argc == 2) {
		fd = open(argv[1], O_RDONLY);
		if (fd < 0)
			return report(fd);
		len = fsync(fd);
		close(fd);
		return report(len);
	}
	if (!strcmp(op, "write-sync") && argc == 4) {
		struct iovec iov = { argv[3], strlen(argv[3]) };
		int osync = !strcmp(argv[2], "osync");

		if (!osync && strcmp(argv[2], "rwf"))
			return usage();
		fd = open(argv[1], O_WRONLY | (osync ? O_SYNC : 0));
		if (fd < 0)
			return report(fd);
		len = pwritev2(fd, &iov, 1, 0, osync ? 0 : RWF_DSYNC);
		close(fd);
		return report(len < 0 ? -1 : 0);
	}
	if (!strcmp(op, "race") && argc == 3)
		return race(argv[1], atoi(argv[2]));
	if (!strcmp(op, "stat") && argc == 2)
		return stat_path(argv[1]);
	if (!strcmp(op, "write") && argc == 3) {
		fd = open(argv[1], O_WRONLY);
		if (fd < 0)
			return report(fd);
		len = pwrite(fd, argv[2], strlen(argv[2]), 0);
		close(fd);
		return report(len < 0 ? -1 : 0);
	}
	if (!strcmp(op, "fallocate") && argc == 4) {
		int ret;

		fd = open(argv[1], O_WRONLY);
		if (fd < 0)
			return report(fd);
		ret = fallocate(fd, 0, atol(argv[2]), atol(argv[3]));
		close(fd);
		return report(ret);
	}
	if (!strcmp(op, "fcntl-append") && argc == 3)
		return fcntl_append(argv[1], O_WRONLY, 1, argv[2]);
	if (!strcmp(op, "fcntl-noappend") && argc == 2)
		return fcntl_append(argv[1], O_WRONLY | O_APPEND, 0, NULL);
	if (!strcmp(op, "getflags") && argc == 2)
		return get_flags(argv[1]);
	if (!strcmp(op, "setflags") && argc == 3)
		return set_flags(argv[1], argv[2]);
	if (!strcmp(op, "lsattr") && argc == 2)
		return ls_attr(argv[1]);
	if (!strcmp(op, "setacl") && argc == 4)
		return set_acl(argv[1], argv[2], argv[3]);
	if (!strcmp(op, "getacl") && argc == 3)
		return get_acl(argv[1], argv[2]);
	if (!strcmp(op, "removed-cwd") && argc == 3)
		return removed_cwd(argv[1], argv[2]);
	return usage();
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "as")) {
		if (setgroups(0, NULL) || setgid(atoi(argv[3])) ||
		    setuid(atoi(argv[2]))) {
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
