// SPDX-License-Identifier: GPL-2.0
/*
 * ul-rename-stress: random RENAME_EXCHANGE and RENAME_WHITEOUT renames
 * between files and directories of a small tree, then a consistency walk.
 *
 *   ul-rename-stress DIR OPS SEED
 *
 * DIR is an empty directory. The tree starts as four directories d0..d3,
 * each holding files a, b, c and directories e, f (each with one file x).
 Every step draws paths from a fixed pool of names at depth one and two
 * (d<i>/<n>, d<i>/<m>/<n>) and does one of: exchange two existing ones
 * (60%), rename an existing one over any pool name leaving a whiteout
 * (30%), or remove a pool name if it is a whiteout or an empty directory
 * (10%). Errors (ENOENT, ENOTDIR, EINVAL for a directory moved into
 * itself, EISDIR, ENOTEMPTY, ...) are expected and counted.
 *
 * At the end the tree is walked: every directory's link count must be 2
 * plus its subdirectories, every regular file's 1, every ".." the
 * directory that holds it, every whiteout 0/0, and the files' contents
 * must be those created at the start less those renamed over (a rename
 * never loses or duplicates data otherwise).
 *
 * Output: the counts of results per operation, the final census, a
 * checksum of the final tree (names, types, contents: the same seed on
 * two filesystems with the same rename semantics gives the same
 * checksum), and "consistent: yes" or the inconsistencies found. Exit
 * status 1 when the tree is inconsistent.
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
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

#define NTOP 4
#define MAXERR 140

static const char *const top_names[NTOP] = { "d0", "d1", "d2", "d3" };
static const char *const leaf_names[] = { "a", "b", "c", "e", "f", "g" };
#define NLEAF (sizeof(leaf_names) / sizeof(leaf_names[0]))
static const char *const sub_names[] = { "e", "f" };
#define NSUB 2

static char pool[NTOP * NLEAF * (1 + NSUB)][32];
static unsigned int npool;

/* counts[op][errno], op 0 exchange, 1 whiteout, 2 remove */
static unsigned long counts[3][MAXERR];
static const char *const op_names[3] = { "exchange", "whiteout", "remove" };

static unsigned long long checksum = 1469598103934665603ULL;
static unsigned long content_sum, nfiles, ndirs, nwhiteouts, nbad;
static unsigned long expected_content_sum;

static void hash_str(const char *s)
{
	for (; *s; s++) {
		checksum ^= (unsigned char)*s;
		checksum *= 1099511628211ULL;
	}
	checksum ^= 0xff;
	checksum *= 1099511628211ULL;
}

static unsigned int rnd(void)
{
	return (unsigned int)random();
}

static void die(const char *what, const char *path)
{
	fprintf(stderr, "ul-rename-stress: %s %s: %s\n", what, path,
		strerror(errno));
	exit(2);
}

static void make_file(const char *path, unsigned long id)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die("create", path);
	fprintf(f, "%lu\n", id);
	if (fclose(f))
		die("write", path);
	expected_content_sum += id * id + 1;
}

static void setup(void)
{
	char p[64];
	unsigned long id = 1;
	unsigned int i, j;

	for (i = 0; i < NTOP; i++) {
		if (mkdir(top_names[i], 0755))
			die("mkdir", top_names[i]);
		for (j = 0; j < 3; j++) {
			snprintf(p, sizeof(p), "%s/%s", top_names[i], leaf_names[j]);
			make_file(p, id++);
		}
		for (j = 0; j < NSUB; j++) {
			snprintf(p, sizeof(p), "%s/%s", top_names[i], sub_names[j]);
			if (mkdir(p, 0755))
				die("mkdir", p);
			snprintf(p, sizeof(p), "%s/%s/x", top_names[i], sub_names[j]);
			make_file(p, id++);
		}
	}
	for (i = 0; i < NTOP; i++) {
		for (j = 0; j < NLEAF; j++) {
			snprintf(pool[npool++], sizeof(pool[0]), "%s/%s",
				 top_names[i], leaf_names[j]);
		}
		for (j = 0; j < NSUB * NLEAF; j++) {
			snprintf(pool[npool++], sizeof(pool[0]), "%s/%s/%s",
				 top_names[i], sub_names[j / NLEAF],
				 leaf_names[j % NLEAF]);
		}
	}
}

static void count(int op, int ret)
{
	int e = ret ? errno : 0;

	counts[op][e < MAXERR ? e : MAXERR - 1]++;
}

static unsigned long file_id(const char *path)
{
	unsigned long id = 0;
	FILE *f = fopen(path, "r");

	if (!f || fscanf(f, "%lu", &id) != 1)
		die("read", path);
	fclose(f);
	return id;
}

