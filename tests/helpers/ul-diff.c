// SPDX-License-Identifier: GPL-2.0
/*
 * ul-diff: seeded random differential testing of two unions over the
 * same lower layer (kernel overlayfs as the oracle, unionlite as the
 * subject).
 *
 *   ul-diff lower DIR SEED
 *   ul-diff run A B SEED OPS [CHECK]
 *
 * "lower" fills DIR (before any union is mounted on it) with a tree made
 * from SEED: directories up to three deep, files of several sizes,
 * symlinks, hard links, fifos, user.* xattrs, modes and owners (uid 0,
 * 1000, 1001), a setgid and a sticky directory, long names and names
 * with odd bytes.
 *
 * "run" applies the same OPS random operations (from SEED) to the union
 * mounted at A and to the one mounted at B, each operation first on A,
 * then on B, by root or, in a child with setresuid/setresgid, by uid 1000
 * or 1001 (no supplementary groups). After each operation the results
 * must match: the return value (0/-1, or the byte count) and errno.
 * Every CHECK operations (default 50) and at the end both trees are
 * walked and must match: names, types, mode, owner, size, the content's
 * hash, symlink targets, user.* xattrs, a non-directory's link count,
 * readdir against lookup, and, within each union, no (st_dev, st_ino)
 * shared by two objects that are not hard links of one another.
 *
 * Output (standard output, deterministic for a given SEED and behaviour):
 *
 *   seed S: N operations (K succeeded on A), M mismatches
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
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MAX_MISMATCH	20
#define MAX_OBJS	4096

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
	OP_CHOWN, OP_UTIMES, OP_SETX, OP_REMOVEX, OP_READ, NR_OPS };

static const char *const op_names[NR_OPS] = {
	"creat", "open-trunc", "append", "truncate", "mkdir", "rmdir",
	"unlink", "rename", "link", "symlink", "mkfifo", "chmod", "chown",
	"utimes", "setxattr", "removexattr", "read",
};

struct op {
	int kind;
	unsigned int uid;
	unsigned int arg;	/* mode, length, flags... */
	char p[PATH_MAX], q[PATH_MAX];
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

static void gen_op(struct op *op)
{
	static const unsigned int uids[] = { 0, 0, 0, 1000, 1001 };

	op->kind = pick(NR_OPS);
	op->uid = uids[pick(5)];
	op->arg = rnd() & 0xffff;
	rpath(op->p, sizeof(op->p));
	rpath(op->q, sizeof(op->q));
}

static long do_op(const char *top, const struct op *op, uint64_t *hash)
{
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
		switch (op->arg % 3) {
		case 0:
			return rename(p, q);
		case 1:
			return renameat2(AT_FDCWD, p, AT_FDCWD, q, RENAME_NOREPLACE);
		default:
			return renameat2(AT_FDCWD, p, AT_FDCWD, q, RENAME_EXCHANGE);
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
	}
	errno = EINVAL;
	return -1;
}

