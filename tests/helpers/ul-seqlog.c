// SPDX-License-Identifier: GPL-2.0
/*
 * ul-seqlog: a record on a raw disk that survives a power cut, for the
 * crash tests: the workload stores the number of the last operation it
 * completed, the checker after the cut reads it back.
 *
 *   ul-seqlog write DEV N    store N (O_DIRECT | O_SYNC: on the disk
 *                            when the call returns)
 *   ul-seqlog read DEV       print the stored number (0 for a blank disk)
 *   ul-seqlog count DEV N    store 1, 2, ... N in turn (harness self-test)
 *
 * The record is the first 512-byte sector: "ulseq <N>\n", zero padded.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SECTOR 512

static int store(int fd, unsigned long n)
{
	static char buf[SECTOR] __attribute__((aligned(4096)));

	memset(buf, 0, sizeof(buf));
	snprintf(buf, sizeof(buf), "ulseq %lu\n", n);
	if (pwrite(fd, buf, SECTOR, 0) != SECTOR) {
		perror("ul-seqlog: write");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[SECTOR] __attribute__((aligned(4096)));
	unsigned long n, i;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "read")) {
		fd = open(argv[2], O_RDONLY | O_DIRECT);
		if (fd < 0 || pread(fd, buf, SECTOR, 0) != SECTOR) {
			perror("ul-seqlog: read");
			return 1;
		}
		if (sscanf(buf, "ulseq %lu", &n) != 1)
			n = 0;
		printf("%lu\n", n);
		return 0;
	}
	if (argc == 4 && (!strcmp(argv[1], "write") || !strcmp(argv[1], "count"))) {
		fd = open(argv[2], O_WRONLY | O_DIRECT | O_SYNC);
		if (fd < 0) {
			perror("ul-seqlog: open");
			return 1;
		}
		n = strtoul(argv[3], NULL, 0);
		if (argv[1][0] == 'w')
			return store(fd, n) ? 1 : 0;
		for (i = 1; i <= n; i++)
			if (store(fd, i))
				return 1;
		return 0;
	}
	fprintf(stderr, "usage: ul-seqlog write DEV N | read DEV | count DEV N\n");
	return 2;
}
