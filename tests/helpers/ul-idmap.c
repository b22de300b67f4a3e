// SPDX-License-Identifier: GPL-2.0
/*
 * ul-idmap: make an idmapped mount, or try to idmap a mount.
 *
 *   ul-idmap SRC DST NSID:HOSTID:COUNT
 *	clone the mount at SRC, idmap the clone with a new user namespace
 *	whose uid and gid maps are "NSID HOSTID COUNT", attach it at DST
 *   ul-idmap -t SRC NSID:HOSTID:COUNT
 *	only try: clone SRC and idmap the detached clone; print "ok" or the
 *	errno name, then drop the clone
 *
 * The mount's idmapping is the namespace's map: an object owned by NSID
 * on disk shows as owned by HOSTID through the idmapped mount; ids
 * outside NSID..NSID+COUNT-1 show as the overflow id (65534).
 * The user namespace lives in a child that waits on a pipe; its fd is
 * all mount_setattr() needs, so the child exits once the fd is open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __NR_open_tree
#define __NR_open_tree 428
#endif
#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif

static void die(const char *what)
{
	fprintf(stderr, "ul-idmap: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		die(path);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

/* A user namespace with the map @map ("NSID HOSTID COUNT"), as an fd. */
static int userns_fd(const char *map)
{
	int go[2], ready[2], fd;
	char path[64], c;
	pid_t pid;

	if (pipe(go) || pipe(ready))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(go[1]);
		close(ready[0]);
		if (unshare(CLONE_NEWUSER))
			_exit(3);
		if (write(ready[1], "u", 1) != 1)
			_exit(3);
		/* wait until the parent has the namespace's fd */
		if (read(go[0], &c, 1) < 0)
			_exit(3);
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		errno = ECHILD;
		die("unshare(CLONE_NEWUSER) in the child");
	}
	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	write_file(path, map);
	snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
	write_file(path, map);
	snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(path);
	close(go[1]);
	waitpid(pid, NULL, 0);
	return fd;
}

int main(int argc, char **argv)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP };
	unsigned int nsid, hostid, count;
	bool try_only = false;
	const char *src, *spec;
	char map[64];
	int tree;

	if (argc != 4) {
		fprintf(stderr, "usage: ul-idmap SRC DST NSID:HOSTID:COUNT\n"
			"       ul-idmap -t SRC NSID:HOSTID:COUNT\n");
		return 2;
	}
	src = argv[1];
	spec = argv[3];

	if (argc == 4 && !strcmp(argv[1], "-t")) {
		try_only = true;
		src = argv[2];
	}
	if (sscanf(spec, "%u:%u:%u", &nsid, &hostid, &count) != 3) {
		fprintf(stderr, "ul-idmap: bad map '%s' (NSID:HOSTID:COUNT)\n", spec);
		return 2;
	}
	snprintf(map, sizeof(map), "%u %u %u\n", nsid, hostid, count);
	attr.userns_fd = userns_fd(map);
	tree = syscall(__NR_open_tree, AT_FDCWD, src,
		       OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		die("open_tree");
	if (syscall(__NR_mount_setattr, tree, "", AT_EMPTY_PATH, &attr,
		    sizeof(attr))) {
		if (!try_only)
			die("mount_setattr(MOUNT_ATTR_IDMAP)");
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	if (try_only) {
		printf("ok\n");
		return 0;
	}
	if (syscall(__NR_move_mount, tree, "", AT_FDCWD, argv[2],
		    MOVE_MOUNT_F_EMPTY_PATH))
		die("move_mount");
	return 0;
}
