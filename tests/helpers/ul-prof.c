// SPDX-License-Identifier: GPL-2.0
/*
 * ul-prof: a sampling profiler of the whole guest while one command runs
 * (the guests have no perf tool; their kernels have CONFIG_PERF_EVENTS).
 *
 *   ul-prof [-g] [-F HZ] [-m GROUPS] [-n TOP] [-o RAWFILE] CMD [ARGS...]
 *
 * Runs CMD while a software cpu-clock event (perf_event_open) samples
 * every online CPU, HZ times a second asked (default 1000; a kernel
 * without CONFIG_HIGH_RES_TIMERS, as the test kernels are, fires it on
 * the tick only: at most CONFIG_HZ, 250), its ring buffers drained while
 * CMD runs and at its end. Then it prints, after CMD's own output:
 *
 *   ul-prof: CMD: SECS s, N CPUs, HZ Hz asked
 *   samples: TOTAL (RATE/s per CPU), IDLE idle, SELF of ul-prof, COUNTED
 *   counted, LOST lost, THROTTLES throttles
 *   by group: kernel P% [ext4] P% [overlay] P% [unionlite] P% [user] P% ...
 *      self  samples  symbol
 *     12.3%    1234  ext4_readdir
 *
 * the TOP (default 25) symbols with the most samples, with their share
 * of the counted ones: all but ul-prof's own and the idle task's in a
 * function whose name has "idle" or "halt" or in finish_task_switch
 * (where a sample of the switch to it lands; the interrupts the idle
 * task takes count). Kernel addresses are named by /proc/kallsyms (read
 * with kptr_restrict 0, set back after, when it hides them), a module's
 * functions with the module ("ul_iterate [unionlite]"), static functions
 * of one name as one; the user-space samples are all "[user]". A group
 * is a module, [overlay] (built-in ovl_*), [ext4] (built-in ext4*,
 * jbd2*, htree and dirhash functions), [user], or kernel for the rest.
 * -m GROUP[,GROUP...] also lists every symbol of those groups that has
 * samples.
 *
 * Under QEMU TCG a sample lands at the start of a translated block, so
 * a small function's own count is rough; interrupts off, a sample lands
 * where they are turned on again (__raw_write_unlock_irqrestore).
 *
 * -g also records the kernel call chains and shows each symbol's
 * inclusive share (the samples with it anywhere in their chain; a
 * function that ends in a tail call is not in the chains of its callee),
 * and the same tables sorted by it. -o writes one line per sample to
 * RAWFILE: "CPU PID IP SYMBOL", with -g and the chain from its root to
 * the sampled function joined by ';' (flame graph tools' folded form).
 *
 * Exit status: CMD's (128 + N when signal N killed it); 1 when the
 * profiler cannot run (the reason, with the errno's name, on standard
 * error), 2 for bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAXCPU		64
#define DATA_PAGES	128	/* per CPU; 516 KiB with the header page: perf_event_mlock_kb */

struct ring {
	int fd, cpu;
	struct perf_event_mmap_page *pg;
	unsigned char *data;
};

struct sym {
	uint64_t addr;
	char *name, *mod;
	long self, incl, seen;
	size_t canon;	/* the first symbol of this name and module: counted there */
};

static struct ring rings[MAXCPU];
static int nrings, callchains;
static size_t pagesz, dsize;
static uint64_t *smp;		/* per sample: cpu << 32 | pid, misc, ip, n, chain[n] */
static size_t nsmp, capsmp;
static long nsamples, lost, throttles;
static struct sym *syms;
static size_t nsyms;

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "ul-prof: %s%s%s: %s\n", what, arg ? " " : "", arg ? arg : "",
		strerrorname_np(errno) ?: "?");
	exit(1);
}

static void push(uint64_t v)
{
	if (nsmp == capsmp) {
		capsmp = capsmp ? 2 * capsmp : 1 << 16;
		smp = realloc(smp, capsmp * sizeof(*smp));
		if (!smp)
			die("realloc", NULL);
	}
	smp[nsmp++] = v;
}

/* copy @len bytes at position @pos of @r's ring, which may wrap */
static void ring_copy(struct ring *r, void *dst, uint64_t pos, size_t len)
{
	size_t off = pos & (dsize - 1), n = len < dsize - off ? len : dsize - off;

	memcpy(dst, r->data + off, n);
	memcpy((char *)dst + n, r->data, len - n);
}

