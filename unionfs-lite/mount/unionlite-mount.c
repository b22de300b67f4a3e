// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite-mount: mount a unionlite union for a program that hands its
 * mounts to a helper (containers/storage's mount_program, which podman
 * and buildah use), or for mount(8) as /sbin/mount.unionlite.
 *
 *   unionlite-mount -o OPTIONS TARGET
 *   unionlite-mount SOURCE TARGET -o OPTIONS      (mount(8)'s order)
 *   unionlite-mount --version | --help
 *
 * OPTIONS are the union's (docs/unionlite.md) and mount(8)'s flag words
 * (ro, nodev, ...); empty ones (",,") are skipped. What unionlite cannot
 * honour is refused before anything is mounted: the ID shifting of
 * fuse-overlayfs (uidmapping=, gidmapping=, squash_to_uid=,
 * squash_to_gid=, squash_to_root) and its xattr_permissions=.
 *
 * Layers written for a mount program hold their whiteouts in the AUFS
 * form (containers/storage writes them so for fuse-overlayfs), so the
 * union is mounted with aufs_whiteouts unless OPTIONS say
 * noaufs_whiteouts (or aufs_whiteouts).
 *
 * The kernel takes at most a page of options. A longer string has its
 * lower layers made relative to their longest common directory, which
 * becomes the working directory of the mount(2) call; a string still
 * too long is refused.
 *
 * A union's upper and work directories serve one union. Mounted again
 * with the same layers (containers/storage does so for a diff of a
 * mounted layer), the union that uses them is bind-mounted at TARGET:
 * one union, seen at both places, each unmounted on its own. Other
 * layers over a used upper are refused.
 *
 * Exit status: 0 mounted; 1 wrong usage or a refused option; 32 the
 * mount failed (mount(8)'s codes). Messages go to stderr, with the
 * kernel's own about the mount when /dev/kmsg can be read.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifndef UL_VERSION
#define UL_VERSION "unknown"
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define EXIT_USAGE	1
#define EXIT_FAIL	32

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		warnx("out of memory");
		exit(EXIT_FAIL);
	}
	return p;
}

static int show_usage(void)
{
	fprintf(stderr,
		"usage: %s -o OPTIONS TARGET\n"
		"       %s SOURCE TARGET -o OPTIONS\n"
		"       %s --version\n"
		"OPTIONS: lowerdir=L1:L2,upperdir=U,workdir=W and the union's others\n",
		program_invocation_short_name, program_invocation_short_name,
		program_invocation_short_name);
	return EXIT_USAGE;
}

/* mount(8)'s flag words: set or clear a MS_ flag */
static const struct {
	const char *name;
	unsigned long flag;
	bool clear;
} flag_words[] = {
	{ "ro", MS_RDONLY, false },	{ "rw", MS_RDONLY, true },
	{ "nosuid", MS_NOSUID, false },	{ "suid", MS_NOSUID, true },
	{ "nodev", MS_NODEV, false },	{ "dev", MS_NODEV, true },
	{ "noexec", MS_NOEXEC, false },	{ "exec", MS_NOEXEC, true },
	{ "noatime", MS_NOATIME, false }, { "atime", MS_NOATIME, true },
	{ "nodiratime", MS_NODIRATIME, false },
	{ "diratime", MS_NODIRATIME, true },
	{ "relatime", MS_RELATIME, false },
	{ "norelatime", MS_RELATIME, true },
	{ "strictatime", MS_STRICTATIME, false },
	{ "sync", MS_SYNCHRONOUS, false }, { "async", MS_SYNCHRONOUS, true },
	{ "dirsync", MS_DIRSYNC, false },
	{ "lazytime", MS_LAZYTIME, false },
	{ "nolazytime", MS_LAZYTIME, true },
	{ "silent", MS_SILENT, false }, { "loud", MS_SILENT, true },
	{ "defaults", 0, false },
};

/* fuse-overlayfs's options that ask for what the kernel union cannot do */
static const struct {
	const char *key;
	const char *why;
} refused[] = {
	{ "uidmapping", "unionlite shows the layers' own IDs and shifts none" },
	{ "gidmapping", "unionlite shows the layers' own IDs and shifts none" },
	{ "squash_to_uid", "unionlite shows every file's real owner" },
	{ "squash_to_gid", "unionlite shows every file's real group" },
	{ "squash_to_root", "unionlite shows every file's real owner" },
	{ "xattr_permissions", "unionlite keeps modes in the inode, not in xattrs" },
};

