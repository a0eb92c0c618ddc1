/* Without a CUDA driver every entry point says so plainly; the error table
 * is complete. The driver is forced absent, so this runs the same on a GPU
 * machine. */
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#include "autotune.h"

static void create_without_driver(void **state)
{
    (void)state;
    autotune_ctx *ctx = (autotune_ctx *)1;
    char dir[] = "/tmp/at_nodev_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/c.db", dir);
    autotune_options o = {0, path, 0};
    assert_int_equal(autotune_create(&ctx, &o), AUTOTUNE_ENO_DRIVER);
    assert_null(ctx);
    const char *msg = autotune_last_error(NULL);
    assert_non_null(strstr(msg, "no CUDA driver"));
    assert_non_null(strstr(msg, "/nonexistent/libcuda.so.1"));
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void null_arguments(void **state)
{
    (void)state;
    autotune_kernel *k = NULL;
    autotune_problem p = {"transpose", "f32", 8, 8, 0, 0};
    assert_int_equal(autotune_get(NULL, &p, &k), AUTOTUNE_EINVALID);
    assert_int_equal(autotune_launch(NULL, NULL, NULL, NULL),
                     AUTOTUNE_EINVALID);
    assert_int_equal(autotune_kernel_figures(NULL, NULL), AUTOTUNE_EINVALID);
    assert_int_equal(autotune_create(NULL, NULL), AUTOTUNE_EINVALID);
    autotune_destroy(NULL);
    autotune_kernel_destroy(NULL);
}

static void every_code_has_its_own_message(void **state)
{
    (void)state;
    const int codes[] = {
#define AT_CODE_(name, value, msg) value,
        AUTOTUNE_ERRORS(AT_CODE_)
#undef AT_CODE_
    };
    size_t n = sizeof codes / sizeof codes[0];
    for (size_t i = 0; i < n; ++i) {
        assert_true(strlen(autotune_strerror(codes[i])) > 3);
        for (size_t j = 0; j < i; ++j)
            assert_string_not_equal(autotune_strerror(codes[i]),
                                    autotune_strerror(codes[j]));
    }
    assert_string_equal(autotune_strerror(12345), "unknown error code");
}

int main(void)
{
    setenv("AUTOTUNE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_without_driver),
        cmocka_unit_test(null_arguments),
        cmocka_unit_test(every_code_has_its_own_message),
    };
    return AT_RUN_TESTS(tests);
}