/* run op on top as op->uid (in a child for a user); the result in *r */
static void run_op(const char *top, const struct op *op, struct res *r)
{
	int pfd[2], status;
	pid_t pid;

	r->hash = 0xcbf29ce484222325ULL;
	if (!op->uid) {
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
		if (setgroups(0, NULL) || setresgid(op->uid, op->uid, op->uid) ||
		    setresuid(op->uid, op->uid, op->uid))
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

/* ---- the walk ---- */

struct obj {
	char path[PATH_MAX];
	struct stat st;
	uint64_t hash;		/* content, link target, xattrs */
	char target[PATH_MAX];
};

struct tree {
	struct obj *objs;
	int n;
	int overflow;
	int readdir_mismatch;
};

static int cmp_obj(const void *a, const void *b)
{
	return strcmp(((const struct obj *)a)->path, ((const struct obj *)b)->path);
}

static uint64_t xattr_hash(const char *p)
{
	char list[4096], val[256];
	uint64_t h = 0xcbf29ce484222325ULL;
	ssize_t len, vlen;
	char *name, *sorted[64];
	int n = 0, i, j;

	len = llistxattr(p, list, sizeof(list));
	if (len <= 0)
		return h;
	for (name = list; name < list + len && n < 64; name += strlen(name) + 1)
		if (!strncmp(name, "user.", 5))
			sorted[n++] = name;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(sorted[j - 1], sorted[j]) > 0; j--) {
			char *t = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		vlen = lgetxattr(p, sorted[i], val, sizeof(val));
		h = fnv(h, sorted[i], strlen(sorted[i]) + 1);
		if (vlen > 0)
			h = fnv(h, val, vlen);
	}
	return h;
}

static void walk(const char *top, const char *rel, struct tree *t)
{
	char p[PATH_MAX], r[PATH_MAX], buf[4096];
	struct dirent *de;
	struct obj *o;
	DIR *d;
	ssize_t n;
	int fd;

	if (at(top, rel, p))
		return;
	d = opendir(p);
	if (!d)
		return;
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
		t->n++;
		o->hash = xattr_hash(p);
		if (S_ISREG(o->st.st_mode)) {
			fd = open(p, O_RDONLY);
			if (fd >= 0) {
				while ((n = read(fd, buf, sizeof(buf))) > 0)
					o->hash = fnv(o->hash, buf, n);
				close(fd);
			}
		} else if (S_ISLNK(o->st.st_mode)) {
			n = readlink(p, o->target, sizeof(o->target) - 1);
			if (n > 0)
				o->target[n] = 0;
		}
		if (S_ISDIR(o->st.st_mode))
			walk(top, r, t);
	}
	closedir(d);
}

/* (st_dev, st_ino) shared by two objects that are not hard links */
static int shared_inos(struct tree *t)
{
	int i, j, shared = 0;

	for (i = 0; i < t->n; i++)
		for (j = i + 1; j < t->n; j++)
			if (t->objs[i].st.st_ino == t->objs[j].st.st_ino &&
			    t->objs[i].st.st_dev == t->objs[j].st.st_dev &&
			    (S_ISDIR(t->objs[i].st.st_mode) ||
			     t->objs[i].hash != t->objs[j].hash ||
			     t->objs[i].st.st_nlink < 2))
				shared++;
	return shared;
}

/* ---- run ---- */

static unsigned long mismatches;

