// SPDX-License-Identifier: GPL-2.0
/*
 * ul_test_writeout: a test-only module that writes a filesystem out, as
 * sync(2) does, after chosen namespace operations of a union on its
 * layers, so that the crash-state test (tests/lib/crash-states.sh) can
 * put a write-out between any two steps of a transition, on unionlite
 * and on overlayfs alike, without a knob in either:
 *
 *   insmod ul_test_writeout.ko
 *   echo MASK > /sys/module/ul_test_writeout/parameters/mask
 *   ... one operation through the union ...
 *   cat /sys/module/ul_test_writeout/parameters/steps
 *
 * A step is a call of one of the VFS functions below that returns 0 on a
 * filesystem that is not itself stacked (s_stack_depth 0): a union's
 * calls on its upper layer, not the system call's own call on the union;
 * an fsync counts on a regular file of a block device's filesystem.
 * Writing mask resets steps to 0; after the K-th step, when bit K of mask
 * is set, the step's filesystem is written out (sync_filesystem(), under
 * a trylock of s_umount, as the caller holds directory locks).
 *
 * Each function gets a kprobe whose handler sends the call to a wrapper
 * (it sets the instruction pointer, as ul_test_probe's hold does): the
 * wrapper calls the function itself, whose probe lets that one call
 * through, then counts and writes out. Only for functions whose
 * arguments all travel in registers (x86-64), called from process
 * context; the probes have a post handler, so they stay breakpoints.
 * One task at a time: a second task entering the same function between
 * a wrapper's mark and its call is sent through the wrapper again, and
 * a step may then be counted twice. The tests run one operation alone.
 */

#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/writeback.h>

static unsigned int ul_wo_mask;
static atomic_t ul_wo_steps = ATOMIC_INIT(0);

static int ul_wo_set_mask(const char *val, const struct kernel_param *kp)
{
	int err = param_set_uint(val, kp);

	if (!err)
		atomic_set(&ul_wo_steps, 0);
	return err;
}

static const struct kernel_param_ops ul_wo_mask_ops = {
	.set = ul_wo_set_mask,
	.get = param_get_uint,
};

module_param_cb(mask, &ul_wo_mask_ops, &ul_wo_mask, 0644);
MODULE_PARM_DESC(mask, "bit K: write the filesystem out after the K-th step");
module_param_named(steps, ul_wo_steps.counter, int, 0444);
MODULE_PARM_DESC(steps, "steps since mask was written");

typedef unsigned long (*ul_fn6)(unsigned long, unsigned long, unsigned long,
				unsigned long, unsigned long, unsigned long);

/* where a function's filesystem is found among its arguments */
enum ul_wo_arg { UL_WO_INODE, UL_WO_DENTRY, UL_WO_RENAMEDATA, UL_WO_FILE };

struct ul_wo_fn {
	const char *name;
	int argno;			/* 1-based */
	enum ul_wo_arg kind;
	struct kprobe kp;
	struct task_struct *passing;	/* the wrapper's own call */
};

static struct ul_wo_fn ul_wo_fns[] = {
	{ "vfs_create", 2, UL_WO_INODE },
	{ "vfs_mkdir", 2, UL_WO_INODE },
	{ "vfs_mknod", 2, UL_WO_INODE },
	{ "vfs_symlink", 2, UL_WO_INODE },
	{ "vfs_link", 3, UL_WO_INODE },
	{ "vfs_unlink", 2, UL_WO_INODE },
	{ "vfs_rmdir", 2, UL_WO_INODE },
	{ "vfs_rename", 1, UL_WO_RENAMEDATA },
	{ "vfs_setxattr", 2, UL_WO_DENTRY },
	{ "vfs_removexattr", 2, UL_WO_DENTRY },
	{ "notify_change", 2, UL_WO_DENTRY },
	{ "vfs_fileattr_set", 2, UL_WO_DENTRY },
	/* the end of a data copy (copy-up, a metacopy file's data) */
	{ "vfs_fsync_range", 1, UL_WO_FILE },
};

#define UL_WO_NR ARRAY_SIZE(ul_wo_fns)

static struct super_block *ul_wo_sb(struct ul_wo_fn *fn, unsigned long *args)
{
	unsigned long a = args[fn->argno - 1];
	struct inode *inode;

	switch (fn->kind) {
	case UL_WO_INODE:
		return ((struct inode *)a)->i_sb;
	case UL_WO_DENTRY:
		return ((struct dentry *)a)->d_sb;
	case UL_WO_FILE:
		/*
		 * a regular file on a block device's filesystem: not a
		 * loop device's backing file (tmpfs), not a raw device
		 */
		inode = file_inode((struct file *)a);
		if (!S_ISREG(inode->i_mode) || !inode->i_sb->s_bdev)
			return NULL;
		return inode->i_sb;
	default:
		return ((struct renamedata *)a)->old_dir->i_sb;
	}
}