static void record(struct ring *r, const struct perf_event_header *h)
{
	const uint64_t *v = (const uint64_t *)(h + 1);
	uint64_t i, n;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		/* ip, pid/tid, [callchain nr, ips] */
		nsamples++;
		push((uint64_t)r->cpu << 32 | (uint32_t)v[1]);
		push(h->misc & PERF_RECORD_MISC_CPUMODE_MASK);
		push(v[0]);
		n = callchains ? v[2] : 0;
		push(n);
		for (i = 0; i < n; i++)
			push(v[3 + i]);
		break;
	case PERF_RECORD_LOST:
		lost += v[1];
		break;
	case PERF_RECORD_THROTTLE:
		throttles++;
		break;
	}
}

static void drain(struct ring *r)
{
	static uint64_t buf[65536 / 8];
	uint64_t head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->pg->data_tail;
	struct perf_event_header *h = (struct perf_event_header *)buf;

	while (tail < head) {
		ring_copy(r, h, tail, sizeof(*h));
		if (h->size < sizeof(*h))
			break;
		ring_copy(r, buf, tail, h->size);
		record(r, h);
		tail += h->size;
	}
	__atomic_store_n(&r->pg->data_tail, head, __ATOMIC_RELEASE);
}

static void open_cpu(int cpu, int hz)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.freq = 1,
		.sample_freq = hz,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       (callchains ? PERF_SAMPLE_CALLCHAIN : 0),
		.exclude_callchain_user = 1,
		.watermark = 1,
		.wakeup_watermark = dsize / 4,
	};
	struct ring *r = &rings[nrings];
	char what[64];
	void *p;

	snprintf(what, sizeof(what), "cpu %d", cpu);
	r->cpu = cpu;
	r->fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0 && errno == EINVAL)
		fprintf(stderr, "ul-prof: -F %d over kernel.perf_event_max_sample_rate?\n", hz);
	if (r->fd < 0)
		die("perf_event_open(cpu-clock) on", what);
	p = mmap(NULL, pagesz + dsize, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (p == MAP_FAILED)
		die("mmap of the ring buffer of", what);
	r->pg = p;
	r->data = (unsigned char *)p + pagesz;
	nrings++;
}

/* every CPU of /sys/devices/system/cpu/online ("0-3,5") */
static void open_cpus(int hz)
{
	char buf[256], *s, *e;
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	long a, b;

	if (!f || !fgets(buf, sizeof(buf), f))
		die("read", "/sys/devices/system/cpu/online");
	fclose(f);
	for (s = buf; *s && *s != '\n'; s = *e ? e + 1 : e) {
		a = strtol(s, &e, 10);
		b = a;
		if (*e == '-')
			b = strtol(e + 1, &e, 10);
		for (; a <= b; a++) {
			if (nrings == MAXCPU) {
				errno = E2BIG;
				die("too many CPUs", NULL);
			}
			open_cpu(a, hz);
		}
	}
}

/* a section's label, at the address of a function (__cpuidle_text_start) */
static int label(const char *name)
{
	return strstr(name, "_text_start") || strstr(name, "_text_end") ||
	       !strcmp(name, "_stext") || !strcmp(name, "_etext");
}

/* by address; of two at one address, the function last (lookup takes it) */
static int by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return label(y->name) - label(x->name);
}

static int name_cmp(size_t a, size_t b)
{
	int c = strcmp(syms[a].name, syms[b].name);

	return c ?: strcmp(syms[a].mod ?: "", syms[b].mod ?: "");
}

static int by_name(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return name_cmp(x, y) ?: (x > y) - (x < y);
}

/* the text symbols of /proc/kallsyms, sorted, then [user] and [unknown] */
static void load_kallsyms(void)
{
	char line[512], name[256], mod[128], type, saved[16] = "";
	const char *kr = "/proc/sys/kernel/kptr_restrict";
	unsigned long long addr;
	size_t cap = 0, i, *idx;
	FILE *f;
	int tries, n;

	for (tries = 0; tries < 2; tries++) {
		f = fopen("/proc/kallsyms", "r");
		if (!f)
			die("open", "/proc/kallsyms");
		nsyms = 0;
		while (fgets(line, sizeof(line), f)) {
			mod[0] = 0;
			n = sscanf(line, "%llx %c %255s %127s", &addr, &type, name, mod);
			if (n < 3 || (type != 't' && type != 'T'))
				continue;
			if (nsyms + 2 >= cap) {
				cap = cap ? 2 * cap : 65536;
				syms = realloc(syms, cap * sizeof(*syms));
				if (!syms)
					die("realloc", NULL);
			}
			syms[nsyms++] = (struct sym){ .addr = addr, .name = strdup(name),
						       .mod = mod[0] ? strdup(mod) : NULL };
		}
		fclose(f);
		qsort(syms, nsyms, sizeof(*syms), by_addr);
		if (nsyms && syms[nsyms - 1].addr)
			break;
		/* all zero: hidden by kptr_restrict, 0 while it is read */
		f = fopen(kr, "r");
		if (!f || (!saved[0] && !fgets(saved, sizeof(saved), f)))
			die("read", kr);
		fclose(f);
		f = fopen(kr, "w");
		if (!f || fputs("0\n", f) < 0 || fclose(f))
			die("write 0 to", kr);
	}
	if (saved[0]) {
		f = fopen(kr, "w");
		if (!f || fputs(saved, f) < 0 || fclose(f))
			die("write back", kr);
	}
	if (tries == 2) {
		errno = EPERM;
		die("/proc/kallsyms shows no addresses", NULL);
	}
	syms[nsyms] = (struct sym){ .name = "[user]", .canon = nsyms };
	syms[nsyms + 1] = (struct sym){ .name = "[unknown]", .canon = nsyms + 1 };
	/* static functions of one name in several files count as one */
	idx = malloc(nsyms * sizeof(*idx));
	if (!idx)
		die("malloc", NULL);
	for (i = 0; i < nsyms; i++)
		idx[i] = i;
	qsort(idx, nsyms, sizeof(*idx), by_name);
	for (i = 0; i < nsyms; i++)
		syms[idx[i]].canon = i && !name_cmp(idx[i - 1], idx[i]) ?
				     syms[idx[i - 1]].canon : idx[i];
	free(idx);
}

