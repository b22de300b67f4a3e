// SPDX-License-Identifier: GPL-2.0
/*
 * ul_test_probe: a test-only module that puts kprobes on kernel or module
 * functions named at load time, to see what no system call shows:
 *
 *   insmod ul_test_probe.ko syms=f1,f2,... [hold=f] [hold_ms=N] [holds=K]
 *
 * For each function of syms= (at most eight), a count of its calls and
 * the fsuid of its last caller, in the same order:
 *
 *   /sys/module/ul_test_probe/parameters/hits     "3,0,..."
 *   /sys/module/ul_test_probe/parameters/fsuids   "0,-1,..." (-1: no call)
 *
 * Writing to either parameter sets the values (a test writes zeros
 * between its steps). With hold=f, the first K calls of f (default 1)
 * sleep for hold_ms milliseconds before f runs: the caller is held at
 * that point while the test runs something else beside it, which widens
 * a race window to a size a shell script can hit. The probe handler
 * cannot sleep, so it sends the call to ul_probe_hold() instead (it sets
 * the instruction pointer, as the old jprobes did): that sleeps, then
 * calls f with the same six argument registers and returns what f
 * returns. Only for functions whose arguments all travel in registers
 * (at most six integers or pointers, x86-64), called from process
 * context, on a kernel whose kprobes use breakpoints here: a probe with
 * a post handler is never optimized into a jump, whose handler could not
 * change the instruction pointer.
 */

#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/module.h>
#include <linux/uidgid.h>

#define UL_PROBE_MAX	8

static char *syms[UL_PROBE_MAX];
static unsigned int nsyms;
module_param_array(syms, charp, &nsyms, 0444);
MODULE_PARM_DESC(syms, "functions to count the calls of");

static unsigned int hits[UL_PROBE_MAX];
static unsigned int nhits = UL_PROBE_MAX;
module_param_array(hits, uint, &nhits, 0644);
MODULE_PARM_DESC(hits, "calls of each function of syms=");

static int fsuids[UL_PROBE_MAX];
static unsigned int nfsuids = UL_PROBE_MAX;
module_param_array(fsuids, int, &nfsuids, 0644);
MODULE_PARM_DESC(fsuids, "fsuid of each function's last caller, -1 before the first");

static char *hold;
module_param(hold, charp, 0444);
MODULE_PARM_DESC(hold, "function whose first calls are held up");

static unsigned int hold_ms = 1000;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "how long each held call spins");

static int holds = 1;
module_param(holds, int, 0444);
MODULE_PARM_DESC(holds, "how many calls of hold= are held");

static atomic_t holds_left;

static struct kprobe probes[UL_PROBE_MAX + 1];
static unsigned int nprobes;
static struct kprobe *hold_probe;

typedef unsigned long (*ul_fn6)(unsigned long, unsigned long, unsigned long,
				unsigned long, unsigned long, unsigned long);

/*
 * Where a held call goes instead of the held function: a sleep, then the
 * function itself (its probe lets this call through: holds_left is
 * already counted down).
 */
static unsigned long ul_probe_hold(unsigned long a, unsigned long b,
				   unsigned long c, unsigned long d,
				   unsigned long e, unsigned long f)
{
	pr_info("ul_test_probe: holding %s for %u ms\n", hold, hold_ms);
	msleep(hold_ms);
	pr_info("ul_test_probe: released %s\n", hold);
	return ((ul_fn6)hold_probe->addr)(a, b, c, d, e, f);
}

static int ul_probe_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned int i = p - probes;

	if (i < nsyms) {
		WRITE_ONCE(hits[i], READ_ONCE(hits[i]) + 1);
		WRITE_ONCE(fsuids[i],
			   from_kuid_munged(&init_user_ns, current_fsuid()));
	}
	if (p == hold_probe && atomic_add_unless(&holds_left, -1, 0)) {
		/* return 1: no single step, resume at the new address */
		instruction_pointer_set(regs, (unsigned long)ul_probe_hold);
		return 1;
	}
	return 0;
}

/* Its presence keeps the probes breakpoints (see the top of the file). */
static void ul_probe_post(struct kprobe *p, struct pt_regs *regs,
			  unsigned long flags)
{
}

static void ul_probe_unregister(void)
{
	while (nprobes)
		unregister_kprobe(&probes[--nprobes]);
}

static int ul_probe_add(const char *sym)
{
	struct kprobe *p = &probes[nprobes];
	int err;

	p->symbol_name = sym;
	p->pre_handler = ul_probe_pre;
	p->post_handler = ul_probe_post;
	err = register_kprobe(p);
	if (err) {
		pr_err("ul_test_probe: cannot probe %s (%d)\n", sym, err);
		return err;
	}
	nprobes++;
	return 0;
}

static int __init ul_test_probe_init(void)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < UL_PROBE_MAX; i++)
		fsuids[i] = -1;
	atomic_set(&holds_left, holds);
	for (i = 0; !err && i < nsyms; i++)
		err = ul_probe_add(syms[i]);
	if (!err && hold) {
		for (i = 0; i < nsyms && strcmp(syms[i], hold); i++)
			;
		if (i == nsyms)
			err = ul_probe_add(hold);
		hold_probe = &probes[i];
	}
	if (err)
		ul_probe_unregister();
	return err;
}

static void __exit ul_test_probe_exit(void)
{
	ul_probe_unregister();
}

module_init(ul_test_probe_init);
module_exit(ul_test_probe_exit);

MODULE_DESCRIPTION("unionlite tests: count, watch and hold up calls of chosen functions");
MODULE_LICENSE("GPL");
