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
#include <unistd.h>

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

/* Writes text to dir/name, a test's scratch file. */
static inline void at_put_file(const char *dir, const char *name,
                               const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* NAME under the GPU tests' scratch directory ($AT_GPU_TMP, else /tmp). */
static inline void at_gpu_tmp_path(char *buf, size_t n, const char *name)
{
    const char *dir = getenv("AT_GPU_TMP");
    snprintf(buf, n, "%s/%s", dir && *dir ? dir : "/tmp", name);
}

/* A tuning cache gone: its database and its write-ahead log. */
static inline void at_remove_cache(const char *path)
{
    const char *suffix[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; ++i) {
        char f[1100];
        snprintf(f, sizeof f, "%s%s", path, suffix[i]);
        unlink(f);
    }
}

#endif
