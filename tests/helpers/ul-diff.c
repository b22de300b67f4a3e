// SPDX-License-Identifier: GPL-2.0
/*
 * ul-diff: seeded random differential testing of two unions over the
 * same lower layer (kernel overlayfs as the oracle, unionlite as the
 * subject).
 *
 *   ul-diff lower DIR SEED
 *   ul-diff flags DIR SEED
 *   ul-diff unflag DIR
 *   ul-diff run [-x] [-n PHASE] A B SEED OPS [CHECK]
 *   ul-diff cmp A B LABEL
 *   ul-diff cmp [-x] [-o] -u A B LABEL [LOWER]
 *   ul-diff replay A B FILE
 *   ul-diff min [-x] DIR SEED FILE [LOWER VIEW]
 *
 * "lower" fills DIR (before any union is mounted on it) with a tree made
 * from SEED: directories up to three deep, files of several sizes,
 * symlinks, hard links, fifos, user.* xattrs, modes and owners (uid 0,
 * 1000, 1001), a setgid and a sticky directory, long names and names
 * with odd bytes.
 *
 * "flags" gives files and directories of the tree at DIR inode flags
 * from SEED (after the tree is complete): noatime (A), sync (S) or both
 * to one in four, append-only (a) and immutable (i) to a few. "unflag"
 * clears a and i in the tree at DIR, so that rm -rf can remove it.
 *
 * "run" applies the same OPS random operations (from SEED) to the union
 * mounted at A and to the one mounted at B, each operation first on A,
 * then on B, by root or, in a child with setresuid/setresgid, by uid 1000
 * or 1001 (no supplementary groups). Paths are drawn from what A holds
 * (its last walk and what the operations made since), new names in its
 * directories, and random paths. After each operation the results must
 * match: the return value (0/-1, a byte count, or an operation's own
 * summary) and errno. Every CHECK operations (default 50) and at the end
 * both trees are walked and must match: names, types, mode, owner, size,
 * device numbers, the content's hash, symlink targets, user.* xattrs and
 * POSIX ACLs, the inode flags a, i, A and S of files and directories
 * (FS_IOC_GETFLAGS), a non-directory's link count, readdir against
 * lookup (the names readdir lists and lookup cannot find, counted in
 * both), which paths are one object (the same (st_dev, st_ino)), and,
 * in B, readdir's d_ino against st_ino.
 *
 * With -x, run draws two more kinds of operation (each as often as two
 * of the others), so that a seed without -x runs what it always ran:
 * "chattr" sets or clears one of a, i, A and S on P (FS_IOC_SETFLAGS;
 * a and i rarely set, and only root may change them) and returns the
 * flags read back; "move-in" makes P a directory ("mvN", no other
 * operation makes such names, so mostly a directory of the upper layer
 * alone), moves the file Q into it (copied up on the way), lists P,
 * takes the file out again (unlinked or moved back) and lists P again,
 * and returns what both listings counted, with the names whose d_ino is
 * not their st_ino. -n PHASE draws another sequence from the same SEED
 * (tests/lib/diff.sh: the operations after a change of the layers) and
 * names the phase in the seed's line.
 *
 * "cmp" walks two trees and compares them in the same way, once; with
 * -u the trees are upper layers (compared raw), and trusted.overlay.*
 * xattrs but impure count too, and a whiteout is only a whiteout; the
 * impure mark counts on a directory that holds an object with a
 * non-empty origin, whose d_ino overlayfs's readdir finds through it;
 * given
 * the LOWER layer, the intended differences of docs/overlayfs.md that
 * show in an upper are counted apart (an opaque mark that hides
 * nothing). With -x (and LOWER), an impure mark that nothing can need
 * counts after all: on an upper directory that holds nothing, has no
 * origin, and has no lower directory under it (or is opaque), overlayfs
 * drops the mark at the first listing, and run's last walk lists every
 * directory. With -o the two uppers are over different lower layers
 * (each union's old upper, rotated to a lower layer): an origin then
 * counts as there or not, not by its file handle. It prints "cmp
 * LABEL: N objects, M mismatches".
 *
 * "replay" runs the operations listed in FILE ("-": standard input; one
 * "UID KIND 'P' 'Q' ARG" line each, or run's replay lines, where "walk"
 * marks where run compared the trees) on A and B, prints each one's
 * results and compares the trees at each walk and at the end.
 *
 * "min" shrinks a diverging run (its replay lines in FILE, up to the
 * first mismatch) by delta debugging: each trial makes SEED's lower tree
 * and fresh uppers in DIR, mounts overlayfs at /mnt/ma and unionlite at
 * /mnt/mb, runs a subset and compares results and trees, then, unmounted,
 * the two upper layers. Given LOWER (a lowerdir= value: layers no union
 * changes, so every trial reuses them) and VIEW (their merged view, for
 * the intended differences of the upper compare), no tree is made. The
 * shortest diverging list is printed as a script for ul_diff_case
 * (tests/lib/diff.sh), the form of the cases in tests/diff-cases; with
 * LOWER, ul_diff_case rebuilds the layers as ul_diff_layers does. With
 * -x (a run with -x), each trial's tree gets the inode flags of "flags"
 * and the uppers' compare is that of cmp -x, and the script asks
 * ul_diff_case for them ("flags"). Only a run from fresh layers can be
 * minimized, not one after a change of the layers. Both unions get the
 * mount options in the environment variable DIFF_OPTS, if set (as
 * tests/lib/diff.sh mounts them).
 *
 * Output (standard output, deterministic for a given SEED and behaviour):
 *
 *   seed S: N operations (K succeeded on A), M mismatches
 *   seed S, phase P: N operations (K succeeded on A), M mismatches (-n P)
 *
 * followed, on a mismatch, by one line per mismatch (at most 20), e.g.
 *
 *   op 17 (uid 1000): rename d0/a d1/b 0: A=0 B=EXDEV
 *   walk after op 50: d0/a: mode A=100644 B=100600
 *
 * and the operations up to the first mismatch as a shell script on
 * standard error ("# replay" lines). Exit status: 0 no mismatch, 1
 * mismatches, 2 usage or setup error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MAX_MISMATCH	20
#define MAX_OBJS	4096
#define MAX_POOL	1024

/* ---- the random source: splitmix64, the same on every machine ---- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int pick(unsigned int n)
{
	return rnd() % n;
}

/* ---- names ---- */

static const char *const names[] = {
	"a", "b", "c", "d0", "d1", "d2", "sub", "x y", "n\xc3\xa9",
	"-dash", ".hid", "f", "g", "L",
};

#define NR_NAMES (sizeof(names) / sizeof(names[0]))

/* a random relative path of 1 to 3 components, mostly short */
static void rpath(char *buf, size_t size)
{
	unsigned int r = pick(10), depth = r < 4 ? 1 : r < 8 ? 2 : 3, i;
	size_t n = 0;

	buf[0] = 0;
	for (i = 0; i < depth; i++) {
		const char *c = names[pick(NR_NAMES)];

		if (pick(40) == 0 && i == depth - 1) {
			/* a long name now and then */
			n += snprintf(buf + n, size - n, "%slong%0200d", i ? "/" : "", (int)pick(3));
			continue;
		}
		n += snprintf(buf + n, size - n, "%s%s", i ? "/" : "", c);
	}
}

/* ---- lower ---- */

static int at(const char *top, const char *rel, char *buf)
{
	return snprintf(buf, PATH_MAX, "%s/%s", top, rel) >= PATH_MAX ? -1 : 0;
}

static void write_file(const char *p, size_t len, int fill)
{
	char buf[4096];
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOFOLLOW, 0644);
	size_t n;

	if (fd < 0)
		return;
	memset(buf, 'a' + fill % 26, sizeof(buf));
	while (len) {
		n = len < sizeof(buf) ? len : sizeof(buf);
		if (write(fd, buf, n) != (ssize_t)n)
			break;
		len -= n;
	}
	close(fd);
}

