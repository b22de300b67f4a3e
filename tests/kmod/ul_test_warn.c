// SPDX-License-Identifier: GPL-2.0
/*
 * ul_test_warn: a test-only module whose loading prints a kernel WARNING,
 * so that the harness self-test can show that a WARNING on the console
 * fails a run even when the guest script itself succeeds.
 */

#include <linux/bug.h>
#include <linux/module.h>

static int __init ul_test_warn_init(void)
{
	WARN(1, "ul_test_warn: deliberate warning for the harness self-test\n");
	return 0;
}

static void __exit ul_test_warn_exit(void)
{
}

module_init(ul_test_warn_init);
module_exit(ul_test_warn_exit);

MODULE_DESCRIPTION("unionlite harness self-test: provoke a WARNING");
MODULE_LICENSE("GPL");