/* The mount's parts: flags, the layer options and the rest. */
struct opts {
	unsigned long flags;
	char *lowerdir;		/* escaped as given */
	char *upperdir;
	char *workdir;
	char *rest;		/* the other options, comma-separated */
	size_t restlen;
	bool aufs_given;	/* [no]aufs_whiteouts among them */
};

/* Append @tok to @o->rest. */
static void add_rest(struct opts *o, const char *tok)
{
	size_t n = strlen(tok);
	char *p = xmalloc(o->restlen + n + 2);

	if (o->restlen)
		memcpy(p, o->rest, o->restlen);
	free(o->rest);
	if (o->restlen)
		p[o->restlen++] = ',';
	memcpy(p + o->restlen, tok, n + 1);
	o->restlen += n;
	o->rest = p;
}

/* One option: a flag word, a layer, refused, or passed on. */
static int take_option(struct opts *o, char *tok)
{
	size_t klen = strcspn(tok, "=");
	char **slot = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flag_words); i++) {
		if (strcmp(tok, flag_words[i].name))
			continue;
		if (flag_words[i].clear)
			o->flags &= ~flag_words[i].flag;
		else
			o->flags |= flag_words[i].flag;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		if (strlen(refused[i].key) == klen &&
		    !strncmp(tok, refused[i].key, klen)) {
			warnx("option '%s' refused: %s", tok, refused[i].why);
			return -1;
		}
	}
	if (!strncmp(tok, "lowerdir=", 9))
		slot = &o->lowerdir;
	else if (!strncmp(tok, "upperdir=", 9))
		slot = &o->upperdir;
	else if (!strncmp(tok, "workdir=", 8))
		slot = &o->workdir;
	if (!slot) {
		if (!strcmp(tok, "aufs_whiteouts") ||
		    !strcmp(tok, "noaufs_whiteouts"))
			o->aufs_given = true;
		add_rest(o, tok);
		return 0;
	}
	if (*slot) {
		warnx("option '%.*s' given more than once", (int)klen, tok);
		return -1;
	}
	*slot = strdup(tok + klen + 1);
	if (!*slot) {
		warnx("out of memory");
		return -1;
	}
	return 0;
}

/*
 * Split @s at each comma no backslash escapes (the union's rule) and
 * take each non-empty option.
 */
static int parse_options(struct opts *o, char *s)
{
	char *tok = s, *p;

	for (p = s; ; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p && *p != ',')
			continue;
		if (p > tok) {
			char c = *p;

			*p = '\0';
			if (take_option(o, tok))
				return -1;
			*p = c;
		}
		if (!*p)
			return 0;
		tok = p + 1;
	}
}

/*
 * The paths of a layer option: backslash escapes removed, split at each
 * colon no backslash escapes when @layers. Returns how many, in *@out.
 */