static int make_lower(const char *top, uint64_t seed)
{
	static const unsigned int owners[] = { 0, 1000, 1001 };
	char rel[PATH_MAX], p[PATH_MAX], q[PATH_MAX];
	int i;

	rng = seed;
	for (i = 0; i < 160; i++) {
		char *slash;

		rpath(rel, sizeof(rel));
		if (at(top, rel, p))
			continue;
		/* parents as directories */
		for (slash = strchr(p + strlen(top) + 1, '/'); slash;
		     slash = strchr(slash + 1, '/')) {
			*slash = 0;
			mkdir(p, 0755);
			*slash = '/';
		}
		switch (pick(7)) {
		case 0:
		case 1:
			mkdir(p, pick(2) ? 0755 : 0775);
			break;
		case 2:
			write_file(p, pick(4) ? pick(300) : 70000 + pick(5000), i);
			break;
		/* a failed step (the name taken, a parent not a directory)
		 * leaves that object out
		 */
		case 3:
			symlink(names[pick(NR_NAMES)], p);
			break;
		case 4:
			mkfifo(p, 0644);
			break;
		default:
			write_file(p, pick(100), i);
			rpath(rel, sizeof(rel));
			if (!at(top, rel, q))
				link(p, q);
			break;
		}
		if (pick(3) == 0)
			lchown(p, owners[pick(3)], owners[pick(3)]);
		if (pick(4) == 0)
			lsetxattr(p, "user.k", names[pick(NR_NAMES)], 1 + pick(3), 0);
		if (pick(6) == 0)
			chmod(p, (pick(2) ? 02775 : 01777) & 07777);
	}
	return 0;
}

/* ---- operations ---- */

enum { OP_CREAT, OP_TRUNC_OPEN, OP_APPEND, OP_TRUNCATE, OP_MKDIR, OP_RMDIR,
	OP_UNLINK, OP_RENAME, OP_LINK, OP_SYMLINK, OP_MKFIFO, OP_CHMOD,
	OP_CHOWN, OP_UTIMES, OP_SETX, OP_REMOVEX, OP_READ, OP_FALLOCATE,
	OP_ACL, OP_FCNTL, OP_FD_RENAME, OP_CWD_RMDIR, OP_READDIR_MOD, NR_OPS,
	/* not drawn: where run walked both trees, for replay and min */
	OP_WALK = NR_OPS,
	/* drawn with -x only, so that a seed without it runs as before */
	OP_CHATTR, OP_MOVE_IN, NR_KINDS };

/* with -x, each kind after walk is drawn as often as two of the others */
#define NR_EXTRA	(NR_OPS + 2 * (NR_KINDS - OP_WALK - 1))

static const char *const op_names[NR_KINDS] = {
	"creat", "open-trunc", "append", "truncate", "mkdir", "rmdir",
	"unlink", "rename", "link", "symlink", "mkfifo", "chmod", "chown",
	"utimes", "setxattr", "removexattr", "read", "fallocate", "acl",
	"fcntl", "fd-rename", "cwd-rmdir", "readdir-mod", "walk", "chattr",
	"move-in",
};

/* -x: draw chattr and move-in too, give lower trees inode flags */
static int extra;

struct op {
	int kind;
	unsigned int uid;
	unsigned int arg;	/* mode, length, flags... */
	char p[PATH_MAX], q[PATH_MAX];
	unsigned long no;	/* its number in the run (replay lines) */
};

/* the result of one operation: return value and errno, and a hash of
 * what it read
 */
struct res {
	long ret;
	int err;
	uint64_t hash;
};

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *c = data;

	while (len--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

/*
 * The paths A holds: refilled from every walk of A, added to when an
 * operation makes a name on A. Only A's results feed it, so a seed gives
 * the same operations whatever B does.
 */
static char (*pool)[PATH_MAX];
static unsigned char *pool_dir;
static int npool;

static void pool_add(const char *path, int dir)
{
	if (npool == MAX_POOL || !*path)
		return;
	snprintf(pool[npool], PATH_MAX, "%s", path);
	pool_dir[npool++] = dir;
}

/* a path for an operation: one A holds (1/2), a new name in one of A's
 * directories (1/4), or a random one (1/4)
 */
static void gen_path(char *buf, size_t size)
{
	unsigned int r = pick(4), i, tries;

	if (!npool || r == 3) {
		rpath(buf, size);
		return;
	}
	i = pick(npool);
	if (r < 2) {
		snprintf(buf, size, "%s", pool[i]);
		return;
	}
	for (tries = 0; !pool_dir[i] && tries < 4; tries++)
		i = pick(npool);
	if (pool_dir[i])
		snprintf(buf, size, "%s/%s", pool[i], names[pick(NR_NAMES)]);
	else
		snprintf(buf, size, "%s", names[pick(NR_NAMES)]);
}

/*
 * move-in's paths: P a name "mv0" to "mv2" (no other operation makes
 * them) in one of A's directories or the root, so that the first mkdir
 * makes a directory of the upper layer alone; Q a non-directory A holds,
 * mostly a lower file, which the move copies up
 */
static void gen_move_in(struct op *op)
{
	unsigned int i = 0, tries;
	size_t n = 0;

	if (npool && pick(3)) {
		for (i = pick(npool), tries = 0; !pool_dir[i] && tries < 8; tries++)
			i = pick(npool);
		if (pool_dir[i])
			n = snprintf(op->p, sizeof(op->p) - 8, "%s/", pool[i]);
	}
	snprintf(op->p + n, sizeof(op->p) - n, "mv%u", pick(3));
	for (tries = 0; npool && tries < 8; tries++) {
		i = pick(npool);
		if (!pool_dir[i]) {
			snprintf(op->q, sizeof(op->q), "%s", pool[i]);
			break;
		}
	}
}

static void gen_op(struct op *op)
{
	static const unsigned int uids[] = { 0, 0, 0, 1000, 1001 };

	op->kind = pick(extra ? NR_EXTRA : NR_OPS);
	/* the extra kinds come after walk */
	if (op->kind >= NR_OPS)
		op->kind = OP_WALK + 1 + (op->kind - NR_OPS) / 2;
	op->uid = uids[pick(5)];
	op->arg = rnd() & 0xffff;
	gen_path(op->p, sizeof(op->p));
	gen_path(op->q, sizeof(op->q));
	if (op->kind == OP_MOVE_IN)
		gen_move_in(op);
}

/* POSIX ACL xattrs in the kernel's format (uapi posix_acl_xattr.h) */
struct acl_entry {
	uint16_t tag, perm;
	uint32_t id;
};

static int set_acl(const char *p, const char *name, unsigned int arg)
{
	struct {
		uint32_t version;
		struct acl_entry e[5];
	} acl = { 2, {
		{ 0x01, 6, -1U },			/* user:: rw- */
		{ 0x02, arg & 7, 1000 },		/* user:1000: */
		{ 0x04, (arg >> 3) & 7, -1U },		/* group:: */
		{ 0x10, 7, -1U },			/* mask:: rwx */
		{ 0x20, (arg >> 6) & 5, -1U },		/* other:: */
	} };

	return lsetxattr(p, name, &acl, sizeof(acl), 0);
}

/*
 * readdir-mod: list P in two reads with a new entry made in between;
 * every entry there before must be listed exactly once. The result is
 * twice the number of those seen, plus 1 if one of the first 64 came
 * twice; whether the
 * new entry is listed is unspecified, so it is left out.
 */
static long readdir_mod(const char *p, unsigned int arg)
{
	char seen[64][NAME_MAX + 1], fresh[PATH_MAX];
	int nseen = 0, dup = 0, i, fd, reads = 0;
	struct dirent *de;
	DIR *d;

	d = opendir(p);
	if (!d)
		return -1;
	snprintf(fresh, sizeof(fresh), "zz%u", arg % 10);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, fresh))
			continue;
		for (i = 0; i < nseen && i < 64; i++)
			if (!strcmp(seen[i], de->d_name))
				dup = 1;
		if (nseen < 64)
			snprintf(seen[nseen], NAME_MAX + 1, "%s", de->d_name);
		nseen++;
		if (++reads == 2) {
			fd = openat(dirfd(d), fresh, O_WRONLY | O_CREAT | O_EXCL, 0600);
			if (fd >= 0)
				close(fd);
		}
	}
	closedir(d);
	return nseen * 2 + dup;
}

