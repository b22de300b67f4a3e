// SPDX-License-Identifier: GPL-2.0
/*
 * ul-crash: the workload and the checker of the power-cut tests (issue 6,
 * tests/crash-*): whiteout transitions looped on a union whose upper is
 * on ext4, the number of the last one completed kept on a raw log disk,
 * and after the cut a check that the union shows the state before or
 * after the operation in flight.
 *
 *   ul-crash run   --union MNT --upper UPPER --log DEV [--seconds S]
 *   ul-crash check --union MNT --upper UPPER --log DEV
 *
 * The lower layer must hold P (a directory with the files c0 and c1) and
 * F (a file "lower-F\n"); the union starts with nothing done to it (the
 * upper is empty). Tests make it with "ul-crash lower LOWER".
 *
 *   ul-crash lower LOWER   create LOWER/P/c0, LOWER/P/c1, LOWER/F
 *
 * run: first the setup, seq 0: unlink P/c0 and P/c1 (P: a directory
 * empty in the union, whiteouts in upper); then op 1, 2, ... forever (or
 * S seconds, default 60), the periodic sequence (op k is OPS[(k-1) % 6]):
 *
 *   rmdir P, mkdir P, rename F G, rename G F, unlink F, create F (empty)
 *
 * After each op (and after the setup): syncfs(2) on the union and on the
 * upper, then the op's number is written to DEV (O_DIRECT | O_SYNC, the
 * ul-seqlog record: first 512-byte sector "ulseq <N>\n"). So when DEV
 * says S, the upper on disk must be in the state after S or after S+1.
 * It prints "UL-CUT-WINDOW" once, when the loop starts (the host cuts the
 * power some time after that line), and "run: N ops" if never cut.
 *
 * A broken union (unionlite's test parameter naive, or one that leaves
 * work/ as a cut left it) is caught by the same run and check: the tests
 * load the module with step_sync, so that each step of a recipe reaches
 * the disk on its own and a cut can fall between two steps.
 *
 * check: reads S from DEV, computes the states after S and after S+1,
 * and looks at the union (P: absent or an empty directory, F and G:
 * absent or a file, with its content; the root lists each name once and
 * nothing else) and at the upper (a name absent from the union that the
 * lower has must be a whiteout, 0/0 character device). One line:
 *
 *   check: seq S (next: OP): state after S
 *   check: seq S (next: OP): state after S+1
 *   check: seq S (next: OP): VIOLATION: WHAT; seen P=.. F=.. G=..
 *
 * where WHAT is one of "lower content of P visible again", "lower
 * content of F visible again", "synced op K (OP) lost", "neither before
 * nor after" (with the expected states), "upper NAME: not a whiteout".
 * Exit status: 0 matched, 1 violation, 2 error (usage, I/O).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define SECTOR		512
#define LOWER_F		"lower-F\n"
#define NR_OPS		6

enum op { OP_RMDIR_P, OP_MKDIR_P, OP_RENAME_FG, OP_RENAME_GF, OP_UNLINK_F,
	  OP_CREATE_F };

static const char *const op_names[NR_OPS] = {
	"rmdir P", "mkdir P", "rename F G", "rename G F", "unlink F", "create F",
};

/*
 * The union's state. P: 0 absent, 1 an empty directory, 2 the lower
 * directory (c0 and c1 listed: the lower content visible again). F, G:
 * absent, the lower content, or empty (created by the workload). The
 * checker also records "other" for what none of these describe.
 */
enum fstate { F_ABSENT, F_LOWER, F_EMPTY, F_OTHER };
enum pstate { P_ABSENT, P_EMPTY, P_LOWER, P_OTHER };

struct state {
	int p, f, g;
};

static const char *const p_names[] = { "absent", "empty-dir", "dir-with-c0-c1", "other" };
static const char *const f_names[] = { "absent", "lower-content", "empty", "other" };

static const char *opt_union, *opt_upper, *opt_log;
static unsigned int opt_seconds = 60;

static enum op op_of(unsigned long k)
{
	return (enum op)((k - 1) % NR_OPS);
}

