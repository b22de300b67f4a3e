// SPDX-License-Identifier: GPL-2.0
/*
 * ul-stress: several processes doing random namespace operations on one
 * union for a while (the debug kernel stress: KASAN, lockdep,
 * hung tasks and WARNINGs are what it hunts; the harness reads the
 * console).
 *
 *   ul-stress lower LOWER
 *   ul-stress run --union MNT [--procs N] [--seconds S] [--seed X]
 *
 * lower fills LOWER with what the operations find there: directories
 * L0..L3 (each holding files a and b, a symlink l and a directory s
 * with a file c) and files f0..f3.
 *
 * run: N processes (default 4), S seconds (default 120). Each picks, from
 * its own random sequence (seeded by X and its number), an operation and
 * one or two names among the lower ones and fresh ones (n0..n3, at the
 * root and in each L*): mkdir, rmdir, create and write, unlink, rename
 * (no flags, RENAME_NOREPLACE, RENAME_EXCHANGE, RENAME_WHITEOUT), link,
 * symlink, mknod of a fifo, chmod, truncate, open and write, read,
 * readlink, lstat, readdir, setxattr, getxattr and listxattr of a user.*
 * attribute. Errors the operation may meet on any file system (ENOENT,
 * EEXIST, ENOTEMPTY, ENOTDIR, EISDIR, EXDEV, EINVAL, EPERM, EMLINK,
 * ELOOP, ESTALE, ENODATA, EOPNOTSUPP, and for a fifo opened with
 * O_NONBLOCK: ENXIO when it has no reader, EAGAIN when a read finds it
 * empty or a write full, EPIPE when its reader went away between open and
 * write) are counted; any other
 * errno is unexpected. At the end, a readdir of every directory must list
 * each name once and every listed name must be found by lstat.
 *
 * Output: "stress: N processes, S s: ok" (deterministic); per-operation
 * counts and the errnos met go to standard error. Unexpected errnos and
 * failed final checks print "stress: ..." lines and exit 1; usage or
 * setup errors exit 2.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE	(1 << 0)
#define RENAME_EXCHANGE		(1 << 1)
#define RENAME_WHITEOUT		(1 << 2)
#endif

#define MAX_PROCS	16
#define MSG_LEN		160

enum op {
	OP_MKDIR, OP_RMDIR, OP_CREATE, OP_UNLINK, OP_RENAME, OP_NOREPLACE,
	OP_EXCHANGE, OP_WHITEOUT, OP_LINK, OP_SYMLINK, OP_MKFIFO, OP_CHMOD,
	OP_TRUNCATE, OP_WRITE, OP_READ, OP_READLINK, OP_LSTAT, OP_READDIR,
	OP_SETXATTR, OP_GETXATTR, OP_LISTXATTR, NR_OPS
};

static const char *const op_names[NR_OPS] = {
	"mkdir", "rmdir", "create", "unlink", "rename", "rename-noreplace",
	"rename-exchange", "rename-whiteout", "link", "symlink", "mkfifo",
	"chmod", "truncate", "write", "read", "readlink", "lstat", "readdir",
	"setxattr", "getxattr", "listxattr",
};

/* The errnos any file system may return for these operations. */
static const int expected_errnos[] = {
	ENOENT, EEXIST, ENOTEMPTY, ENOTDIR, EISDIR, EXDEV, EINVAL, EPERM,
	EMLINK, ELOOP, ESTALE, ENODATA, EOPNOTSUPP, ENXIO, EAGAIN, EPIPE,
};

#define NR_ERRNOS	(sizeof(expected_errnos) / sizeof(expected_errnos[0]))

struct counts {
	unsigned long ok[NR_OPS];
	unsigned long err[NR_OPS][NR_ERRNOS];
	unsigned long unexpected;
	char first[MSG_LEN];
};

static struct counts *shared;
static const char *opt_union;
static unsigned int opt_procs = 4, opt_seconds = 120, opt_seed = 1;

/* the names operations pick from: 4 parents ("" and L0..L3) x 10 */
static const char *const dirs[] = { "", "L0/", "L1/", "L2/", "L3/" };
static const char *const names[] = {
	"L0", "L1", "L2", "L3", "f0", "f1", "f2", "f3", "n0", "n1",
	"n2", "n3", "a", "b", "l", "s", "s/c", "s/n0",
};

#define NR_DIRS		(sizeof(dirs) / sizeof(dirs[0]))
#define NR_NAMES	(sizeof(names) / sizeof(names[0]))