static void report(const char *fmt, ...)
{
	va_list ap;

	if (mismatches++ >= MAX_MISMATCH)
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
	}
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static void compare_trees(const char *a, const char *b, unsigned long opno)
{
	static struct tree ta, tb;
	int i, j, s;

	if (!ta.objs) {
		ta.objs = calloc(MAX_OBJS, sizeof(struct obj));
		tb.objs = calloc(MAX_OBJS, sizeof(struct obj));
		if (!ta.objs || !tb.objs)
			exit(2);
	}
	ta.n = tb.n = ta.overflow = tb.overflow = 0;
	ta.readdir_mismatch = tb.readdir_mismatch = 0;
	walk(a, "", &ta);
	walk(b, "", &tb);
	if (tb.readdir_mismatch)
		report("walk after op %lu: B lists %d names lookup cannot find", opno,
		       tb.readdir_mismatch);
	s = shared_inos(&tb);
	if (s && !shared_inos(&ta))
		report("walk after op %lu: B shows %d (st_dev, st_ino) pairs for two objects", opno, s);
	qsort(ta.objs, ta.n, sizeof(struct obj), cmp_obj);
	qsort(tb.objs, tb.n, sizeof(struct obj), cmp_obj);
	for (i = 0, j = 0; i < ta.n || j < tb.n;) {
		struct obj *x = i < ta.n ? &ta.objs[i] : NULL;
		struct obj *y = j < tb.n ? &tb.objs[j] : NULL;
		int c = !x ? 1 : !y ? -1 : strcmp(x->path, y->path);

		if (c < 0) {
			report("walk after op %lu: %s only in A", opno, x->path);
			i++;
			continue;
		}
		if (c > 0) {
			report("walk after op %lu: %s only in B", opno, y->path);
			j++;
			continue;
		}
		if (x->st.st_mode != y->st.st_mode)
			report("walk after op %lu: %s: mode A=%o B=%o", opno, x->path,
			       x->st.st_mode, y->st.st_mode);
		else if (x->st.st_uid != y->st.st_uid || x->st.st_gid != y->st.st_gid)
			report("walk after op %lu: %s: owner A=%u:%u B=%u:%u", opno,
			       x->path, x->st.st_uid, x->st.st_gid, y->st.st_uid, y->st.st_gid);
		else if (!S_ISDIR(x->st.st_mode) && x->st.st_size != y->st.st_size)
			report("walk after op %lu: %s: size A=%lld B=%lld", opno, x->path,
			       (long long)x->st.st_size, (long long)y->st.st_size);
		else if (x->hash != y->hash)
			report("walk after op %lu: %s: content or user xattrs differ", opno,
			       x->path);
		else if (strcmp(x->target, y->target))
			report("walk after op %lu: %s: link target A=%s B=%s", opno,
			       x->path, x->target, y->target);
		else if (!S_ISDIR(x->st.st_mode) && x->st.st_nlink != y->st.st_nlink)
			report("walk after op %lu: %s: nlink A=%lu B=%lu", opno, x->path,
			       (unsigned long)x->st.st_nlink, (unsigned long)y->st.st_nlink);
		else if (S_ISDIR(x->st.st_mode) && (x->st.st_nlink == 1) != (y->st.st_nlink == 1))
			report("walk after op %lu: %s: directory nlink A=%lu B=%lu", opno,
			       x->path, (unsigned long)x->st.st_nlink,
			       (unsigned long)y->st.st_nlink);
		i++;
		j++;
	}
}

static void print_replay(const struct op *op, unsigned long i)
{
	fprintf(stderr, "# replay %lu (uid %u): %s '%s' '%s' %u\n", i, op->uid,
		op_names[op->kind], op->p, op->q, op->arg);
}

static int run(const char *a, const char *b, uint64_t seed, unsigned long ops,
	       unsigned long check)
{
	static struct op op;
	struct res ra, rb;
	unsigned long i, first = 0, ok = 0;

	rng = seed ^ 0x5eed;
	for (i = 1; i <= ops; i++) {
		unsigned long before = mismatches;

		gen_op(&op);
		run_op(a, &op, &ra);
		run_op(b, &op, &rb);
		print_replay(&op, i);
		if (ra.ret >= 0)
			ok++;
		if (ra.ret != rb.ret || ra.err != rb.err)
			report("op %lu (uid %u): %s %s %s %u: A=%ld/%s B=%ld/%s", i,
			       op.uid, op_names[op.kind], op.p, op.q, op.arg,
			       ra.ret, ename(ra.err), rb.ret, ename(rb.err));
		else if (ra.hash != rb.hash)
			report("op %lu (uid %u): %s %s: read different bytes", i, op.uid,
			       op_names[op.kind], op.p);
		if (check && i % check == 0)
			compare_trees(a, b, i);
		if (mismatches != before && !first)
			first = i;
	}
	compare_trees(a, b, ops);
	printf("seed %llu: %lu operations (%lu succeeded on A), %lu mismatches\n",
	       (unsigned long long)seed, ops, ok, mismatches);
	if (first)
		fprintf(stderr, "# first mismatch at op %lu\n", first);
	return mismatches ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "lower"))
		return make_lower(argv[2], strtoull(argv[3], NULL, 0));
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "run"))
		return run(argv[2], argv[3], strtoull(argv[4], NULL, 0),
			   strtoul(argv[5], NULL, 0),
			   argc == 7 ? strtoul(argv[6], NULL, 0) : 50);
	fprintf(stderr, "usage: ul-diff lower DIR SEED\n"
			"       ul-diff run A B SEED OPS [CHECK]\n");
	return 2;
}
