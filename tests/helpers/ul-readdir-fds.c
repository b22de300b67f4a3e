// SPDX-License-Identifier: GPL-2.0
/*
 * ul-readdir-fds: the cost of many open descriptors of one directory.
 *
 *   ul-readdir-fds DIR N
 *
 * Opens DIR N times and reads each descriptor to the end (getdents64,
 * the first read of each), all descriptors open at once; prints
 *
 *   fds N entries E time T s slab +S KiB memfree -M KiB
 *
 * where E is the entries one descriptor read, T the time of the N reads,
 * S the growth of Slab and M the drop of MemFree in /proc/meminfo between
 * before the first open and after the last read (caches dropped before).
 * Exit status 0, or 2 on an error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long meminfo(const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd >= 0) {
		if (write(fd, "3", 1) != 1)
			perror("ul-readdir-fds: drop_caches");
		close(fd);
	}
}

int main(int argc, char **argv)
{
	static char buf[65536];
	long slab0, free0, slab1, free1, entries = 0, e;
	struct timespec t0, t1;
	int n, i, *fds;
	long r;

	if (argc != 3 || (n = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: ul-readdir-fds DIR N\n");
		return 2;
	}
	fds = calloc(n, sizeof(*fds));
	if (!fds)
		return 2;
	drop_caches();
	slab0 = meminfo("Slab");
	free0 = meminfo("MemFree");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		fds[i] = open(argv[1], O_RDONLY | O_DIRECTORY);
		if (fds[i] < 0) {
			fprintf(stderr, "ul-readdir-fds: open %s: %s\n", argv[1],
				strerror(errno));
			return 2;
		}
		e = 0;
		while ((r = syscall(SYS_getdents64, fds[i], buf, sizeof(buf))) > 0) {
			long off = 0;

			while (off < r) {
				struct dirent64 *d = (struct dirent64 *)(buf + off);

				e++;
				off += d->d_reclen;
			}
		}
		if (r < 0) {
			fprintf(stderr, "ul-readdir-fds: getdents64: %s\n", strerror(errno));
			return 2;
		}
		entries = e;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	slab1 = meminfo("Slab");
	free1 = meminfo("MemFree");
	printf("fds %d entries %ld time %.2f s slab %+ld KiB memfree -%ld KiB\n",
	       n, entries, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       slab1 - slab0, free0 - free1);
	for (i = 0; i < n; i++)
		close(fds[i]);
	return 0;
}