static void die(const char *what, const char *path)
{
	printf("stress: error: %s %s: %s\n", what, path, strerror(errno));
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a random path under the union: a parent, then a name that fits it */
static void pick(char *buf, unsigned int *seed)
{
	unsigned int d = rand_r(seed) % NR_DIRS;
	/* the root holds L*, f*, n*; an L* holds a, b, l, s, s/c, n* */
	unsigned int n = d ? 8 + (unsigned int)rand_r(seed) % (NR_NAMES - 8) :
			 (unsigned int)rand_r(seed) % 12;

	snprintf(buf, PATH_MAX, "%s/%s%s", opt_union, dirs[d], names[n]);
}

static void count(struct counts *c, enum op op, long ret, const char *p)
{
	unsigned int i;

	if (ret >= 0) {
		c->ok[op]++;
		return;
	}
	for (i = 0; i < NR_ERRNOS; i++) {
		if (errno == expected_errnos[i]) {
			c->err[op][i]++;
			return;
		}
	}
	if (!c->unexpected++)
		snprintf(c->first, MSG_LEN, "%s %.100s: %s", op_names[op], p,
			 strerror(errno));
}

static long do_op(enum op op, const char *p, const char *q, unsigned int r)
{
	char buf[256];
	long ret;
	DIR *d;
	int fd;

	switch (op) {
	case OP_MKDIR:
		return mkdir(p, 0755);
	case OP_RMDIR:
		return rmdir(p);
	case OP_CREATE:
		fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, 0644);
		if (fd < 0)
			return -1;
		ret = write(fd, "new\n", 4);
		close(fd);
		return ret;
	case OP_UNLINK:
		return unlink(p);
	case OP_RENAME:
		return renameat2(AT_FDCWD, p, AT_FDCWD, q, 0);
	case OP_NOREPLACE:
		return renameat2(AT_FDCWD, p, AT_FDCWD, q, RENAME_NOREPLACE);
	case OP_EXCHANGE:
		return renameat2(AT_FDCWD, p, AT_FDCWD, q, RENAME_EXCHANGE);
	case OP_WHITEOUT:
		return renameat2(AT_FDCWD, p, AT_FDCWD, q, RENAME_WHITEOUT);
	case OP_LINK:
		return link(p, q);
	case OP_SYMLINK:
		return symlink("a", p);
	case OP_MKFIFO:
		return mknod(p, S_IFIFO | 0644, 0);
	case OP_CHMOD:
		return chmod(p, 0600 | (r & 077));
	case OP_TRUNCATE:
		return truncate(p, r % 64);
	case OP_WRITE:
		fd = open(p, O_WRONLY | O_APPEND | O_NONBLOCK);
		if (fd < 0)
			return -1;
		ret = write(fd, "more\n", 5);
		close(fd);
		return ret;
	case OP_READ:
		fd = open(p, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			return -1;
		ret = read(fd, buf, sizeof(buf));
		close(fd);
		return ret;
	case OP_READLINK:
		return readlink(p, buf, sizeof(buf));
	case OP_LSTAT: {
		struct stat st;

		return lstat(p, &st);
	}
	case OP_READDIR:
		d = opendir(p);
		if (!d)
			return -1;
		while (readdir(d))
			;
		closedir(d);
		return 0;
	case OP_SETXATTR:
		return lsetxattr(p, "user.stress", "v", 1, 0);
	case OP_GETXATTR:
		return lgetxattr(p, "user.stress", buf, sizeof(buf));
	case OP_LISTXATTR:
		return llistxattr(p, buf, sizeof(buf));
	case NR_OPS:
		break;
	}
	errno = EINVAL;
	return -1;
}

static void worker(unsigned int idx)
{
	struct counts *c = &shared[idx];
	unsigned int seed = opt_seed * 7919 + idx;
	char p[PATH_MAX], q[PATH_MAX];
	double end = now() + opt_seconds;
	unsigned long n = 0;
	enum op op;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGPIPE, SIG_IGN);
	while ((n++ & 15) || now() < end) {
		op = rand_r(&seed) % NR_OPS;
		pick(p, &seed);
		pick(q, &seed);
		count(c, op, do_op(op, p, q, rand_r(&seed)), p);
	}
	_exit(0);
}

