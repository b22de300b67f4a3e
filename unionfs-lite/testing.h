/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unionlite: the hooks of the test build. A module built with
 * CONFIG_UNIONLITE_TEST=y (the harness's unionlite-test.ko) gets the
 * test-only parameters of testing.c: recipes done in naive visible steps,
 * a pause and a commit after every step, a capped shared whiteout, no
 * RENAME_WHITEOUT, no O_TMPFILE, no work dir cleanup, a planted data
 * race. In the module users load each hook is a constant, the code behind
 * it is compiled out, and none of these parameters exists.
 */
#ifndef _UNIONLITE_TESTING_H
#define _UNIONLITE_TESTING_H

struct super_block;

#ifdef CONFIG_UNIONLITE_TEST
bool ul_test_naive(void);
bool ul_test_no_rename_whiteout(void);
bool ul_test_no_tmpfile(void);
bool ul_test_skip_work_cleanup(void);
unsigned int ul_test_whiteout_links(void);
void ul_test_step_done(struct super_block *upper_sb);
void ul_test_data_race(void);
#else
static inline bool ul_test_naive(void) { return false; }
static inline bool ul_test_no_rename_whiteout(void) { return false; }
static inline bool ul_test_no_tmpfile(void) { return false; }
static inline bool ul_test_skip_work_cleanup(void) { return false; }
static inline unsigned int ul_test_whiteout_links(void) { return 0; }
static inline void ul_test_step_done(struct super_block *upper_sb) { }
static inline void ul_test_data_race(void) { }
#endif

#endif /* _UNIONLITE_TESTING_H */
