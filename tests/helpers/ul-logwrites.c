// SPDX-License-Identifier: GPL-2.0
/*
 * ul-logwrites: read the log that device-mapper's log-writes target keeps
 * (Documentation/admin-guide/device-mapper/log-writes.rst) and rebuild
 * the image a disk held after any entry of it, for tests/crash-states.
 *
 *   ul-logwrites list LOG [FIRST [LAST]]
 *   ul-logwrites find LOG MARK
 *   ul-logwrites replay LOG IMAGE --to N [--from M] [--base BASE] [--size BYTES]
 *   ul-logwrites flush DEV
 *   ul-logwrites copy BASE IMAGE
 *
 * The log: the superblock in its first sector (magic, version, the number
 * of entries, the sector size of the logged device), then the entries in
 * the order the writes reached the disk. An entry is one header sector
 * (the first sector written, the number of sectors, flags, the length of
 * a mark's text, which follows the header in the same sector), then,
 * except for discards and marks, the data written. The target logs a
 * write once a later flush has completed, so entries between two flush
 * entries are in the order they completed, and a flush entry follows
 * every write it made durable. Flags: 1 flush, 2 FUA, 4 discard, 8 mark,
 * 16 metadata.
 *
 * list: one line per entry from FIRST (default 0) to LAST (default the
 * last), "INDEX FLAGS SECTOR COUNT[ MARK]", FLAGS a "+"-joined list of
 * write, flush, fua, discard, mark, meta (a flush without data is
 * "flush", one with data "write+flush").
 *
 * find: the index of the first mark entry whose text is MARK.
 *
 * replay: applies entries M (default 0) to N, both included, to IMAGE in
 * order: a write's data at its sector, a discard as zeros (a hole). With
 * BASE, IMAGE is made anew first as a copy of BASE (its data extents
 * only: the copy stays as sparse as BASE); with --size, IMAGE is made
 * anew, empty and sparse, of that size. Otherwise IMAGE is changed in
 * place. The result is the disk as it was once entry N had reached it.
 *
 * flush: fsync(2) on a block device, which sends the device a flush: the
 * writes it has completed are logged before any mark that follows.
 *
 * copy: IMAGE made anew as a copy of BASE, as replay's --base does.
 *
 * Exit status: 0, 1 for find when there is no such mark, 2 on error
 * (usage, I/O, a log that is not one or is cut short).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LW_MAGIC	0x6a736677736872ULL
#define LW_VERSION	1
#define LW_FLUSH	(1 << 0)
#define LW_FUA		(1 << 1)
#define LW_DISCARD	(1 << 2)
#define LW_MARK		(1 << 3)
#define LW_META		(1 << 4)

/* the header as it is on the log device, little-endian */
struct lw_super {
	uint64_t magic;
	uint64_t version;
	uint64_t nr_entries;
	uint32_t sectorsize;
} __attribute__((packed));

struct lw_entry {
	uint64_t sector;
	uint64_t nr_sectors;
	uint64_t flags;
	uint64_t data_len;
} __attribute__((packed));

/* one entry, decoded */
struct entry {
	uint64_t sector, count, flags;
	off_t data;		/* where its data starts in the log */
	char mark[128];
};

static const char *prog_cmd = "";
static int log_fd = -1;
static uint32_t secsize;
static uint64_t nr_entries;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	fprintf(stderr, "ul-logwrites %s: ", prog_cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (e)
		fprintf(stderr, ": %s", strerror(e));
	fputc('\n', stderr);
	exit(2);
}

static void read_at(int fd, void *buf, size_t len, off_t off, const char *what)
{
	ssize_t n;

	while (len) {
		n = pread(fd, buf, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			die("%s: short read at %lld", what, (long long)off);
		}
		buf = (char *)buf + n;
		len -= n;
		off += n;
	}
}

