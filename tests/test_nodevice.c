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

/* A problem is a family, a type and the family's fields by name: each
 * family's own (the header names none), listed, set as numbers, reals
 * or choices, and refused by name where the family has no such field or
 * the value is out of its range. No device needed. */
static void problems_by_name(void **state)
{
    (void)state;
    autotune_problem *p = NULL;
    char v[64];
    assert_int_equal(autotune_problem_create(NULL, "transpose", "f32", &p),
                     0);
    assert_string_equal(autotune_problem_field(p, 0, v, sizeof v), "rows");
    assert_string_equal(v, "8192");
    assert_int_equal(autotune_problem_set_text(p, "rows=100 cols=300"), 0);
    assert_int_equal(autotune_problem_set_int(p, "ld_in", 320), 0);
    assert_string_equal(autotune_problem_field(p, 2, v, sizeof v), "ld_in");
    assert_string_equal(v, "320");
    int n = 0;
    while (autotune_problem_field(p, n, NULL, 0))
        ++n;
    assert_int_equal(n, 7);
    assert_int_equal(autotune_problem_set(p, "op", "max"),
                     AUTOTUNE_ENOT_FOUND);
    assert_non_null(strstr(autotune_last_error(NULL), "op"));
    assert_int_equal(autotune_problem_set(p, "rows", "-3"), AUTOTUNE_ERANGE);
    assert_non_null(strstr(autotune_last_error(NULL), "rows"));
    autotune_problem_destroy(p);
    /* A reduction's fields are its own: op by name, no ld_in. */
    assert_int_equal(autotune_problem_create(NULL, "reduce", "bf16", &p), 0);
    assert_int_equal(autotune_problem_set(p, "op", "max"), 0);
    assert_int_equal(autotune_problem_set(p, "ld_in", "4"),
                     AUTOTUNE_ENOT_FOUND);
    autotune_problem_destroy(p);
    p = (autotune_problem *)1;
    assert_int_equal(autotune_problem_create(NULL, "transposer", "f32", &p),
                     AUTOTUNE_ENOT_FOUND);
    assert_null(p);
    assert_non_null(strstr(autotune_last_error(NULL), "transposer"));
    assert_int_equal(autotune_problem_create(NULL, "transpose", "f128", &p),
                     AUTOTUNE_ENOT_FOUND);
    /* A family of several types needs one named. */
    assert_int_equal(autotune_problem_create(NULL, "reduce", NULL, &p),
                     AUTOTUNE_ENOT_FOUND);
    assert_non_null(strstr(autotune_last_error(NULL),
                           "reduce needs a type (one of: f16 bf16"));
    assert_string_equal(autotune_version(), "1.0.0");
}

static void null_arguments(void **state)
{
    (void)state;
    autotune_kernel *k = NULL;
    autotune_problem *p = NULL;
    assert_int_equal(autotune_problem_create(NULL, "transpose", "f32", &p),
                     0);
    assert_int_equal(autotune_get(NULL, p, &k), AUTOTUNE_EINVALID);
    autotune_problem_destroy(p);
    assert_int_equal(autotune_launch(NULL, NULL, 0, NULL), AUTOTUNE_EINVALID);
    assert_int_equal(autotune_launch_io(NULL, NULL, NULL, NULL),
                     AUTOTUNE_EINVALID);
    assert_int_equal(autotune_kernel_arg_count(NULL), AUTOTUNE_EINVALID);
    assert_int_equal(autotune_problem_set(NULL, "rows", "8"),
                     AUTOTUNE_EINVALID);
    assert_int_equal(autotune_problem_create(NULL, NULL, "f32", &p),
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
        cmocka_unit_test(problems_by_name),
        cmocka_unit_test(null_arguments),
        cmocka_unit_test(every_code_has_its_own_message),
    };
    return AT_RUN_TESTS(tests);
}