/* the index of the symbol of kernel address @ip */
static size_t lookup(uint64_t ip)
{
	size_t lo = 0, hi = nsyms;

	if (!nsyms || ip < syms[0].addr)
		return nsyms + 1;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	return syms[lo].canon;
}

static const char *group(const struct sym *s)
{
	static const char *const pre[][2] = {
		{ "ovl_", "[overlay]" }, { "ext4", "[ext4]" }, { "__ext4", "[ext4]" },
		{ "jbd2", "[ext4]" }, { "htree_", "[ext4]" }, { "dx_", "[ext4]" },
		{ "str2hashbuf", "[ext4]" }, { "call_filldir", "[ext4]" },
		{ "free_rb_tree_fname", "[ext4]" },
	};
	size_t i;

	if (s == &syms[nsyms])
		return "[user]";
	if (s->mod)
		return s->mod;
	for (i = 0; i < ARRAY_SIZE(pre); i++)
		if (!strncmp(s->name, pre[i][0], strlen(pre[i][0])))
			return pre[i][1];
	return "kernel";
}

/* of the idle task: idling, not the interrupts it takes */
static int idle_sym(const struct sym *s)
{
	return strstr(s->name, "idle") || strstr(s->name, "halt") ||
	       !strncmp(s->name, "finish_task_switch", 18);
}

static size_t *order;
static int by_incl;

static long key(size_t i)
{
	return by_incl ? syms[i].incl : syms[i].self;
}

static int cmp_key(const void *a, const void *b)
{
	long x = key(*(const size_t *)a), y = key(*(const size_t *)b);

	return (y > x) - (y < x);
}

/* whether @name is one of the comma-separated @list */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/* the @top symbols with the most samples (self, or inclusive), of @grp */
static void table(int top, long counted, const char *grp)
{
	size_t i;

	qsort(order, nsyms + 2, sizeof(*order), cmp_key);
	for (i = 0; top > 0 && i < nsyms + 2 && key(order[i]); i++) {
		struct sym *s = &syms[order[i]];

		if (grp && !in_list(grp, group(s)))
			continue;
		top--;
		printf("  %5.1f%% %6ld", 100.0 * s->self / counted, s->self);
		if (callchains)
			printf("  %5.1f%%", 100.0 * s->incl / counted);
		printf("  %s%s%s\n", s->name, s->mod ? " " : "", s->mod ?: "");
	}
}

/* count the samples; the raw lines to @raw; returns the counted ones */
static long tally(FILE *raw, long *idle, long *self)
{
	pid_t me = getpid();
	long counted = 0, gen = 0;
	size_t i, j, n, k;
	struct sym *s;

	for (i = 0; i < nsmp; i += 4 + n) {
		uint32_t pid = (uint32_t)smp[i];
		int user = smp[i + 1] == PERF_RECORD_MISC_USER;

		n = smp[i + 3];
		s = &syms[user ? nsyms : lookup(smp[i + 2])];
		if (raw) {
			fprintf(raw, "%u %u %#llx %s", (unsigned int)(smp[i] >> 32), pid,
				(unsigned long long)smp[i + 2], s->name);
			for (j = n, k = 0; j-- > 0;) {
				if (smp[i + 4 + j] >= PERF_CONTEXT_MAX)
					continue;
				fprintf(raw, "%s%s", k++ ? ";" : " ",
					syms[lookup(smp[i + 4 + j])].name);
			}
			fputc('\n', raw);
		}
		if (pid == (uint32_t)me) {
			(*self)++;
			continue;
		}
		if (pid == 0 && idle_sym(s)) {
			(*idle)++;
			continue;
		}
		counted++;
		s->self++;
		/* inclusive: each symbol once per sample */
		gen++;
		s->seen = gen;
		s->incl++;
		for (j = 0; j < n; j++) {
			if (smp[i + 4 + j] >= PERF_CONTEXT_MAX)
				continue;
			s = &syms[lookup(smp[i + 4 + j])];
			if (s->seen != gen) {
				s->seen = gen;
				s->incl++;
			}
		}
	}
	return counted;
}