/*
 * cwd-rmdir (run in a child): make P the working directory, remove it,
 * then create "x" in it. -1 with errno when chdir or rmdir fails, else
 * 1 if the create succeeded, or 100 + its errno.
 */
static long cwd_rmdir(const char *p)
{
	int fd;

	if (chdir(p) || rmdir(p))
		return -1;
	fd = open("x", O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return 100 + errno;
}

/*
 * fd-rename: open P, rename it to Q, then write (arg odd: opened
 * read-write) or read (opened read-only) through the descriptor.
 */
static long fd_rename(const char *p, const char *q, unsigned int arg, uint64_t *hash)
{
	char buf[4096];
	long ret;
	int fd;

	fd = open(p, (arg & 1 ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	ret = rename(p, q);
	if (!ret && arg & 1) {
		ret = write(fd, "moved\n", 6);
	} else if (!ret) {
		ret = read(fd, buf, sizeof(buf));
		if (ret > 0)
			*hash = fnv(*hash, buf, ret);
	}
	close(fd);
	return ret;
}

/* the inode flags the tester knows: append-only, immutable, noatime, sync */
#define UL_FLAGS	(FS_APPEND_FL | FS_IMMUTABLE_FL | FS_NOATIME_FL | FS_SYNC_FL)

/* FS_IOC_GETFLAGS of @fd, the four flags only; -1 with errno */
static int get_flags(int fd)
{
	int flags;

	if (ioctl(fd, FS_IOC_GETFLAGS, &flags))
		return -1;
	return flags & UL_FLAGS;
}

/* @flags as lsattr shows them ("aiAS", '-' for a flag not set) */
static const char *flag_str(int flags, char *buf)
{
	if (flags < 0)
		return strcpy(buf, "none");
	buf[0] = flags & FS_APPEND_FL ? 'a' : '-';
	buf[1] = flags & FS_IMMUTABLE_FL ? 'i' : '-';
	buf[2] = flags & FS_NOATIME_FL ? 'A' : '-';
	buf[3] = flags & FS_SYNC_FL ? 'S' : '-';
	buf[4] = 0;
	return buf;
}

/*
 * chattr: set or clear one inode flag of P (FS_IOC_GETFLAGS, then
 * FS_IOC_SETFLAGS), then read the flags back. Noatime or sync in three
 * of four; else append-only or immutable (CAP_LINUX_IMMUTABLE), set in
 * one of three only: they block most later operations on P. The result
 * is the four flags after it, 1 a, 2 i, 4 A, 8 S.
 */
static long chattr(const char *p, unsigned int arg)
{
	static const int which[] = {
		FS_NOATIME_FL, FS_SYNC_FL, FS_NOATIME_FL, FS_SYNC_FL,
		FS_NOATIME_FL, FS_SYNC_FL, FS_APPEND_FL, FS_IMMUTABLE_FL,
	};
	int bit = which[arg % 8], set = (arg >> 3) & 1, flags, fd;
	long ret = -1;

	if (bit & (FS_APPEND_FL | FS_IMMUTABLE_FL))
		set = (arg >> 3) % 3 == 0;
	fd = open(p, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	if (!ioctl(fd, FS_IOC_GETFLAGS, &flags)) {
		flags = set ? flags | bit : flags & ~bit;
		if (!ioctl(fd, FS_IOC_SETFLAGS, &flags)) {
			flags = get_flags(fd);
			if (flags >= 0)
				ret = (flags & FS_APPEND_FL ? 1 : 0) |
				      (flags & FS_IMMUTABLE_FL ? 2 : 0) |
				      (flags & FS_NOATIME_FL ? 4 : 0) |
				      (flags & FS_SYNC_FL ? 8 : 0);
		}
	}
	close(fd);
	return ret;
}

/* the names @p lists but "." and "..", those with a d_ino other than
 * their st_ino (or that lookup cannot find) added to *bad; -1 with errno
 */
static long list_dir(const char *p, int *bad)
{
	struct dirent *de;
	struct stat st;
	long n = 0;
	DIR *d;

	d = opendir(p);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    st.st_ino != de->d_ino)
			(*bad)++;
	}
	closedir(d);
	return n;
}

/*
 * move-in: make P a directory (one there already will do), move Q into
 * it (a lower file is copied up on the way), list P, take the moved
 * name out again (arg odd: unlink it; even: move it back to Q), list P
 * again. A directory of the upper layer alone gets the impure mark from
 * the move, and should lose it at the second listing when nothing else
 * there needs it. -1 with the errno of the first step that fails; else
 * 1000 times the names of the first listing, plus 10 times those of
 * the second, plus the names listed with a d_ino other than their
 * st_ino (at most 9).
 */
static long move_in(const char *p, const char *q, unsigned int arg)
{
	const char *base = strrchr(q, '/');
	char m[PATH_MAX];
	long n1, n2;
	struct stat st;
	int bad = 0;

	if (mkdir(p, 0755)) {
		if (errno != EEXIST)
			return -1;
		if (lstat(p, &st) || !S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			return -1;
		}
	}
	if (snprintf(m, sizeof(m), "%s/%s", p, base ? base + 1 : q) >= (int)sizeof(m)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (rename(q, m))
		return -1;
	n1 = list_dir(p, &bad);
	if (n1 < 0)
		return -1;
	if (arg & 1 ? unlink(m) : rename(m, q))
		return -1;
	n2 = list_dir(p, &bad);
	if (n2 < 0)
		return -1;
	return 1000 * n1 + 10 * n2 + (bad > 9 ? 9 : bad);
}

/* fcntl: set O_APPEND/O_NOATIME/O_DIRECT by F_SETFL, then the flags kept */
static long fcntl_flags(const char *p, unsigned int arg)
{
	int want = (arg & 1 ? O_APPEND : 0) | (arg & 2 ? O_NOATIME : 0) |
		   (arg & 4 ? O_DIRECT : 0);
	long ret;
	int fd;

	fd = open(p, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	ret = fcntl(fd, F_SETFL, want);
	if (!ret)
		ret = fcntl(fd, F_GETFL) & (O_APPEND | O_NOATIME | O_DIRECT);
	close(fd);
	return ret;
}

static long do_op(const char *top, const struct op *op, uint64_t *hash)
{
	static const int fa_modes[] = {
		0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
	};
	char p[PATH_MAX], q[PATH_MAX], buf[4096];
	struct timeval tv[2];
	long ret = -1;
	ssize_t n;
	int fd;

	if (at(top, op->p, p) || at(top, op->q, q)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	switch (op->kind) {
	case OP_CREAT:
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600 | (op->arg & 0177));
		if (fd < 0)
			return -1;
		ret = write(fd, "new\n", 4);
		close(fd);
		return ret;
	case OP_TRUNC_OPEN:
		fd = open(p, O_WRONLY | O_TRUNC | O_NONBLOCK);
		if (fd < 0)
			return -1;
		ret = write(fd, buf, op->arg % 100);
		close(fd);
		return ret;
	case OP_APPEND:
		fd = open(p, O_WRONLY | O_APPEND | O_NONBLOCK);
		if (fd < 0)
			return -1;
		memset(buf, 'z', sizeof(buf));
		ret = write(fd, buf, 1 + op->arg % 50);
		close(fd);
		return ret;
	case OP_TRUNCATE:
		return truncate(p, op->arg % 5000);
	case OP_MKDIR:
		return mkdir(p, 0700 | (op->arg & 02077));
	case OP_RMDIR:
		return rmdir(p);
	case OP_UNLINK:
		return unlink(p);
	case OP_RENAME:
		switch (op->arg % 7) {
		case 0:
		case 1:
			return rename(p, q);
		case 2:
		case 3:
			return renameat2(AT_FDCWD, p, AT_FDCWD, q, RENAME_NOREPLACE);
		case 4:
		case 5:
			return renameat2(AT_FDCWD, p, AT_FDCWD, q, RENAME_EXCHANGE);
		default:
			/* neither union takes it from a caller */
			return renameat2(AT_FDCWD, p, AT_FDCWD, q, RENAME_WHITEOUT);
		}
	case OP_LINK:
		return link(p, q);
	case OP_SYMLINK:
		return symlink(op->q, p);
	case OP_MKFIFO:
		return mkfifo(p, 0600 | (op->arg & 066));
	case OP_CHMOD:
		return chmod(p, op->arg & 07777);
	case OP_CHOWN:
		return lchown(p, op->arg & 1 ? 1000 : 1001, op->arg & 2 ? 1000 : 1001);
	case OP_UTIMES:
		tv[0].tv_sec = 1000000000 + op->arg;
		tv[0].tv_usec = 0;
		tv[1] = tv[0];
		return lutimes(p, tv);
	case OP_SETX:
		return lsetxattr(p, op->arg & 1 ? "user.k" : "user.m", "vv", 1 + (op->arg & 1), 0);
	case OP_REMOVEX:
		return lremovexattr(p, op->arg & 1 ? "user.k" : "user.m");
	case OP_READ:
		fd = open(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
		if (fd < 0)
			return -1;
		ret = 0;
		while ((n = read(fd, buf, sizeof(buf))) > 0) {
			*hash = fnv(*hash, buf, n);
			ret += n;
		}
		if (n < 0)
			ret = -1;
		close(fd);
		return ret;
	case OP_FALLOCATE:
		fd = open(p, O_WRONLY | O_NONBLOCK | O_NOFOLLOW);
		if (fd < 0)
			return -1;
		ret = fallocate(fd, fa_modes[op->arg % 3], op->arg % 8192,
				1 + (op->arg >> 2) % 20000);
		close(fd);
		return ret;
	case OP_ACL:
		switch (op->arg % 3) {
		case 0:
			return set_acl(p, "system.posix_acl_access", op->arg >> 2);
		case 1:
			return set_acl(p, "system.posix_acl_default", op->arg >> 2);
		default:
			return lremovexattr(p, op->arg & 4 ? "system.posix_acl_access" :
					    "system.posix_acl_default");
		}
	case OP_FCNTL:
		return fcntl_flags(p, op->arg);
	case OP_FD_RENAME:
		return fd_rename(p, q, op->arg, hash);
	case OP_CWD_RMDIR:
		return cwd_rmdir(p);
	case OP_READDIR_MOD:
		return readdir_mod(p, op->arg);
	case OP_CHATTR:
		return chattr(p, op->arg);
	case OP_MOVE_IN:
		return move_in(p, q, op->arg);
	}
	errno = EINVAL;
	return -1;
}

/*
 * Run @op on @top as op->uid; the result in *r. Users' operations, and
 * any that changes the working directory, run in a child.
 */
static void run_op(const char *top, const struct op *op, struct res *r)
{
	int pfd[2], status;
	pid_t pid;

	r->hash = 0xcbf29ce484222325ULL;
	if (!op->uid && op->kind != OP_CWD_RMDIR) {
		errno = 0;
		r->ret = do_op(top, op, &r->hash);
		r->err = r->ret < 0 ? errno : 0;
		return;
	}
	if (pipe(pfd))
		exit(2);
	pid = fork();
	if (pid < 0)
		exit(2);
	if (!pid) {
		close(pfd[0]);
		if (op->uid && (setgroups(0, NULL) ||
				setresgid(op->uid, op->uid, op->uid) ||
				setresuid(op->uid, op->uid, op->uid)))
			_exit(3);
		errno = 0;
		r->ret = do_op(top, op, &r->hash);
		r->err = r->ret < 0 ? errno : 0;
		if (write(pfd[1], r, sizeof(*r)) != sizeof(*r))
			_exit(3);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], r, sizeof(*r)) != sizeof(*r) ||
	    waitpid(pid, &status, 0) != pid || status) {
		fprintf(stderr, "ul-diff: child for uid %u failed\n", op->uid);
		exit(2);
	}
	close(pfd[0]);
}

/* what a successful operation on A made: its names join the pool */
static void pool_note(const struct op *op)
{
	switch (op->kind) {
	case OP_CREAT:
	case OP_SYMLINK:
	case OP_MKFIFO:
		pool_add(op->p, 0);
		break;
	case OP_MKDIR:
	case OP_MOVE_IN:
		pool_add(op->p, 1);
		break;
	case OP_LINK:
	case OP_RENAME:
	case OP_FD_RENAME:
		pool_add(op->q, 0);
		break;
	}
}

/* ---- the walk ---- */

struct obj {
	char path[PATH_MAX];
	struct stat st;
	uint64_t hash;		/* the content */
	char xattrs[512];	/* "name=hash " for each xattr that counts */
	char target[PATH_MAX];
	int same;		/* index of the first object with its (st_dev, st_ino) */
	int flags;		/* of a file or directory, UL_FLAGS only; -1: none */
	int impure;		/* an upper directory with trusted.overlay.impure */
	int copies;		/* it holds an object with a non-empty origin */
	int below;		/* how many objects a directory holds, all levels */
};

struct tree {
	struct obj *objs;
	int n;
	int overflow;
	int readdir_mismatch;
	int d_ino_mismatch;
	char d_ino_first[PATH_MAX + 64];	/* the first with d_ino != st_ino */
};

/* the walk of an upper layer: trusted.overlay.* xattrs count too */
static int walk_upper;
/* B's d_ino must equal st_ino (unionlite's promise; not overlayfs's) */
static int d_ino_check = 1;
/* cmp -x -u: an impure mark nothing can need must be on both or neither */
static int impure_check;
/* cmp -o -u: the uppers are over different lower layers (each its own
 * old upper), so an origin, a handle of an object there, only counts as
 * being there or not
 */
static int origin_any;

static int cmp_obj(const void *a, const void *b)
{
	return strcmp(((const struct obj *)a)->path, ((const struct obj *)b)->path);
}

static int xattr_counts(const char *name)
{
	/*
	 * trusted.overlay.impure is a hint for readdir that overlayfs sets
	 * at every copy-up and drops when a listing finds it unneeded: it
	 * depends on what was listed when
	 */
	return !strncmp(name, "user.", 5) ||
	       !strncmp(name, "system.posix_acl_", 17) ||
	       (walk_upper && !strncmp(name, "trusted.overlay.", 16) &&
		strcmp(name, "trusted.overlay.impure"));
}

/* the xattrs of @p that count, sorted, as "name=hash " into @out */
static void xattr_list(const char *p, char *out, size_t size)
{
	char list[4096], val[512];
	ssize_t len, vlen;
	char *name, *sorted[64];
	size_t o = 0;
	int n = 0, i, j;

	*out = 0;
	len = llistxattr(p, list, sizeof(list));
	if (len <= 0)
		return;
	for (name = list; name < list + len && n < 64; name += strlen(name) + 1)
		if (xattr_counts(name))
			sorted[n++] = name;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(sorted[j - 1], sorted[j]) > 0; j--) {
			char *t = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	for (i = 0; i < n && o < size; i++) {
		vlen = lgetxattr(p, sorted[i], val, sizeof(val));
		if (origin_any && !strcmp(sorted[i], "trusted.overlay.origin"))
			vlen = 0;
		o += snprintf(out + o, size - o, "%s=%04x ", sorted[i],
			      (unsigned int)(fnv(0xcbf29ce484222325ULL, val,
						 vlen > 0 ? vlen : 0) & 0xffff));
	}
}

/*
 * Walk directory @rel of @top into @t. Returns 1 when an object directly
 * in it has a non-empty trusted.overlay.origin (a copy whose number
 * overlayfs's readdir looks up through the directory's impure mark).
 */
static int walk(const char *top, const char *rel, struct tree *t)
{
	char p[PATH_MAX], r[PATH_MAX], buf[4096];
	struct dirent *de;
	int fd, copies = 0;
	struct obj *o;
	DIR *d;
	ssize_t n;

	if (at(top, rel, p))
		return 0;
	d = opendir(p);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(r, sizeof(r), "%s%s%s", rel, *rel ? "/" : "",
			     de->d_name) >= (int)sizeof(r) || at(top, r, p))
			continue;
		if (t->n == MAX_OBJS) {
			t->overflow = 1;
			break;
		}
		o = &t->objs[t->n];
		memset(o, 0, sizeof(*o));
		snprintf(o->path, sizeof(o->path), "%s", r);
		if (lstat(p, &o->st)) {
			/* listed but not found by lookup */
			t->readdir_mismatch++;
			continue;
		}
		if (de->d_ino != o->st.st_ino && !t->d_ino_mismatch++)
			snprintf(t->d_ino_first, sizeof(t->d_ino_first), "%s (d_ino %llu, st_ino %llu)",
				 r, (unsigned long long)de->d_ino,
				 (unsigned long long)o->st.st_ino);
		t->n++;
		o->hash = 0xcbf29ce484222325ULL;
		o->flags = -1;
		xattr_list(p, o->xattrs, sizeof(o->xattrs));
		if (walk_upper && lgetxattr(p, "trusted.overlay.origin", NULL, 0) > 0)
			copies = 1;
		if (S_ISREG(o->st.st_mode)) {
			fd = open(p, O_RDONLY);
			if (fd >= 0) {
				o->flags = get_flags(fd);
				while ((n = read(fd, buf, sizeof(buf))) > 0)
					o->hash = fnv(o->hash, buf, n);
				close(fd);
			}
		} else if (S_ISLNK(o->st.st_mode)) {
			n = readlink(p, o->target, sizeof(o->target) - 1);
			if (n > 0)
				o->target[n] = 0;
		}
		if (S_ISDIR(o->st.st_mode)) {
			int k = o - t->objs;

			fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
			if (fd >= 0) {
				o->flags = get_flags(fd);
				close(fd);
			}
			if (walk_upper)
				o->impure = lgetxattr(p, "trusted.overlay.impure", NULL, 0) >= 0;
			t->objs[k].copies = walk(top, r, t);
			t->objs[k].below = t->n - k - 1;
		}
	}
	closedir(d);
	return copies;
}

/* walk @top into @t, sorted by path, each object's identity noted */
static void walk_tree(const char *top, struct tree *t)
{
	int i, j;

	if (!t->objs) {
		t->objs = calloc(MAX_OBJS, sizeof(struct obj));
		if (!t->objs)
			exit(2);
	}
	t->n = t->overflow = t->readdir_mismatch = t->d_ino_mismatch = 0;
	walk(top, "", t);
	qsort(t->objs, t->n, sizeof(struct obj), cmp_obj);
	for (i = 0; i < t->n; i++) {
		t->objs[i].same = i;
		for (j = 0; j < i; j++)
			if (t->objs[j].st.st_ino == t->objs[i].st.st_ino &&
			    t->objs[j].st.st_dev == t->objs[i].st.st_dev) {
				t->objs[i].same = j;
				break;
			}
	}
}

/* ---- run ---- */

static unsigned long mismatches;
static int quiet;	/* count mismatches, print none (the minimizer) */

static void report(const char *fmt, ...)
{
	va_list ap;

	if (mismatches++ >= MAX_MISMATCH || quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const char *ename(int err)
{
	static char buf[16];

	switch (err) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EEXIST: return "EEXIST";
	case EXDEV: return "EXDEV";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	case ENOTEMPTY: return "ENOTEMPTY";
	case ENODATA: return "ENODATA";
	case EMLINK: return "EMLINK";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ELOOP: return "ELOOP";
	case EBUSY: return "EBUSY";
	case ENXIO: return "ENXIO";
	case ESTALE: return "ESTALE";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EROFS: return "EROFS";
	case EFBIG: return "EFBIG";
	case EBADF: return "EBADF";
	case ENODEV: return "ENODEV";
	case ENOTTY: return "ENOTTY";
	}
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static struct tree ta, tb;

/* the pool from A's last walk */
static void pool_fill(void)
{
	int i;

	npool = 0;
	for (i = 0; i < ta.n; i++)
		pool_add(ta.objs[i].path, S_ISDIR(ta.objs[i].st.st_mode));
}

/*
 * A whiteout in an upper layer is its type and device number only: its
 * inode may be shared with other whiteouts (its link count and identity
 * vary), and one made by RENAME_WHITEOUT inherits the directory's
 * default ACL.
 */
static int upper_whiteout(const struct obj *o)
{
	return walk_upper && S_ISCHR(o->st.st_mode) && !o->st.st_rdev;
}

/* the lower layer of the uppers being compared (cmp -u ... LOWER) */
static const char *lower_top;
/* differences of the table in docs/overlayfs.md met, not counted */
static unsigned long intended;

/* @x without its @name entry ("NAME=hash ") */
static void without_xattr(const char *x, const char *name, char *out,
			  size_t size)
{
	const char *o = strstr(x, name);
	const char *end = o ? strchr(o, ' ') : NULL;

	if (!o || !end)
		snprintf(out, size, "%s", x);
	else
		snprintf(out, size, "%.*s%s", (int)(o - x), x, end + 1);
}

/* the top of the tree A being compared */
static const char *top_a;

/*
 * Intended differences (docs/overlayfs.md) in an upper directory's
 * xattrs, where the directory is on both sides:
 *  - an opaque mark on one side only, where the lower layer has no
 *    directory at its path, so that the mark hides nothing;
 *  - a redirect on A (overlayfs) only that names the directory's own
 *    path or name, or redirects that differ on copies of one origin.
 * overlayfs marks or redirects the directory it moves before the rename
 * and leaves that when the rename then fails (a non-empty target);
 * unionlite's failed rename changes nothing. An absolute redirect left
 * so holds when the directory later moves within its parent, where
 * unionlite writes the directory's name.
 */
static int xattr_changes_nothing(const struct obj *x, const struct obj *y)
{
	char a[sizeof(x->xattrs)], b[sizeof(y->xattrs)], p[PATH_MAX];
	char t[sizeof(x->xattrs)], u[sizeof(y->xattrs)], v[PATH_MAX];
	const char *name;
	struct stat st;
	ssize_t len;

	if (!walk_upper || !lower_top || !S_ISDIR(x->st.st_mode))
		return 0;
	without_xattr(x->xattrs, "trusted.overlay.opaque=", t, sizeof(t));
	without_xattr(y->xattrs, "trusted.overlay.opaque=", u, sizeof(u));
	if (strcmp(t, x->xattrs) || strcmp(u, y->xattrs)) {
		/* an opaque mark that hides nothing */
		if (!at(lower_top, x->path, p) && !lstat(p, &st) &&
		    S_ISDIR(st.st_mode))
			return 0;
	}
	without_xattr(t, "trusted.overlay.redirect=", a, sizeof(a));
	without_xattr(u, "trusted.overlay.redirect=", b, sizeof(b));
	if (strcmp(a, b))
		return 0;
	if (strcmp(t, u) && !strstr(b, "trusted.overlay.origin=")) {
		/*
		 * The redirects differ and the copies record no origin: only
		 * a redirect on A alone, to the directory's own path or name.
		 * With the same origin on both, redirects that differ name
		 * the same lower directory (the walks of each union over
		 * both uppers show that the views agree).
		 */
		if (strcmp(u, b) || at(top_a, x->path, p))
			return 0;
		len = getxattr(p, "trusted.overlay.redirect", v, sizeof(v) - 1);
		if (len <= 0)
			return 0;
		v[len] = 0;
		name = strrchr(x->path, '/');
		name = name ? name + 1 : x->path;
		if (strcmp(v, name) && (v[0] != '/' || strcmp(v + 1, x->path)))
			return 0;
	}
	intended++;
	return 1;
}

/*
 * An impure mark that nothing can need (cmp -x -u): an upper directory
 * that holds nothing, has no origin, and has no lower directory under it
 * or is opaque. overlayfs reads such a directory as it is, and drops the
 * mark at its first listing (run's last walk lists every directory).
 */
static int impure_unneeded(const struct obj *x, const struct obj *y)
{
	char p[PATH_MAX];
	struct stat st;

	if (!impure_check || !walk_upper || !lower_top || !S_ISDIR(x->st.st_mode) ||
	    x->impure == y->impure || x->below || y->below ||
	    strstr(x->xattrs, "trusted.overlay.origin=") ||
	    strstr(y->xattrs, "trusted.overlay.origin="))
		return 0;
	return strstr(x->xattrs, "trusted.overlay.opaque=") ||
	       at(lower_top, x->path, p) || lstat(p, &st) || !S_ISDIR(st.st_mode);
}

static void compare_obj(const char *w, const struct obj *x, const struct obj *y)
{
	const struct obj *xs = &ta.objs[x->same], *ys = &tb.objs[y->same];
	char fa[8], fb[8];

	if (upper_whiteout(x) && upper_whiteout(y))
		return;
	if (x->st.st_mode != y->st.st_mode)
		report("%s: %s: mode A=%o B=%o", w, x->path, x->st.st_mode, y->st.st_mode);
	else if (x->st.st_uid != y->st.st_uid || x->st.st_gid != y->st.st_gid)
		report("%s: %s: owner A=%u:%u B=%u:%u", w, x->path, x->st.st_uid,
		       x->st.st_gid, y->st.st_uid, y->st.st_gid);
	else if (!S_ISDIR(x->st.st_mode) && x->st.st_size != y->st.st_size)
		report("%s: %s: size A=%lld B=%lld", w, x->path,
		       (long long)x->st.st_size, (long long)y->st.st_size);
	else if ((S_ISCHR(x->st.st_mode) || S_ISBLK(x->st.st_mode)) &&
		 x->st.st_rdev != y->st.st_rdev)
		report("%s: %s: device A=%u:%u B=%u:%u", w, x->path,
		       major(x->st.st_rdev), minor(x->st.st_rdev),
		       major(y->st.st_rdev), minor(y->st.st_rdev));
	else if (x->hash != y->hash)
		report("%s: %s: content differs", w, x->path);
	else if (strcmp(x->xattrs, y->xattrs) && !xattr_changes_nothing(x, y))
		report("%s: %s: xattrs A=[%s] B=[%s]", w, x->path, x->xattrs, y->xattrs);
	else if (strcmp(x->target, y->target))
		report("%s: %s: link target A=%s B=%s", w, x->path, x->target, y->target);
	else if (x->flags != y->flags)
		report("%s: %s: flags A=%s B=%s", w, x->path, flag_str(x->flags, fa),
		       flag_str(y->flags, fb));
	else if (walk_upper && S_ISDIR(x->st.st_mode) && x->impure != y->impure &&
		 (x->copies || y->copies))
		report("%s: %s: impure A=%s B=%s (it holds a copy)", w, x->path,
		       x->impure ? "y" : "-", y->impure ? "y" : "-");
	else if (impure_unneeded(x, y))
		report("%s: %s: impure A=%s B=%s", w, x->path, x->impure ? "y" : "-",
		       y->impure ? "y" : "-");
	else if (!S_ISDIR(x->st.st_mode) && x->st.st_nlink != y->st.st_nlink)
		report("%s: %s: nlink A=%lu B=%lu", w, x->path,
		       (unsigned long)x->st.st_nlink, (unsigned long)y->st.st_nlink);
	else if (S_ISDIR(x->st.st_mode) && (x->st.st_nlink == 1) != (y->st.st_nlink == 1))
		report("%s: %s: directory nlink A=%lu B=%lu", w, x->path,
		       (unsigned long)x->st.st_nlink, (unsigned long)y->st.st_nlink);
	else if (strcmp(xs->path, ys->path))
		report("%s: %s: the same object as %s in A, as %s in B", w, x->path,
		       xs->path, ys->path);
}

/* walk A and B and compare them; @w names the walk in reports */
static void compare_trees(const char *a, const char *b, const char *w)
{
	int i, j;

	top_a = a;
	walk_tree(a, &ta);
	walk_tree(b, &tb);
	if (ta.overflow || tb.overflow)
		report("%s: more than %d objects", w, MAX_OBJS);
	/*
	 * A whiteout in a lower directory that nothing merges with is listed
	 * by overlayfs 6.1 (it reads such a directory straight), and lookup
	 * finds nothing there: only a difference from A counts.
	 */
	if (tb.readdir_mismatch != ta.readdir_mismatch && ta.readdir_mismatch)
		report("%s: B lists %d names lookup cannot find, A %d", w,
		       tb.readdir_mismatch, ta.readdir_mismatch);
	else if (tb.readdir_mismatch != ta.readdir_mismatch)
		report("%s: B lists %d names lookup cannot find", w, tb.readdir_mismatch);
	if (tb.d_ino_mismatch && d_ino_check)
		report("%s: B lists %d names with a d_ino other than st_ino, first %s",
		       w, tb.d_ino_mismatch, tb.d_ino_first);
	for (i = 0, j = 0; i < ta.n || j < tb.n;) {
		struct obj *x = i < ta.n ? &ta.objs[i] : NULL;
		struct obj *y = j < tb.n ? &tb.objs[j] : NULL;
		int c = !x ? 1 : !y ? -1 : strcmp(x->path, y->path);

		if (c < 0) {
			report("%s: %s only in A", w, x->path);
			i++;
		} else if (c > 0) {
			report("%s: %s only in B", w, y->path);
			j++;
		} else {
			compare_obj(w, x, y);
			i++;
			j++;
		}
	}
}

/* an operation as one line: UID KIND 'P' 'Q' ARG (no quote in a name) */
static void print_op(FILE *f, const struct op *op)
{
	fprintf(f, "%u %s '%s' '%s' %u\n", op->uid, op_names[op->kind], op->p,
		op->q, op->arg);
}

static void print_replay(const struct op *op, unsigned long i)
{
	fprintf(stderr, "# replay %lu: ", i);
	print_op(stderr, op);
}

/* the quoted string at *s into buf; *s moves past it */
static int parse_quoted(const char **s, char *buf)
{
	const char *a = strchr(*s, '\''), *b;

	if (!a)
		return -1;
	b = strchr(a + 1, '\'');
	if (!b || b - a - 1 >= PATH_MAX)
		return -1;
	memcpy(buf, a + 1, b - a - 1);
	buf[b - a - 1] = 0;
	*s = b + 1;
	return 0;
}

/* an op line, or the op of a "# replay N: " line; 1 if @line holds none */
static int parse_op(const char *line, struct op *op)
{
	char kind[32];
	int k, n;

	op->no = 0;
	if (!strncmp(line, "# replay ", 9)) {
		op->no = strtoul(line + 9, NULL, 10);
		line = strstr(line, ": ");
		if (!line)
			return 1;
		line += 2;
	}
	if (*line == '#' || *line == '\n' || !*line)
		return 1;
	if (sscanf(line, "%u %31s %n", &op->uid, kind, &n) != 2)
		return -1;
	for (k = 0; k < NR_KINDS && strcmp(kind, op_names[k]); k++)
		;
	if (k == NR_KINDS)
		return -1;
	op->kind = k;
	line += n;
	if (parse_quoted(&line, op->p) || parse_quoted(&line, op->q) ||
	    sscanf(line, "%u", &op->arg) != 1)
		return -1;
	return 0;
}

/* the "# first mismatch at op N" line of the last file read_ops() read */
static unsigned long r_first;

/* the operations of @file (op lines or replay lines; "-": standard
 * input), at most @max
 */
static struct op *read_ops(const char *file, unsigned long max, unsigned long *n)
{
	static char line[3 * PATH_MAX];
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	struct op *ops = NULL;
	unsigned long room = 0;
	int r;

	*n = 0;
	if (!f) {
		fprintf(stderr, "ul-diff: %s: %s\n", file, strerror(errno));
		exit(2);
	}
	while (*n < max && fgets(line, sizeof(line), f)) {
		if (*n == room) {
			room = room ? 2 * room : 64;
			ops = realloc(ops, room * sizeof(*ops));
			if (!ops)
				exit(2);
		}
		if (sscanf(line, "# first mismatch at op %lu", &r_first) == 1)
			continue;
		r = parse_op(line, &ops[*n]);
		if (r < 0) {
			fprintf(stderr, "ul-diff: %s: not an operation: %s", file, line);
			exit(2);
		}
		if (!r)
			(*n)++;
	}
	if (f != stdin)
		fclose(f);
	return ops;
}

/* -n PHASE: run's operations after a change of the layers (tests/lib/diff.sh) */
static unsigned int phase;

static int run(const char *a, const char *b, uint64_t seed, unsigned long ops,
	       unsigned long check)
{
	static struct op op;
	struct res ra, rb;
	unsigned long i, first = 0, ok = 0;
	char w[64];

	pool = calloc(MAX_POOL, PATH_MAX);
	pool_dir = calloc(MAX_POOL, 1);
	if (!pool || !pool_dir)
		return 2;
	walk_tree(a, &ta);
	pool_fill();
	/* phase 0 (no -n) draws what it always drew */
	rng = seed ^ 0x5eed ^ ((uint64_t)phase << 32);
	for (i = 1; i <= ops; i++) {
		unsigned long before = mismatches;

		gen_op(&op);
		run_op(a, &op, &ra);
		run_op(b, &op, &rb);
		print_replay(&op, i);
		if (ra.ret >= 0) {
			ok++;
			pool_note(&op);
		}
		if (ra.ret != rb.ret || ra.err != rb.err)
			report("op %lu (uid %u): %s %s %s %u: A=%ld/%s B=%ld/%s", i,
			       op.uid, op_names[op.kind], op.p, op.q, op.arg,
			       ra.ret, ename(ra.err), rb.ret, ename(rb.err));
		else if (ra.hash != rb.hash)
			report("op %lu (uid %u): %s %s: read different bytes", i, op.uid,
			       op_names[op.kind], op.p);
		if ((check && i % check == 0) || i == ops) {
			snprintf(w, sizeof(w), "walk after op %lu", i);
			compare_trees(a, b, w);
			pool_fill();
			fprintf(stderr, "# replay %lu: 0 walk '' '' 0\n", i);
		}
		if (mismatches != before && !first)
			first = i;
	}
	printf("seed %llu", (unsigned long long)seed);
	if (phase)
		printf(", phase %u", phase);
	printf(": %lu operations (%lu succeeded on A), %lu mismatches\n",
	       ops, ok, mismatches);
	if (first)
		fprintf(stderr, "# first mismatch at op %lu\n", first);
	return mismatches ? 1 : 0;
}

/* run @ops (@idx, or all when NULL) on A and B; results compared */
static void run_ops(const char *a, const char *b, const struct op *ops,
		    const int *idx, unsigned long n, int verbose)
{
	struct res ra, rb;
	unsigned long i;

	for (i = 0; i < n; i++) {
		const struct op *op = &ops[idx ? idx[i] : (int)i];
		unsigned long before = mismatches;

		if (op->kind == OP_WALK) {
			compare_trees(a, b, "walk");
			if (verbose)
				printf("op %lu: walk: %lu mismatches\n", i + 1,
				       mismatches - before);
			continue;
		}
		run_op(a, op, &ra);
		run_op(b, op, &rb);
		if (verbose)
			printf("op %lu (uid %u): %s '%s' '%s' %u: A=%ld/%s B=%ld/%s\n",
			       i + 1, op->uid, op_names[op->kind], op->p, op->q,
			       op->arg, ra.ret, ename(ra.err), rb.ret, ename(rb.err));
		if (ra.ret != rb.ret || ra.err != rb.err)
			report("op %lu: results differ", i + 1);
		else if (ra.hash != rb.hash)
			report("op %lu: read different bytes", i + 1);
	}
}

/* replay: the operations of @file on A and B, each result printed */
static int replay(const char *a, const char *b, const char *file)
{
	unsigned long n;
	struct op *ops = read_ops(file, 100000, &n);

	run_ops(a, b, ops, NULL, n, 1);
	compare_trees(a, b, "walk at the end");
	printf("replay: %lu operations, %lu mismatches\n", n, mismatches);
	return mismatches ? 1 : 0;
}

/* ---- inode flags in a lower tree ---- */

/* FS_IOC_SETFLAGS on @p: @set and @clear changed; -1 with errno */
static int change_flags(const char *p, int set, int clear)
{
	int fd, flags, ret;

	fd = open(p, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	ret = ioctl(fd, FS_IOC_GETFLAGS, &flags);
	if (!ret && (flags & clear || (flags & set) != set)) {
		flags = (flags | set) & ~clear;
		ret = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
	return ret;
}

/*
 * flags DIR SEED: give regular files and directories of the tree at DIR
 * inode flags, from SEED: noatime, sync or both to one in four,
 * append-only to one in 32, immutable to one in 48. Run after the tree
 * is complete (an immutable directory takes no new entry). The objects
 * are taken in the order of their paths, so that the same tree gets the
 * same flags whatever order readdir lists it in; immutable comes last
 * (an immutable file's flags do not change, and a hard link is met
 * twice).
 */
static int lower_flags(const char *top, uint64_t seed)
{
	static const int fs[] = { FS_NOATIME_FL, FS_SYNC_FL, FS_NOATIME_FL | FS_SYNC_FL };
	static struct tree t;
	static char immutable[MAX_OBJS];
	char p[PATH_MAX];
	int i, set;

	walk_tree(top, &t);
	rng = seed ^ 0xf1a95;
	for (i = 0; i < t.n; i++) {
		immutable[i] = 0;
		if (!S_ISREG(t.objs[i].st.st_mode) && !S_ISDIR(t.objs[i].st.st_mode))
			continue;
		set = pick(4) ? 0 : fs[pick(3)];
		if (!pick(32))
			set |= FS_APPEND_FL;
		immutable[i] = !pick(48);
		if (set && (at(top, t.objs[i].path, p) || change_flags(p, set, 0)))
			goto fail;
	}
	for (i = 0; i < t.n; i++)
		if (immutable[i] && (at(top, t.objs[i].path, p) ||
				     change_flags(p, FS_IMMUTABLE_FL, 0)))
			goto fail;
	return 0;
fail:
	fprintf(stderr, "ul-diff: chattr %s: %s\n", p, strerror(errno));
	return 2;
}

static int unflag_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if ((flag == FTW_F || flag == FTW_D) && (S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)))
		change_flags(p, 0, FS_APPEND_FL | FS_IMMUTABLE_FL);
	return 0;
}

/* unflag DIR: clear append-only and immutable in the tree at DIR, so
 * that it can be removed
 */
static int unflag(const char *dir)
{
	return nftw(dir, unflag_one, 16, FTW_PHYS) ? 2 : 0;
}

/* ---- the minimizer ---- */

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static const char *m_dir, *m_a = "/mnt/ma", *m_b = "/mnt/mb";
/* min ... LOWER VIEW: the layers given, not made from the seed */
static const char *m_lower, *m_view;
static uint64_t m_seed;
static unsigned long m_trials;

static int m_mount(const char *fs, const char *mnt, const char *up, const char *work)
{
	const char *extra = getenv("DIFF_OPTS");
	char opts[4 * PATH_MAX], lower[2 * PATH_MAX];

	if (!extra)
		extra = "";
	if (m_lower)
		snprintf(lower, sizeof(lower), "%s", m_lower);
	else
		snprintf(lower, sizeof(lower), "%s/l", m_dir);
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s/%s,workdir=%s/%s%s%s",
		 lower, m_dir, up, m_dir, work, *extra ? "," : "", extra);
	if (mount("none", mnt, fs, 0, opts)) {
		fprintf(stderr, "ul-diff: mount -t %s %s: %s\n", fs, opts, strerror(errno));
		exit(2);
	}
	return 0;
}

/* do @idx's n operations still diverge, from fresh layers? */
static int m_diverges(const struct op *ops, const int *idx, unsigned long n)
{
	static const char *const dirs[] = { "l", "ua", "wa", "ub", "wb" };
	char p[PATH_MAX], q[PATH_MAX], lower[PATH_MAX];
	unsigned int i;

	m_trials++;
	unflag(m_dir);
	nftw(m_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	mkdir(m_dir, 0755);
	for (i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%s/%s", m_dir, dirs[i]);
		mkdir(p, 0755);
	}
	snprintf(lower, sizeof(lower), "%s/l", m_dir);
	if (!m_lower)
		make_lower(lower, m_seed);
	if (!m_lower && extra)
		lower_flags(lower, m_seed);
	mkdir(m_a, 0755);
	mkdir(m_b, 0755);
	m_mount("overlay", m_a, "ua", "wa");
	m_mount("unionlite", m_b, "ub", "wb");
	mismatches = 0;
	quiet = 1;
	run_ops(m_a, m_b, ops, idx, n, 0);
	compare_trees(m_a, m_b, "");
	if (umount(m_a) || umount(m_b)) {
		fprintf(stderr, "ul-diff: umount: %s\n", strerror(errno));
		exit(2);
	}
	/* and the upper layers, as ul_diff_seed compares them */
	snprintf(p, sizeof(p), "%s/ua", m_dir);
	snprintf(q, sizeof(q), "%s/ub", m_dir);
	walk_upper = 1;
	lower_top = m_lower ? m_view : lower;
	compare_trees(p, q, "");
	walk_upper = 0;
	quiet = 0;
	unflag(m_dir);
	nftw(m_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return mismatches != 0;
}

/*
 * min DIR SEED FILE: shrink the operations of FILE (a run's replay
 * lines, up to its first mismatch) to a shortest list that still
 * diverges on fresh layers made in DIR (delta debugging: drop chunks
 * of halving size while the rest still diverges), and print it as a
 * script for tests/lib/diff.sh's ul_diff_case.
 */
static int minimize(const char *dir, uint64_t seed, const char *file,
		    const char *lower, const char *view)
{
	unsigned long n, m, i, start, chunk, gran = 2;
	struct op *ops = read_ops(file, 100000, &n);
	int *idx, *tmp, reduced;

	m_dir = dir;
	m_seed = seed;
	m_lower = lower;
	m_view = view;
	/* up to the first mismatch (and the walk that found it) */
	for (i = 0; r_first && i < n; i++)
		if (ops[i].no > r_first)
			n = i;
	idx = calloc(n + 1, sizeof(int));
	tmp = calloc(n + 1, sizeof(int));
	if (!idx || !tmp)
		return 2;
	for (i = 0; i < n; i++)
		idx[i] = i;
	if (!m_diverges(ops, idx, n)) {
		printf("# min: the %lu operations do not diverge from fresh layers\n", n);
		return 1;
	}
	while (n >= 2) {
		chunk = (n + gran - 1) / gran;
		reduced = 0;
		for (start = 0; start < n && !reduced; start += chunk) {
			for (i = 0, m = 0; i < n; i++)
				if (i < start || i >= start + chunk)
					tmp[m++] = idx[i];
			if (m_diverges(ops, tmp, m)) {
				memcpy(idx, tmp, m * sizeof(int));
				n = m;
				gran = gran > 2 ? gran - 1 : 2;
				reduced = 1;
			}
		}
		if (reduced)
			continue;
		if (gran >= n)
			break;
		gran = gran * 2 < n ? gran * 2 : n;
	}
	printf("# ul-diff min: seed %llu, %lu operations still diverge (%lu trials)\n",
	       (unsigned long long)seed, n, m_trials);
	printf(". /tests/lib/diff.sh\nul_diff_case %llu%s%s <<'OPS'\n",
	       (unsigned long long)seed, lower ? " layers" : "", extra ? " flags" : "");
	for (i = 0; i < n; i++)
		print_op(stdout, &ops[idx[i]]);
	printf("OPS\n");
	return 0;
}

static int cmp(const char *a, const char *b, const char *label)
{
	struct statfs sf;

	/* overlayfs without xino gives copied-up files the wrong d_ino */
	if (!statfs(b, &sf) && sf.f_type == 0x794c7630)
		d_ino_check = 0;
	compare_trees(a, b, label);
	printf("cmp %s: %d objects, %lu mismatches", label, ta.n, mismatches);
	if (intended)
		printf(", %lu intended differences (docs/overlayfs.md)", intended);
	printf("\n");
	return mismatches ? 1 : 0;
}

int main(int argc, char **argv)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* -x, -o and -n PHASE, right after the subcommand, taken out */
	while (argc > 2 && (!strcmp(argv[2], "-x") || !strcmp(argv[2], "-o") ||
			    (argc > 3 && !strcmp(argv[2], "-n")))) {
		int k = argv[2][1] == 'n' ? 2 : 1;

		if (argv[2][1] == 'x')
			extra = 1;
		else if (argv[2][1] == 'o')
			origin_any = 1;
		else
			phase = strtoul(argv[3], NULL, 0);
		for (i = 2; i + k <= argc; i++)
			argv[i] = argv[i + k];
		argc -= k;
	}
	/* the uppers' compares of cmp -u and of the minimizer */
	impure_check = extra;
	if (argc == 4 && !strcmp(argv[1], "lower"))
		return make_lower(argv[2], strtoull(argv[3], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "flags"))
		return lower_flags(argv[2], strtoull(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "unflag"))
		return unflag(argv[2]);
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "run"))
		return run(argv[2], argv[3], strtoull(argv[4], NULL, 0),
			   strtoul(argv[5], NULL, 0),
			   argc == 7 ? strtoul(argv[6], NULL, 0) : 50);
	if (argc == 5 && !strcmp(argv[1], "replay"))
		return replay(argv[2], argv[3], argv[4]);
	if ((argc == 5 || argc == 7) && !strcmp(argv[1], "min"))
		return minimize(argv[2], strtoull(argv[3], NULL, 0), argv[4],
				argc == 7 ? argv[5] : NULL,
				argc == 7 ? argv[6] : NULL);
	if (argc == 5 && !strcmp(argv[1], "cmp"))
		return cmp(argv[2], argv[3], argv[4]);
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "cmp") &&
	    !strcmp(argv[2], "-u")) {
		walk_upper = 1;
		lower_top = argc == 7 ? argv[6] : NULL;
		return cmp(argv[3], argv[4], argv[5]);
	}
	fprintf(stderr, "usage: ul-diff lower DIR SEED\n"
			"       ul-diff flags DIR SEED\n"
			"       ul-diff unflag DIR\n"
			"       ul-diff run [-x] [-n PHASE] A B SEED OPS [CHECK]\n"
			"       ul-diff cmp A B LABEL\n"
			"       ul-diff cmp [-x] [-o] -u A B LABEL [LOWER]\n"
			"       ul-diff replay A B FILE\n"
			"       ul-diff min [-x] DIR SEED FILE [LOWER VIEW]\n");
	return 2;
}