static void write_at(int fd, const void *buf, size_t len, off_t off)
{
	ssize_t n;

	while (len) {
		n = pwrite(fd, buf, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("image: write at %lld", (long long)off);
		buf = (const char *)buf + n;
		len -= n;
		off += n;
	}
}

static void open_log(const char *path)
{
	struct lw_super s;

	log_fd = open(path, O_RDONLY);
	if (log_fd < 0)
		die("open %s", path);
	read_at(log_fd, &s, sizeof(s), 0, "log superblock");
	errno = 0;
	if (le64toh(s.magic) != LW_MAGIC)
		die("%s: not a log-writes log (magic %#" PRIx64 ")", path,
		    (uint64_t)le64toh(s.magic));
	if (le64toh(s.version) != LW_VERSION)
		die("%s: log version %" PRIu64 ", this reads %d", path,
		    (uint64_t)le64toh(s.version), LW_VERSION);
	secsize = le32toh(s.sectorsize);
	if (secsize < 512 || secsize > 65536 || (secsize & (secsize - 1)))
		die("%s: sector size %u", path, secsize);
	nr_entries = le64toh(s.nr_entries);
}

/*
 * The entries, decoded in one pass (their positions depend on all the
 * ones before). Returns the array of nr_entries entries.
 */
static struct entry *read_entries(void)
{
	struct entry *e = calloc(nr_entries ? nr_entries : 1, sizeof(*e));
	char *sec = malloc(secsize);
	off_t pos = secsize;
	uint64_t i, len;

	if (!e || !sec)
		die("out of memory");
	for (i = 0; i < nr_entries; i++) {
		struct lw_entry h;

		read_at(log_fd, sec, secsize, pos, "entry header");
		memcpy(&h, sec, sizeof(h));
		e[i].sector = le64toh(h.sector);
		e[i].count = le64toh(h.nr_sectors);
		e[i].flags = le64toh(h.flags);
		len = le64toh(h.data_len);
		pos += secsize;
		e[i].data = pos;
		if (e[i].flags & LW_MARK) {
			errno = 0;
			if (len > secsize - sizeof(h) || len >= sizeof(e[i].mark))
				die("entry %" PRIu64 ": a mark of %" PRIu64 " bytes",
				    i, len);
			memcpy(e[i].mark, sec + sizeof(h), len);
			e[i].mark[len] = 0;
		} else if (!(e[i].flags & LW_DISCARD)) {
			pos += (off_t)e[i].count * secsize;
		}
	}
	free(sec);
	return e;
}

static void flag_names(uint64_t flags, uint64_t count, char *buf, size_t n)
{
	static const struct { uint64_t bit; const char *name; } names[] = {
		{ LW_FLUSH, "flush" }, { LW_FUA, "fua" },
		{ LW_DISCARD, "discard" }, { LW_MARK, "mark" },
		{ LW_META, "meta" },
	};
	size_t i, len = 0;

	buf[0] = 0;
	if (count && !(flags & (LW_DISCARD | LW_MARK)))
		len += snprintf(buf, n, "write");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((flags & names[i].bit) && len < n)
			len += snprintf(buf + len, n - len, "%s%s",
					len ? "+" : "", names[i].name);
	if (!len)
		snprintf(buf, n, "none");
}

static int cmd_list(int argc, char **argv)
{
	uint64_t first = 0, last, i;
	struct entry *e;
	char f[64];

	if (argc < 3 || argc > 5)
		return -1;
	open_log(argv[2]);
	e = read_entries();
	last = nr_entries ? nr_entries - 1 : 0;
	if (argc > 3)
		first = strtoull(argv[3], NULL, 0);
	if (argc > 4)
		last = strtoull(argv[4], NULL, 0);
	for (i = first; i <= last && i < nr_entries; i++) {
		flag_names(e[i].flags, e[i].count, f, sizeof(f));
		printf("%" PRIu64 " %s %" PRIu64 " %" PRIu64 "%s%s\n", i, f,
		       e[i].sector, e[i].count, e[i].flags & LW_MARK ? " " : "",
		       e[i].flags & LW_MARK ? e[i].mark : "");
	}
	return 0;
}

static int cmd_find(int argc, char **argv)
{
	struct entry *e;
	uint64_t i;

	if (argc != 4)
		return -1;
	open_log(argv[2]);
	e = read_entries();
	for (i = 0; i < nr_entries; i++)
		if ((e[i].flags & LW_MARK) && !strcmp(e[i].mark, argv[3])) {
			printf("%" PRIu64 "\n", i);
			return 0;
		}
	return 1;
}

/* IMAGE anew as a copy of BASE's data extents */
static int copy_base(const char *base, const char *image)
{
	static char buf[1 << 16];
	off_t data, hole, size;
	int in, out;

	in = open(base, O_RDONLY);
	if (in < 0)
		die("open %s", base);
	size = lseek(in, 0, SEEK_END);
	out = open(image, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (out < 0)
		die("open %s", image);
	if (size < 0 || ftruncate(out, size))
		die("size %s", image);
	for (data = lseek(in, 0, SEEK_DATA); data >= 0 && data < size;
	     data = lseek(in, hole, SEEK_DATA)) {
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0)
			die("seek %s", base);
		while (data < hole) {
			size_t len = hole - data < (off_t)sizeof(buf) ?
				     (size_t)(hole - data) : sizeof(buf);

			read_at(in, buf, len, data, base);
			write_at(out, buf, len, data);
			data += len;
		}
	}
	if (data < 0 && errno != ENXIO)
		die("seek %s", base);
	close(in);
	return out;
}

static int cmd_replay(int argc, char **argv)
{
	const char *base = NULL, *image;
	uint64_t from = 0, to = UINT64_MAX, i, size = 0;
	static char buf[1 << 16];
	struct entry *e;
	int a, out;

	if (argc < 5)
		return -1;
	image = argv[3];
	for (a = 4; a < argc; a++) {
		if (a + 1 >= argc)
			return -1;
		if (!strcmp(argv[a], "--to"))
			to = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--from"))
			from = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--base"))
			base = argv[++a];
		else if (!strcmp(argv[a], "--size"))
			size = strtoull(argv[++a], NULL, 0);
		else
			return -1;
	}
	if (to == UINT64_MAX || (base && size))
		return -1;
	open_log(argv[2]);
	errno = 0;
	if (to >= nr_entries)
		die("entry %" PRIu64 ": the log has %" PRIu64, to, nr_entries);
	e = read_entries();
	if (base) {
		out = copy_base(base, image);
	} else {
		out = open(image, O_RDWR | (size ? O_CREAT | O_TRUNC : 0), 0600);
		if (out < 0)
			die("open %s", image);
		if (size && ftruncate(out, size))
			die("size %s", image);
	}
	for (i = from; i <= to; i++) {
		off_t dst = (off_t)e[i].sector * secsize;
		off_t len = (off_t)e[i].count * secsize, src = e[i].data;

		if (e[i].flags & LW_MARK)
			continue;
		if (e[i].flags & LW_DISCARD) {
			if (len && fallocate(out, FALLOC_FL_PUNCH_HOLE |
					     FALLOC_FL_KEEP_SIZE, dst, len))
				die("discard in %s", image);
			continue;
		}
		while (len) {
			size_t n = len < (off_t)sizeof(buf) ? (size_t)len : sizeof(buf);

			read_at(log_fd, buf, n, src, "entry data");
			write_at(out, buf, n, dst);
			src += n;
			dst += n;
			len -= n;
		}
	}
	if (fsync(out) || close(out))
		die("close %s", image);
	return 0;
}

static int cmd_flush(int argc, char **argv)
{
	int fd;

	if (argc != 3)
		return -1;
	fd = open(argv[2], O_RDONLY);
	if (fd < 0)
		die("open %s", argv[2]);
	if (fsync(fd))
		die("fsync %s", argv[2]);
	close(fd);
	return 0;
}

static int cmd_copy(int argc, char **argv)
{
	int fd;

	if (argc != 4)
		return -1;
	fd = copy_base(argv[2], argv[3]);
	if (fsync(fd) || close(fd))
		die("close %s", argv[3]);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = -1;

	if (argc >= 2) {
		prog_cmd = argv[1];
		if (!strcmp(argv[1], "list"))
			ret = cmd_list(argc, argv);
		else if (!strcmp(argv[1], "find"))
			ret = cmd_find(argc, argv);
		else if (!strcmp(argv[1], "replay"))
			ret = cmd_replay(argc, argv);
		else if (!strcmp(argv[1], "flush"))
			ret = cmd_flush(argc, argv);
		else if (!strcmp(argv[1], "copy"))
			ret = cmd_copy(argc, argv);
	}
	if (ret < 0) {
		fprintf(stderr,
			"usage: ul-logwrites list LOG [FIRST [LAST]]\n"
			"       ul-logwrites find LOG MARK\n"
			"       ul-logwrites replay LOG IMAGE --to N [--from M] [--base BASE] [--size BYTES]\n"
			"       ul-logwrites flush DEV\n"
			"       ul-logwrites copy BASE IMAGE\n");
		return 2;
	}
	return ret;
}
