// SPDX-License-Identifier: GPL-2.0
/*
 * ul-rename: call renameat2(2) once and print the outcome.
 *
 *   ul-rename [-n] [-x] [-w] OLD NEW
 *
 * -n RENAME_NOREPLACE, -x RENAME_EXCHANGE, -w RENAME_WHITEOUT (combinable).
 * Prints "ok" or the errno's name (ENOENT, EINVAL, ...) on stdout and exits
 * 0 either way: the outcome is data for the golden output. Exit status 2
 * means bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

int main(int argc, char **argv)
{
	unsigned int flags = 0;
	int opt;

	while ((opt = getopt(argc, argv, "nxw")) != -1) {
		switch (opt) {
		case 'n':
			flags |= RENAME_NOREPLACE;
			break;
		case 'x':
			flags |= RENAME_EXCHANGE;
			break;
		case 'w':
			flags |= RENAME_WHITEOUT;
			break;
		default:
			fprintf(stderr, "usage: ul-rename [-n] [-x] [-w] OLD NEW\n");
			return 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: ul-rename [-n] [-x] [-w] OLD NEW\n");
		return 2;
	}
	if (syscall(SYS_renameat2, AT_FDCWD, argv[optind], AT_FDCWD,
		    argv[optind + 1], flags) == 0)
		puts("ok");
	else
		puts(strerrorname_np(errno));
	return 0;
}
