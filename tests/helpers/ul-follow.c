// SPDX-License-Identifier: GPL-2.0
/*
 * ul-follow: what a descriptor opened read-only before a copy-up reads
 * after another process changed the file.
 *
 *   ul-follow [as UID GID] PATH write|trunc|chmod-append|none
 *
 * Opens PATH read-only, reads it and maps it, then a child process
 * changes the file: "write" opens it O_WRONLY and writes "UPPER" at
 * offset 0; "trunc" opens it O_WRONLY|O_TRUNC and writes "new"; "chmod-
 * append" chmods it 0600 (a copy-up without a data change), then appends
 * "+tail" through an O_APPEND descriptor; "none" changes nothing. Then,
 * on the first descriptor: pread at 0, the mapping made before, a new
 * mapping, splice into a pipe, lseek(SEEK_END), fstat and fsync, one
 * line each. Contents print as at most 32 bytes, a newline as \n, a
 * zero byte (a mapping past the end of the file it maps) as \0. "as
 * UID GID" drops the supplementary groups and runs all of it (the child
 * too) as UID. Exit status 0 unless the usage is wrong (2) or a call the
 * output does not show failed (1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SHOW 32

static void show(const char *what, const char *buf, ssize_t n)
{
	if (n < 0) {
		printf("%s: %s\n", what, strerrorname_np(errno));
		return;
	}
	printf("%s: \"", what);
	for (ssize_t i = 0; i < n && i < SHOW; i++) {
		if (buf[i] == '\n')
			printf("\\n");
		else if (!buf[i])
			printf("\\0");
		else
			putchar(buf[i]);
	}
	printf("\"\n");
}

static int child(const char *path, const char *how)
{
	int fd;

	if (!strcmp(how, "write")) {
		fd = open(path, O_WRONLY);
		if (fd < 0 || pwrite(fd, "UPPER", 5, 0) != 5)
			return 1;
	} else if (!strcmp(how, "trunc")) {
		fd = open(path, O_WRONLY | O_TRUNC);
		if (fd < 0 || write(fd, "new", 3) != 3)
			return 1;
	} else if (!strcmp(how, "chmod-append")) {
		if (chmod(path, 0600))
			return 1;
		fd = open(path, O_WRONLY | O_APPEND);
		if (fd < 0 || write(fd, "+tail", 5) != 5)
			return 1;
	} else {
		return 0;
	}
	return close(fd) ? 1 : 0;
}

static void show_map(const char *what, const char *map, size_t len)
{
	if (map == MAP_FAILED) {
		printf("%s: %s\n", what, strerrorname_np(errno));
		return;
	}
	show(what, map, len);
}

int main(int argc, char **argv)
{
	char buf[256];
	const char *path, *how;
	char *before_map, *after_map;
	int fd, status, p[2];
	struct stat st;
	ssize_t n;
	pid_t pid;

	if (argc == 6 && !strcmp(argv[1], "as")) {
		if (setgroups(0, NULL) || setgid(atoi(argv[3])) ||
		    setuid(atoi(argv[2]))) {
			perror("ul-follow: as");
			return 1;
		}
		argc -= 3;
		argv += 3;
	}
	if (argc != 3)
		goto usage;
	path = argv[1];
	how = argv[2];
	if (strcmp(how, "write") && strcmp(how, "trunc") &&
	    strcmp(how, "chmod-append") && strcmp(how, "none"))
		goto usage;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("open: %s\n", strerrorname_np(errno));
		return 1;
	}
	n = pread(fd, buf, sizeof(buf), 0);
	show("before: read", buf, n);
	before_map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (before_map == MAP_FAILED)
		return 1;

	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid)
		_exit(child(path, how));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	printf("%s by another process: %s\n", how,
	       WEXITSTATUS(status) ? "FAILED" : "ok");

	n = pread(fd, buf, sizeof(buf), 0);
	show("read", buf, n);
	if (fstat(fd, &st))
		return 1;
	/* a mapping shows zeros past the end of the file: up to the size */
	show_map("the mapping made before", before_map,
		 st.st_size < 4096 ? st.st_size : 4096);
	after_map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	show_map("a new mapping", after_map,
		 st.st_size < 4096 ? st.st_size : 4096);
	if (pipe(p))
		return 1;
	{
		loff_t off = 0;

		n = splice(fd, &off, p[1], NULL, sizeof(buf), 0);
		if (n >= 0)
			n = read(p[0], buf, n);
		show("splice", buf, n);
	}
	printf("lseek SEEK_END: %lld\n", (long long)lseek(fd, 0, SEEK_END));
	printf("fstat: size %lld\n", (long long)st.st_size);
	printf("fsync: %s\n", fsync(fd) ? strerrorname_np(errno) : "ok");
	return close(fd) ? 1 : 0;
usage:
	fprintf(stderr,
		"usage: ul-follow [as UID GID] PATH write|trunc|chmod-append|none\n");
	return 2;
}
