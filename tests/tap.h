/* cmocka with TAP output, and a whole-file skip with a reason for tests
 * that cannot run on this machine (no GPU). */
#ifndef AT_TEST_TAP_H
#define AT_TEST_TAP_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

#endif
