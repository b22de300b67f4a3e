// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: the test build's parameters (testing.h). Built only with
 * CONFIG_UNIONLITE_TEST=y; the module users load has none of them.
 */

#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include "testing.h"

static bool ul_naive;
module_param_named(naive, ul_naive, bool, 0644);
MODULE_PARM_DESC(naive,
		 "test build: do the whiteout recipes and metacopy data copy-ups in several visible, non-atomic steps");

static bool ul_no_rename_whiteout;
module_param_named(no_rename_whiteout, ul_no_rename_whiteout, bool, 0644);
MODULE_PARM_DESC(no_rename_whiteout,
		 "test build: act as if the upper fs had no RENAME_WHITEOUT");

static bool ul_no_tmpfile;
module_param_named(no_tmpfile, ul_no_tmpfile, bool, 0644);
MODULE_PARM_DESC(no_tmpfile,
		 "test build: act as if the upper fs had no O_TMPFILE");

static bool ul_skip_work_cleanup;
module_param_named(skip_work_cleanup, ul_skip_work_cleanup, bool, 0644);
MODULE_PARM_DESC(skip_work_cleanup,
		 "test build: leave the work dir's leftovers at mount (the crash tests read them)");

static unsigned int ul_whiteout_links;
module_param_named(whiteout_links, ul_whiteout_links, uint, 0644);
MODULE_PARM_DESC(whiteout_links,
		 "test build: links the shared whiteout may have before a new one replaces it; 0: as many as the upper fs allows");

static bool ul_step_sync;
module_param_named(step_sync, ul_step_sync, bool, 0644);
MODULE_PARM_DESC(step_sync,
		 "test build: commit the upper fs after every step, so that a power cut can fall between two steps");

static unsigned int ul_step_pause_ms;
module_param_named(step_pause_ms, ul_step_pause_ms, uint, 0644);
MODULE_PARM_DESC(step_pause_ms,
		 "test build: sleep this long after every step, with the recipe's locks held");

static bool ul_data_race;
module_param_named(data_race, ul_data_race, bool, 0644);
MODULE_PARM_DESC(data_race,
		 "test build: count permission checks in a plain shared variable, a data race for KCSAN");

/**
 * ul_test_naive - are the recipes to be done in naive visible steps?
 *
 * Return: the parameter naive.
 */
bool ul_test_naive(void)
{
	return READ_ONCE(ul_naive);
}

/**
 * ul_test_no_rename_whiteout - is RENAME_WHITEOUT to be taken as missing?
 *
 * Return: the parameter no_rename_whiteout.
 */
bool ul_test_no_rename_whiteout(void)
{
	return READ_ONCE(ul_no_rename_whiteout);
}

/**
 * ul_test_no_tmpfile - is O_TMPFILE to be taken as missing?
 *
 * Return: the parameter no_tmpfile.
 */
bool ul_test_no_tmpfile(void)
{
	return READ_ONCE(ul_no_tmpfile);
}

/**
 * ul_test_skip_work_cleanup - is the work dir to be left as found at mount?
 *
 * Return: the parameter skip_work_cleanup.
 */
bool ul_test_skip_work_cleanup(void)
{
	return READ_ONCE(ul_skip_work_cleanup);
}

/**
 * ul_test_whiteout_links - the cap on the shared whiteout's links
 *
 * Return: the parameter whiteout_links; 0: no cap.
 */
unsigned int ul_test_whiteout_links(void)
{
	return READ_ONCE(ul_whiteout_links);
}

/**
 * ul_test_step_done - after a step that changed the upper layer
 * @upper_sb: the upper filesystem
 *
 * With step_sync, commits @upper_sb (ext4: its journal) when s_umount can
 * be had without waiting; with step_pause_ms, then sleeps. Both run with
 * the step's locks held, as the tests intend.
 */
void ul_test_step_done(struct super_block *upper_sb)
{
	unsigned int ms = READ_ONCE(ul_step_pause_ms);

	if (READ_ONCE(ul_step_sync) && upper_sb->s_op->sync_fs &&
	    down_read_trylock(&upper_sb->s_umount)) {
		upper_sb->s_op->sync_fs(upper_sb, 1);
		up_read(&upper_sb->s_umount);
	}
	if (ms)
		msleep(ms);
}

static unsigned long ul_permission_calls;

/**
 * ul_test_data_race - the planted data race of the kcsan-caught test
 *
 * With data_race, every permission check of every CPU adds one to a
 * shared counter with a plain, unlocked read-modify-write: the kind of
 * bug the data-race detector is there to report, in unionlite's code.
 */
void ul_test_data_race(void)
{
	if (READ_ONCE(ul_data_race))
		ul_permission_calls++;
}