/* After a step: count it, and write its filesystem out when asked to. */
static void ul_wo_step(struct super_block *sb)
{
	int k = atomic_inc_return(&ul_wo_steps);

	if (k > 31 || !(READ_ONCE(ul_wo_mask) & BIT(k)))
		return;
	if (!down_read_trylock(&sb->s_umount)) {
		pr_warn("ul_test_writeout: step %d not written out (s_umount busy)\n", k);
		return;
	}
	sync_filesystem(sb);
	up_read(&sb->s_umount);
}

static unsigned long ul_wo_call(unsigned int i, unsigned long a,
				unsigned long b, unsigned long c,
				unsigned long d, unsigned long e,
				unsigned long f)
{
	unsigned long args[6] = { a, b, c, d, e, f };
	struct super_block *sb = ul_wo_sb(&ul_wo_fns[i], args);
	unsigned long ret;

	WRITE_ONCE(ul_wo_fns[i].passing, current);
	ret = ((ul_fn6)ul_wo_fns[i].kp.addr)(a, b, c, d, e, f);
	if (!ret && sb && !sb->s_stack_depth)
		ul_wo_step(sb);
	return ret;
}

/* one wrapper per function: the handler cannot pass the index */
#define UL_WO_WRAPPER(i)						\
static unsigned long ul_wo_wrap##i(unsigned long a, unsigned long b,	\
				   unsigned long c, unsigned long d,	\
				   unsigned long e, unsigned long f)	\
{									\
	return ul_wo_call(i, a, b, c, d, e, f);				\
}

UL_WO_WRAPPER(0)
UL_WO_WRAPPER(1)
UL_WO_WRAPPER(2)
UL_WO_WRAPPER(3)
UL_WO_WRAPPER(4)
UL_WO_WRAPPER(5)
UL_WO_WRAPPER(6)
UL_WO_WRAPPER(7)
UL_WO_WRAPPER(8)
UL_WO_WRAPPER(9)
UL_WO_WRAPPER(10)
UL_WO_WRAPPER(11)
UL_WO_WRAPPER(12)

static const ul_fn6 ul_wo_wrappers[] = {
	ul_wo_wrap0, ul_wo_wrap1, ul_wo_wrap2, ul_wo_wrap3, ul_wo_wrap4,
	ul_wo_wrap5, ul_wo_wrap6, ul_wo_wrap7, ul_wo_wrap8, ul_wo_wrap9,
	ul_wo_wrap10, ul_wo_wrap11, ul_wo_wrap12,
};

static_assert(ARRAY_SIZE(ul_wo_wrappers) == ARRAY_SIZE(ul_wo_fns));

static int ul_wo_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct ul_wo_fn *fn = container_of(p, struct ul_wo_fn, kp);

	/* the wrapper's own call runs the function */
	if (cmpxchg(&fn->passing, current, NULL) == current)
		return 0;
	/* return 1: no single step, resume in the wrapper */
	instruction_pointer_set(regs, (unsigned long)ul_wo_wrappers[fn - ul_wo_fns]);
	return 1;
}

/* Its presence keeps the probes breakpoints. */
static void ul_wo_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
}

static void ul_wo_unregister(unsigned int n)
{
	while (n)
		unregister_kprobe(&ul_wo_fns[--n].kp);
}

static int __init ul_test_writeout_init(void)
{
	unsigned int i;
	int err;

	for (i = 0; i < UL_WO_NR; i++) {
		ul_wo_fns[i].kp.symbol_name = ul_wo_fns[i].name;
		ul_wo_fns[i].kp.pre_handler = ul_wo_pre;
		ul_wo_fns[i].kp.post_handler = ul_wo_post;
		err = register_kprobe(&ul_wo_fns[i].kp);
		if (err) {
			pr_err("ul_test_writeout: cannot probe %s (%d)\n",
			       ul_wo_fns[i].name, err);
			ul_wo_unregister(i);
			return err;
		}
	}
	return 0;
}

static void __exit ul_test_writeout_exit(void)
{
	ul_wo_unregister(UL_WO_NR);
}

module_init(ul_test_writeout_init);
module_exit(ul_test_writeout_exit);

MODULE_DESCRIPTION("unionlite tests: write a layer out after chosen steps of a union");
MODULE_LICENSE("GPL");