/* the final check of one directory: each name once, each found by lstat */
static int check_dir(const char *dir)
{
	char seen[64][NAME_MAX + 1], p[PATH_MAX];
	struct dirent *de;
	struct stat st;
	int n = 0, i, bad = 0;
	DIR *d = opendir(dir);

	if (!d) {
		printf("stress: final check: opendir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (i = 0; i < n; i++) {
			if (!strcmp(seen[i], de->d_name)) {
				printf("stress: final check: %s lists %s twice\n",
				       dir, de->d_name);
				bad = 1;
			}
		}
		if (n < 64)
			snprintf(seen[n++], NAME_MAX + 1, "%s", de->d_name);
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (lstat(p, &st)) {
			printf("stress: final check: %s listed, lstat: %s\n", p,
			       strerror(errno));
			bad = 1;
		} else if (S_ISDIR(st.st_mode)) {
			bad |= check_dir(p);
		}
	}
	closedir(d);
	return bad;
}

static int run(void)
{
	struct counts total;
	pid_t pids[MAX_PROCS];
	unsigned int i, j, k;
	unsigned long ops = 0;
	int bad = 0, st;

	shared = mmap(NULL, sizeof(*shared) * opt_procs, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		die("mmap", "");
	memset(shared, 0, sizeof(*shared) * opt_procs);
	for (i = 0; i < opt_procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork", "");
		if (!pids[i])
			worker(i);
	}
	for (i = 0; i < opt_procs; i++) {
		if (waitpid(pids[i], &st, 0) < 0)
			die("waitpid", "");
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("stress: process %u ended with status 0x%x\n", i, st);
			bad = 1;
		}
	}
	memset(&total, 0, sizeof(total));
	for (i = 0; i < opt_procs; i++) {
		for (j = 0; j < NR_OPS; j++) {
			total.ok[j] += shared[i].ok[j];
			ops += shared[i].ok[j];
			for (k = 0; k < NR_ERRNOS; k++) {
				total.err[j][k] += shared[i].err[j][k];
				ops += shared[i].err[j][k];
			}
		}
		if (shared[i].unexpected) {
			printf("stress: process %u: %lu unexpected errors, first: %s\n",
			       i, shared[i].unexpected, shared[i].first);
			ops += shared[i].unexpected;
			bad = 1;
		}
	}
	fprintf(stderr, "stress: %lu operations in %u s\n", ops, opt_seconds);
	for (j = 0; j < NR_OPS; j++) {
		fprintf(stderr, "stress: %-16s ok %lu", op_names[j], total.ok[j]);
		for (k = 0; k < NR_ERRNOS; k++)
			if (total.err[j][k])
				fprintf(stderr, " %s %lu",
					strerrorname_np(expected_errnos[k]),
					total.err[j][k]);
		fprintf(stderr, "\n");
	}
	bad |= check_dir(opt_union);
	if (!bad)
		printf("stress: %u processes, %u s: ok\n", opt_procs, opt_seconds);
	return bad;
}

static void mkfile(const char *path, const char *content)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0 || write(fd, content, strlen(content)) < 0 || close(fd))
		die("create", path);
}

static int make_lower(const char *l)
{
	/* per L<i>: what, name, content ('d' dir, 'f' file, 'l' symlink) */
	static const struct { char type; const char *name, *content; } objs[] = {
		{ 'd', "", NULL }, { 'f', "/a", "lower-a\n" },
		{ 'f', "/b", "lower-b\n" }, { 'l', "/l", "a" },
		{ 'd', "/s", NULL }, { 'f', "/s/c", "lower-c\n" },
	};
	char p[PATH_MAX];
	unsigned int i, k;

	for (i = 0; i < 4; i++) {
		for (k = 0; k < sizeof(objs) / sizeof(objs[0]); k++) {
			snprintf(p, sizeof(p), "%s/L%u%s", l, i, objs[k].name);
			if (objs[k].type == 'f')
				mkfile(p, objs[k].content);
			else if (objs[k].type == 'l' ? symlink(objs[k].content, p) :
				 mkdir(p, 0755))
				die("create", p);
		}
		snprintf(p, sizeof(p), "%s/f%u", l, i);
		mkfile(p, "lower-f\n");
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ul-stress lower LOWER\n"
		"       ul-stress run --union MNT [--procs N] [--seconds S] [--seed X]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "union", required_argument, NULL, 'u' },
		{ "procs", required_argument, NULL, 'p' },
		{ "seconds", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "lower"))
		return make_lower(argv[2]);
	if (argc < 2 || strcmp(argv[1], "run"))
		usage();
	optind = 2;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'u': opt_union = optarg; break;
		case 'p': opt_procs = strtoul(optarg, NULL, 0); break;
		case 's': opt_seconds = strtoul(optarg, NULL, 0); break;
		case 'x': opt_seed = strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (optind != argc || !opt_union || !opt_procs ||
	    opt_procs > MAX_PROCS || !opt_seconds)
		usage();
	return run();
}