static size_t split_paths(const char *s, bool layers, char ***out)
{
	size_t n = 1, i = 0;
	char **v, *q;
	const char *p;

	for (p = s; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == ':' && layers)
			n++;
	}
	v = xmalloc(n * sizeof(*v));
	q = xmalloc(strlen(s) + 1);
	v[0] = q;
	for (p = s; *p; p++) {
		if (*p == '\\' && p[1]) {
			*q++ = *++p;
		} else if (*p == ':' && layers) {
			*q++ = '\0';
			v[++i] = q;
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	*out = v;
	return n;
}

/* @path escaped for a layer option: a backslash before , : and \ */
static char *escape_path(const char *path)
{
	char *e = xmalloc(2 * strlen(path) + 1), *q = e;

	for (; *path; path++) {
		if (*path == ',' || *path == ':' || *path == '\\')
			*q++ = '\\';
		*q++ = *path;
	}
	*q = '\0';
	return e;
}

/* The mount(2) data: the layers first, then the rest. */
static char *build_data(const struct opts *o)
{
	size_t n = 64 + o->restlen;
	char *d;

	n += o->lowerdir ? strlen(o->lowerdir) : 0;
	n += o->upperdir ? strlen(o->upperdir) : 0;
	n += o->workdir ? strlen(o->workdir) : 0;
	d = xmalloc(n);
	d[0] = '\0';
	if (o->lowerdir)
		strcat(strcat(d, ",lowerdir="), o->lowerdir);
	if (o->upperdir)
		strcat(strcat(d, ",upperdir="), o->upperdir);
	if (o->workdir)
		strcat(strcat(d, ",workdir="), o->workdir);
	if (o->restlen)
		strcat(strcat(d, ","), o->rest);
	memmove(d, d + 1, strlen(d));	/* the first comma */
	return d;
}

/*
 * The longest directory all of @n absolute @paths are in or are, as a
 * length of @paths[0]; 0 when that is the root.
 */
static size_t common_dir(char **paths, size_t n)
{
	size_t len = strlen(paths[0]), i, j;

	for (i = 1; i < n; i++) {
		for (j = 0; j < len && paths[i][j] == paths[0][j]; j++)
			;
		len = j;
	}
	for (; len > 1; len--) {
		for (i = 0; i < n; i++) {
			if (paths[i][len] != '/' && paths[i][len] != '\0')
				break;
		}
		if (i == n && paths[0][len - 1] != '/')
			return len;
	}
	return 0;
}

/*
 * Too long for the kernel: the lower layers relative to their longest
 * common directory, which becomes the working directory. Returns 0 when
 * @o->lowerdir was rewritten, -1 when there is nothing to shorten.
 */
static int shorten_lowers(struct opts *o)
{
	size_t n, i, common = 0, len = 0;
	char **v, *dir, *q, *e;
	int ret = -1;

	n = split_paths(o->lowerdir, true, &v);
	for (i = 0; i < n && v[i][0] == '/'; i++)
		;
	if (i == n)
		common = common_dir(v, n);
	if (!common)
		goto out;
	dir = strndup(v[0], common);
	if (!dir || chdir(dir)) {
		warnx("cannot change into %s: %s", dir ? dir : "?",
		      strerror(errno));
		exit(EXIT_FAIL);
	}
	free(dir);
	for (i = 0; i < n; i++)
		len += 2 * strlen(v[i] + common) + 2;
	q = xmalloc(len + 1);
	q[0] = '\0';
	for (i = 0; i < n; i++) {
		/* the directory itself is ".", "DIR/x" is "x" */
		e = escape_path(v[i][common] ? v[i] + common + 1 : ".");
		if (i)
			strcat(q, ":");
		strcat(q, e);
		free(e);
	}
	free(o->lowerdir);
	o->lowerdir = q;
	ret = 0;
out:
	free(v[0]);
	free(v);
	return ret;
}

/* Undo the octal escapes of /proc/self/mountinfo in place. */
static void unoctal(char *s)
{
	char *q = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*q++ = (s[1] - '0') * 64 + (s[2] - '0') * 8 + s[3] - '0';
			s += 3;
		} else {
			*q++ = *s;
		}
	}
	*q = '\0';
}

/* The value of KEY= in a super block option list, in a new string. */
static char *super_opt(const char *opts, const char *key)
{
	size_t k = strlen(key);
	const char *p = opts, *end;

	while (p && *p) {
		if (!strncmp(p, key, k) && p[k] == '=') {
			p += k + 1;
			end = strchr(p, ',');
			return strndup(p, end ? (size_t)(end - p) : strlen(p));
		}
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return NULL;
}

/* Do two layer options name the same directories? */
static bool same_layers(const char *a, const char *b, bool layers)
{
	char **va, **vb;
	size_t na, nb, i;
	bool same;
	struct stat sa, sb;

	if (!a || !b)
		return !a && !b;
	na = split_paths(a, layers, &va);
	nb = split_paths(b, layers, &vb);
	same = na == nb;
	for (i = 0; same && i < na; i++) {
		if (va[i][0] != '/' || vb[i][0] != '/')
			same = !strcmp(va[i], vb[i]);
		else
			same = !stat(va[i], &sa) && !stat(vb[i], &sb) &&
			       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	}
	free(va[0]);
	free(va);
	free(vb[0]);
	free(vb);
	return same;
}

/*
 * The upper is in use: find the unionlite mount that uses it. Returns
 * its mount point (reachable: the union is what the path shows) when
 * its layers are @o's, NULL otherwise; *@other says a union with other
 * layers uses the upper.
 */
static char *find_union(const struct opts *o, bool *other)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL, *found = NULL;
	size_t cap = 0;

	*other = false;
	if (!f)
		return NULL;
	while (!found && getline(&line, &cap, f) > 0) {
		char mp[PATH_MAX], fstype[64], *sep, *sopts, *up, *wk, *lo;
		unsigned int maj, min;
		struct stat st;

		line[strcspn(line, "\n")] = '\0';
		sep = strstr(line, " - ");
		if (!sep ||
		    sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, mp) != 3 ||
		    sscanf(sep, " - %63s %*s", fstype) != 1 ||
		    strcmp(fstype, "unionlite"))
			continue;
		sopts = strrchr(sep, ' ') + 1;
		up = super_opt(sopts, "upperdir");
		wk = super_opt(sopts, "workdir");
		lo = super_opt(sopts, "lowerdir");
		if (up)
			unoctal(up);
		if (wk)
			unoctal(wk);
		if (lo)
			unoctal(lo);
		if (up && same_layers(up, o->upperdir, false)) {
			if (same_layers(wk, o->workdir, false) &&
			    same_layers(lo, o->lowerdir, true)) {
				unoctal(mp);
				if (!stat(mp, &st) && st.st_dev == makedev(maj, min))
					found = strdup(mp);
			} else {
				*other = true;
			}
		}
		free(up);
		free(wk);
		free(lo);
	}
	free(line);
	fclose(f);
	return found;
}