/* the state after op S (S = 0: after the setup) */
static struct state state_after(unsigned long s)
{
	struct state st = { P_EMPTY, F_LOWER, F_ABSENT };
	unsigned long k;
	int t;

	for (k = 1; k <= s; k++) {
		switch (op_of(k)) {
		case OP_RMDIR_P: st.p = P_ABSENT; break;
		case OP_MKDIR_P: st.p = P_EMPTY; break;
		case OP_RENAME_FG: st.g = st.f; st.f = F_ABSENT; break;
		case OP_RENAME_GF: t = st.g; st.g = F_ABSENT; st.f = t; break;
		case OP_UNLINK_F: st.f = F_ABSENT; break;
		case OP_CREATE_F: st.f = F_EMPTY; break;
		}
	}
	return st;
}

static int same(struct state a, struct state b)
{
	return a.p == b.p && a.f == b.f && a.g == b.g;
}

static void fmt_state(char *buf, size_t n, struct state st)
{
	snprintf(buf, n, "P=%s F=%s G=%s", p_names[st.p], f_names[st.f], f_names[st.g]);
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stdout, "ul-crash: ");
	vfprintf(stdout, fmt, ap);
	fprintf(stdout, ": %s\n", strerror(errno));
	va_end(ap);
	fflush(stdout);
	exit(2);
}

static const char *pth(char *buf, const char *base, const char *name)
{
	if (snprintf(buf, PATH_MAX, "%s/%s", base, name) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		die("%s", base);
	}
	return buf;
}

/* ---- the log disk (the ul-seqlog record) ---- */

static char secbuf[SECTOR] __attribute__((aligned(4096)));

static int log_open(int write)
{
	int fd = open(opt_log, write ? O_WRONLY | O_DIRECT | O_SYNC : O_RDONLY | O_DIRECT);

	if (fd < 0)
		die("open %s", opt_log);
	return fd;
}

static void log_write(int fd, unsigned long n)
{
	memset(secbuf, 0, sizeof(secbuf));
	snprintf(secbuf, sizeof(secbuf), "ulseq %lu\n", n);
	if (pwrite(fd, secbuf, SECTOR, 0) != SECTOR)
		die("write %s", opt_log);
}

static unsigned long log_read(void)
{
	unsigned long n;
	int fd = log_open(0);

	if (pread(fd, secbuf, SECTOR, 0) != SECTOR)
		die("read %s", opt_log);
	close(fd);
	if (sscanf(secbuf, "ulseq %lu", &n) != 1)
		return ULONG_MAX;
	return n;
}

/* ---- the workload ---- */

static int sync_fds[2] = { -1, -1 };

static void do_sync(void)
{
	int i;

	for (i = 0; i < 2; i++)
		if (sync_fds[i] >= 0 && syncfs(sync_fds[i]))
			die("syncfs");
}

static void chk(int ret, const char *what, unsigned long k)
{
	if (ret < 0)
		die("op %lu: %s", k, what);
}

static int create_empty(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		return -1;
	return close(fd);
}

/* seq 0: P becomes a directory empty in the union, whiteouts in upper */
static void setup(const char *w)
{
	char p[PATH_MAX], b[PATH_MAX];

	pth(p, w, "P");
	chk(unlink(pth(b, p, "c0")), "unlink P/c0", 0);
	chk(unlink(pth(b, p, "c1")), "unlink P/c1", 0);
}