/* a random pool name that exists and is not a whiteout (a few tries) */
static const char *pick_existing(void)
{
	struct stat st;
	const char *p;
	int tries;

	for (tries = 0; tries < 16; tries++) {
		p = pool[rnd() % npool];
		if (!lstat(p, &st) && !S_ISCHR(st.st_mode))
			return p;
	}
	return p;
}

static void step(void)
{
	const char *p = pick_existing();
	unsigned int kind = rnd() % 10;
	const char *q = kind < 6 ? pick_existing() : pool[rnd() % npool];
	unsigned long lost = 0;
	struct stat st;
	int ret;

	if (kind < 6) {
		ret = syscall(SYS_renameat2, AT_FDCWD, p, AT_FDCWD, q,
			      RENAME_EXCHANGE);
		count(0, ret);
	} else if (kind < 9) {
		/* a file renamed over is gone: take it off the books */
		if (!lstat(q, &st) && S_ISREG(st.st_mode))
			lost = file_id(q);
		ret = syscall(SYS_renameat2, AT_FDCWD, p, AT_FDCWD, q,
			      RENAME_WHITEOUT);
		count(1, ret);
		if (!ret && lost && strcmp(p, q))
			expected_content_sum -= lost * lost + 1;
	} else {
		ret = lstat(q, &st);
		if (!ret && S_ISCHR(st.st_mode))
			ret = unlink(q);
		else if (!ret && S_ISDIR(st.st_mode))
			ret = rmdir(q);
		count(2, ret);
	}
}

/* walk DIR (a path relative to the start), checking as described above */
static void walk(const char *dir)
{
	struct dirent **ents;
	struct stat st, dd, self;
	char p[512];
	unsigned long subdirs = 0;
	int n, i;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		die("scandir", dir);
	if (lstat(dir, &self))
		die("lstat", dir);
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;

		if (!strcmp(name, ".") || !strcmp(name, "..")) {
			free(ents[i]);
			continue;
		}
		snprintf(p, sizeof(p), "%s/%s", dir, name);
		if (lstat(p, &st))
			die("lstat", p);
		if (S_ISDIR(st.st_mode)) {
			subdirs++;
			ndirs++;
			hash_str(p);
			hash_str("dir");
			snprintf(p, sizeof(p), "%s/%s/..", dir, name);
			if (stat(p, &dd))
				die("stat", p);
			if (dd.st_ino != self.st_ino) {
				printf("bad: %s/%s/.. is not %s\n", dir, name, dir);
				nbad++;
			}
			snprintf(p, sizeof(p), "%s/%s", dir, name);
			walk(p);
		} else if (S_ISCHR(st.st_mode)) {
			nwhiteouts++;
			hash_str(p);
			hash_str("whiteout");
			if (major(st.st_rdev) || minor(st.st_rdev)) {
				printf("bad: %s is chr %u:%u\n", p,
				       major(st.st_rdev), minor(st.st_rdev));
				nbad++;
			}
		} else if (S_ISREG(st.st_mode)) {
			unsigned long id = file_id(p);

			nfiles++;
			content_sum += id * id + 1;
			hash_str(p);
			snprintf(p, sizeof(p), "%lu", id);
			hash_str(p);
			if (st.st_nlink != 1) {
				printf("bad: %s/%s has %lu links\n", dir, name,
				       (unsigned long)st.st_nlink);
				nbad++;
			}
		} else {
			printf("bad: %s has an unexpected type\n", p);
			nbad++;
		}
		free(ents[i]);
	}
	free(ents);
	if (self.st_nlink != 2 + subdirs) {
		printf("bad: %s has %lu links, %lu subdirectories\n", dir,
		       (unsigned long)self.st_nlink, subdirs);
		nbad++;
	}
}

int main(int argc, char **argv)
{
	unsigned long ops, i;
	int op, e;

	if (argc != 4) {
		fprintf(stderr, "usage: ul-rename-stress DIR OPS SEED\n");
		return 2;
	}
	if (chdir(argv[1]))
		die("chdir", argv[1]);
	ops = strtoul(argv[2], NULL, 0);
	srandom(strtoul(argv[3], NULL, 0));
	setup();
	for (i = 0; i < ops; i++)
		step();

	for (op = 0; op < 3; op++) {
		printf("%s:", op_names[op]);
		for (e = 0; e < MAXERR; e++) {
			if (counts[op][e])
				printf(" %s=%lu", e ? strerrorname_np(e) : "ok",
				       counts[op][e]);
		}
		printf("\n");
	}
	walk(".");
	printf("census: %lu dirs, %lu files, %lu whiteouts\n", ndirs, nfiles,
	       nwhiteouts);
	if (content_sum != expected_content_sum) {
		printf("bad: file contents lost or duplicated\n");
		nbad++;
	}
	printf("tree checksum: %016llx\n", checksum);
	printf("consistent: %s\n", nbad ? "NO" : "yes");
	return nbad ? 1 : 0;
}