/* The kernel's lines about the mount, from the end @kmsg was set to. */
static void kernel_says(int kmsg)
{
	char rec[2048];
	ssize_t n;

	if (kmsg < 0)
		return;
	while ((n = read(kmsg, rec, sizeof(rec) - 1)) > 0) {
		char *text = strchr(rec, ';');

		rec[n] = '\0';
		if (!text)
			continue;
		text++;
		text[strcspn(text, "\n")] = '\0';
		if (!strncmp(text, "unionlite: ", 11))
			warnx("kernel: %s", text);
	}
}

int main(int argc, char **argv)
{
	const char *pos[2] = { NULL, NULL }, *source = "unionlite", *target;
	struct opts o = { 0 };
	char *all = NULL, *data, *mp;
	size_t npos = 0, alllen = 0;
	long page = sysconf(_SC_PAGESIZE);
	bool other;
	int i, kmsg;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--version")) {
			printf("unionlite-mount %s\n", UL_VERSION);
			return 0;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			show_usage();
			return 0;
		}
		if (!strncmp(argv[i], "-o", 2)) {
			const char *v = argv[i][2] ? argv[i] + 2 : argv[++i];
			size_t n;

			if (!v)
				return show_usage();
			n = strlen(v);
			all = realloc(all, alllen + n + 2);
			if (!all)
				return EXIT_FAIL;
			if (alllen)
				all[alllen++] = ',';
			memcpy(all + alllen, v, n + 1);
			alllen += n;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			/* mount(8) passes -n, -s, -v, -f: nothing to do */
			if (strchr("nsvf", argv[i][1]) && !argv[i][2])
				continue;
			warnx("unknown argument '%s'", argv[i]);
			return show_usage();
		} else if (npos < 2) {
			pos[npos++] = argv[i];
		} else {
			warnx("one TARGET (or SOURCE TARGET), not more");
			return show_usage();
		}
	}
	if (!npos || !all)
		return show_usage();
	target = pos[npos - 1];
	if (npos == 2)
		source = pos[0];
	if (parse_options(&o, all))
		return EXIT_USAGE;
	if (!o.aufs_given)
		add_rest(&o, "aufs_whiteouts");
	if (!o.lowerdir) {
		warnx("no lowerdir= among the options");
		return EXIT_USAGE;
	}
	data = build_data(&o);
	if ((long)strlen(data) >= page) {
		if (shorten_lowers(&o) == 0) {
			free(data);
			data = build_data(&o);
		}
		if ((long)strlen(data) >= page) {
			warnx("the options take %zu bytes, the kernel %ld at most",
			      strlen(data), page - 1);
			warnx("(with the lower layers relative to their common directory)");
			return EXIT_USAGE;
		}
	}

	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
	if (!mount(source, target, "unionlite", o.flags, data))
		return 0;
	if (errno == EBUSY && o.upperdir) {
		int err = errno;

		mp = find_union(&o, &other);
		if (mp && !mount(mp, target, NULL, MS_BIND, NULL)) {
			if (!(o.flags & ~MS_SILENT))
				return 0;
			/* a bind mount's flags are set by a remount of it */
			if (!mount(NULL, target, NULL,
				   MS_REMOUNT | MS_BIND | o.flags, NULL))
				return 0;
			warnx("cannot set the flags of the bind mount at %s: %s",
			      target, strerror(errno));
			umount2(target, MNT_DETACH);
			return EXIT_FAIL;
		}
		if (mp) {
			warnx("cannot bind the union at %s to %s: %s", mp, target,
			      strerror(errno));
			return EXIT_FAIL;
		}
		errno = err;
		if (other)
			warnx("upperdir %s is used by a union of other layers",
			      o.upperdir);
	}
	if (errno == ENODEV)
		warnx("the kernel has no unionlite filesystem: load unionlite.ko first");
	else
		warnx("mount of %s failed: %s", target, strerror(errno));
	kernel_says(kmsg);
	return EXIT_FAIL;
}