static void op(const char *w, unsigned long k)
{
	char p[PATH_MAX], f[PATH_MAX], g[PATH_MAX];

	pth(p, w, "P");
	pth(f, w, "F");
	pth(g, w, "G");
	switch (op_of(k)) {
	case OP_RMDIR_P:
		chk(rmdir(p), "rmdir P", k);
		break;
	case OP_MKDIR_P:
		chk(mkdir(p, 0755), "mkdir P", k);
		break;
	case OP_RENAME_FG:
		chk(rename(f, g), "rename F G", k);
		break;
	case OP_RENAME_GF:
		chk(rename(g, f), "rename G F", k);
		break;
	case OP_UNLINK_F:
		chk(unlink(f), "unlink F", k);
		break;
	case OP_CREATE_F:
		chk(create_empty(f), "create F", k);
		break;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run(void)
{
	const char *w = opt_union;
	double end;
	unsigned long k;
	int lfd;

	lfd = log_open(1);
	sync_fds[0] = open(w, O_RDONLY | O_DIRECTORY);
	if (sync_fds[0] < 0)
		die("open %s", w);
	sync_fds[1] = open(opt_upper, O_RDONLY | O_DIRECTORY);
	if (sync_fds[1] < 0)
		die("open %s", opt_upper);
	setup(w);
	do_sync();
	log_write(lfd, 0);
	printf("UL-CUT-WINDOW\n");
	fflush(stdout);
	end = now() + opt_seconds;
	for (k = 1; now() < end; k++) {
		op(w, k);
		do_sync();
		log_write(lfd, k);
	}
	printf("run: %lu ops, the power was not cut\n", k - 1);
	return 0;
}

/* ---- the checker ---- */

static char seen_msg[256];

static int is_whiteout(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(0, 0);
}

static int file_state(const char *path)
{
	char buf[64];
	struct stat st;
	ssize_t n;
	int fd;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return F_ABSENT;
		die("lstat %s", path);
	}
	if (!S_ISREG(st.st_mode))
		return F_OTHER;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open %s", path);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		die("read %s", path);
	close(fd);
	buf[n] = 0;
	if (n == 0)
		return F_EMPTY;
	if (!strcmp(buf, LOWER_F))
		return F_LOWER;
	return F_OTHER;
}

/* names listed by one readdir of DIR (not . and ..), comma separated */
static int list_dir(const char *path, char *out, size_t len, int *dup)
{
	char names[32][NAME_MAX + 1];
	struct dirent *de;
	int cnt = 0, i;
	DIR *d;

	*out = 0;
	*dup = 0;
	d = opendir(path);
	if (!d)
		die("opendir %s", path);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (i = 0; i < cnt; i++)
			if (!strcmp(names[i], de->d_name))
				*dup = 1;
		if (cnt < 32)
			snprintf(names[cnt++], NAME_MAX + 1, "%s", de->d_name);
		snprintf(out + strlen(out), len - strlen(out), "%s%s",
			 *out ? "," : "", de->d_name);
	}
	closedir(d);
	return cnt;
}

static struct state observe(const char *u, char *extra, size_t elen)
{
	char p[PATH_MAX], b[PATH_MAX], names[256];
	struct state st;
	struct stat s;
	int dup;

	*extra = 0;
	st.f = file_state(pth(b, u, "F"));
	st.g = file_state(pth(b, u, "G"));
	if (lstat(pth(p, u, "P"), &s)) {
		if (errno != ENOENT)
			die("lstat %s", p);
		st.p = P_ABSENT;
	} else if (!S_ISDIR(s.st_mode)) {
		st.p = P_OTHER;
	} else if (!list_dir(p, names, sizeof(names), &dup)) {
		st.p = P_EMPTY;
	} else if (!strcmp(names, "c0,c1") || !strcmp(names, "c1,c0") ||
		   !lstat(pth(b, p, "c0"), &s) || !lstat(pth(b, p, "c1"), &s)) {
		st.p = P_LOWER;
	} else {
		st.p = P_OTHER;
		snprintf(extra, elen, "; P lists %s", names);
	}
	/* the root: each name once, nothing but P, F, G */
	list_dir(u, names, sizeof(names), &dup);
	if (dup)
		snprintf(extra + strlen(extra), elen - strlen(extra),
			 "; root lists a name twice: %s", names);
	return st;
}

