/* cmocka with TAP output, and a whole-file skip with a reason for tests
 * that cannot run on this machine (no GPU). */
#ifndef AT_TEST_TAP_H
#define AT_TEST_TAP_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#define AT_RUN_TESTS(tests)                                                  \
    (cmocka_set_message_output(CM_OUTPUT_TAP),                               \
     cmocka_run_group_tests(tests, NULL, NULL))

/* TAP's plan-level skip: prove reports the file as skipped, with why. */
static inline int at_skip_all(const char *why)
{
    printf("1..0 # SKIP %s\n", why);
    return 0;
}

/* A group's scratch directory: made (mkdtemp from a "/tmp/x-XXXXXX"
 * template in dir) before its tests, removed after, read-only parts and
 * all. For cmocka_run_group_tests's setup and teardown. */
static inline int at_tmpdir_make(char *dir) { return mkdtemp(dir) ? 0 : -1; }
static inline int at_tmpdir_remove(const char *dir)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "chmod -R u+w %s; rm -rf %s", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