static void report(char **cmd, double secs, int hz, int top, const char *rawfile,
		   const char *grp)
{
	static const char *const groups[] = {
		"kernel", "[ext4]", "[overlay]", "[unionlite]", "[user]",
	};
	long idle = 0, self = 0, counted, g[6] = { 0 };
	FILE *raw = NULL;
	size_t i, j;

	load_kallsyms();
	if (rawfile) {
		raw = fopen(rawfile, "w");
		if (!raw)
			die("open", rawfile);
	}
	counted = tally(raw, &idle, &self);
	if (raw && fclose(raw))
		die("write", rawfile);
	printf("ul-prof:");
	for (i = 0; cmd[i]; i++)
		printf(" %s", cmd[i]);
	printf(": %.2f s, %d CPU%s, %d Hz asked\n", secs, nrings, nrings > 1 ? "s" : "", hz);
	printf("samples: %ld (%.1f/s per CPU), %ld idle, %ld of ul-prof, ", nsamples,
	       secs > 0 ? nsamples / secs / nrings : 0.0, idle, self);
	printf("%ld counted, %ld lost, %ld throttles\n", counted, lost, throttles);
	if (!counted)
		return;
	order = malloc((nsyms + 2) * sizeof(*order));
	if (!order)
		die("malloc", NULL);
	for (i = 0; i < nsyms + 2; i++) {
		order[i] = i;
		for (j = 0; j < 5 && strcmp(group(&syms[i]), groups[j]); j++)
			;
		g[j] += syms[i].self;
	}
	printf("by group:");
	for (j = 0; j < 5; j++)
		printf(" %s %.1f%%", groups[j], 100.0 * g[j] / counted);
	printf(" other modules %.1f%%\n", 100.0 * g[5] / counted);
	printf("   self  samples%s  symbol\n", callchains ? "  incl." : "");
	table(top, counted, NULL);
	if (grp) {
		printf("%s:\n", grp);
		table(nsyms, counted, grp);
	}
	if (callchains) {
		by_incl = 1;
		printf("by inclusive share:\n");
		table(top, counted, NULL);
		if (grp) {
			printf("%s by inclusive share:\n", grp);
			table(nsyms, counted, grp);
		}
	}
}

int main(int argc, char **argv)
{
	int hz = 1000, top = 25, opt, status, i;
	const char *rawfile = NULL, *grp = NULL;
	struct pollfd pfd[MAXCPU];
	struct timespec t0, t1;
	pid_t child;

	while ((opt = getopt(argc, argv, "+gF:m:n:o:")) != -1) {
		switch (opt) {
		case 'g':
			callchains = 1;
			break;
		case 'F':
			hz = atoi(optarg);
			break;
		case 'm':
			grp = optarg;
			break;
		case 'n':
			top = atoi(optarg);
			break;
		case 'o':
			rawfile = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (optind == argc || hz <= 0 || top < 0)
		goto usage;
	pagesz = sysconf(_SC_PAGESIZE);
	dsize = DATA_PAGES * pagesz;
	open_cpus(hz);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	child = fork();
	if (child < 0)
		die("fork", NULL);
	if (!child) {
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "ul-prof: exec %s: %s\n", argv[optind], strerrorname_np(errno));
		_exit(127);
	}
	for (i = 0; i < nrings; i++)
		pfd[i] = (struct pollfd){ .fd = rings[i].fd, .events = POLLIN };
	for (;;) {
		if (poll(pfd, nrings, 100) < 0 && errno != EINTR)
			die("poll", NULL);
		for (i = 0; i < nrings; i++)
			drain(&rings[i]);
		i = waitpid(child, &status, WNOHANG);
		if (i < 0)
			die("waitpid", NULL);
		if (i)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (i = 0; i < nrings; i++) {
		ioctl(rings[i].fd, PERF_EVENT_IOC_DISABLE, 0);
		drain(&rings[i]);
	}
	report(argv + optind, t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       hz, top, rawfile, grp);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

usage:
	fprintf(stderr, "usage: ul-prof [-g] [-F HZ] [-m GROUPS] [-n TOP] [-o RAWFILE] CMD...\n");
	return 2;
}