/* a name absent from the union that the lower has: a whiteout in upper */
static const char *upper_check(struct state st)
{
	static char msg[128];
	char b[PATH_MAX];
	struct stat s;

	if (st.p == P_ABSENT &&
	    (lstat(pth(b, opt_upper, "P"), &s) || !is_whiteout(&s))) {
		snprintf(msg, sizeof(msg), "upper P: not a whiteout");
		return msg;
	}
	if (st.f == F_ABSENT &&
	    (lstat(pth(b, opt_upper, "F"), &s) || !is_whiteout(&s))) {
		snprintf(msg, sizeof(msg), "upper F: not a whiteout");
		return msg;
	}
	return NULL;
}

static int check(void)
{
	char seen[128], e0[128], e1[128], extra[300];
	struct state st, a, b;
	unsigned long s, k;
	const char *up;

	s = log_read();
	if (s == ULONG_MAX) {
		printf("check: no record on %s (the workload never logged)\n", opt_log);
		return 2;
	}
	a = state_after(s);
	b = state_after(s + 1);
	st = observe(opt_union, extra, sizeof(extra));
	fmt_state(seen, sizeof(seen), st);
	snprintf(seen_msg, sizeof(seen_msg), "seq %lu (next: %s)", s, op_names[op_of(s + 1)]);
	up = upper_check(st);
	if (!*extra && !up && (same(st, a) || same(st, b))) {
		printf("check: %s: state after %s\n", seen_msg, same(st, a) ? "S" : "S+1");
		return 0;
	}
	fmt_state(e0, sizeof(e0), a);
	fmt_state(e1, sizeof(e1), b);
	printf("check: %s: VIOLATION: ", seen_msg);
	if (*extra) {
		printf("%s", extra + 2);
	} else if (st.p == P_LOWER) {
		printf("lower content of P visible again");
	} else if ((st.f == F_LOWER && a.f != F_LOWER && b.f != F_LOWER) ||
		   (st.g == F_LOWER && a.g != F_LOWER && b.g != F_LOWER)) {
		printf("lower content of F visible again");
	} else if (!same(st, a) && !same(st, b)) {
		/* an older state: which synced op was lost */
		for (k = s; k >= 1 && k + 2 * NR_OPS > s; k--)
			if (same(st, state_after(k - 1)))
				break;
		if (k >= 1 && k + 2 * NR_OPS > s)
			printf("synced op %lu (%s) lost", k, op_names[op_of(k)]);
		else
			printf("neither before nor after");
	} else {
		printf("%s", up);
	}
	printf("; seen %s; expected %s or %s\n", seen, e0, e1);
	return 1;
}

/* ---- main ---- */

static void usage(void)
{
	fprintf(stderr,
		"usage: ul-crash lower LOWER\n"
		"       ul-crash run --union MNT --upper UPPER --log DEV [--seconds S]\n"
		"       ul-crash check --union MNT --upper UPPER --log DEV\n");
	exit(2);
}

static int make_lower(const char *l)
{
	char p[PATH_MAX], b[PATH_MAX];
	int fd, i;
	static const char *const files[][2] = {
		{ "P/c0", "lower-c0\n" }, { "P/c1", "lower-c1\n" }, { "F", LOWER_F },
	};

	if (mkdir(pth(p, l, "P"), 0755))
		die("mkdir %s", p);
	for (i = 0; i < 3; i++) {
		fd = open(pth(b, l, files[i][0]), O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 || write(fd, files[i][1], strlen(files[i][1])) < 0 || close(fd))
			die("create %s", b);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "union", required_argument, NULL, 'u' },
		{ "upper", required_argument, NULL, 'U' },
		{ "log", required_argument, NULL, 'l' },
		{ "seconds", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd;
	int c;

	if (argc < 2)
		usage();
	cmd = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "lower")) {
		if (argc != 3)
			usage();
		return make_lower(argv[2]);
	}
	optind = 2;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'u': opt_union = optarg; break;
		case 'U': opt_upper = optarg; break;
		case 'l': opt_log = optarg; break;
		case 's': opt_seconds = strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (optind != argc || !opt_union || !opt_upper || !opt_log)
		usage();
	if (!strcmp(cmd, "run"))
		return run();
	if (!strcmp(cmd, "check"))
		return check();
	usage();
	return 2;
}
