/* A benchmark's summary of its problems, those of 64 MiB or more apart
 * from the smaller ones (cli/bench_summary.h): counts, medians, minima
 * with the problem named, targets missed, by element size; each line
 * checked on a made-up set whose answers are worked out here. No GPU. */
#include "tap.h"

#include <string.h>

#include "cli/bench_summary.c"

#define MIB (1024.0 * 1024)

static char *summarise(const at_bench_point *pts, int n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    at_bench_summary(f, pts, n);
    fclose(f);
    return text;
}

static void large_apart_from_small(void **state)
{
    (void)state;
    const at_bench_point pts[] = {
        {80 * MIB, 1, 0.489, 1, "u8 31x3552786"},
        {500 * MIB, 1, 0.625, 1, "u8 20425x25880"},
        {120 * MIB, 1, 0.95, 0, "i8 9000x14000"},
        {256 * MIB, 4, 0.97, 0, "f32 8192x8192"},
        {64 * MIB, 4, 0.99, 0, "f32 4096x4096"}, /* the line: large */
        {63.9 * MIB, 4, 1.25, 0, "f32 4095x4096"},
        {4 * MIB, 2, 0.60, 1, "f16 1024x2048"},
    };
    char *t = summarise(pts, 7);
    const char *large = strstr(t, "problems of 64 MiB or more");
    const char *small = strstr(t, "problems under 64 MiB");
    assert_non_null(large);
    assert_non_null(small);
    assert_true(large < small); /* the ones the copy bounds first */
    /* 5 large: 0.489 0.625 0.95 0.97 0.99, median 0.95, 2 missed. */
    assert_non_null(strstr(large, "  all: 5, median 95.0% of the copy, "
                           "minimum 48.9% (u8 31x3552786), 2 missed their "
                           "target\n"));
    assert_non_null(strstr(large, "  1-byte elements: 3, median 62.5%"));
    /* Two 4-byte ones: the median is their mean. */
    assert_non_null(strstr(large, "  4-byte elements: 2, median 98.0% of "
                           "the copy, minimum 97.0% (f32 8192x8192), 0 "
                           "missed"));
    /* No 2-byte problem among the large: the first such line is the
     * small group's. */
    assert_true(strstr(large, "  2-byte elements") > small);
    assert_non_null(strstr(small, "  all: 2, median 92.5% of the copy, "
                           "minimum 60.0% (f16 1024x2048), 1 missed its "
                           "target\n"));
    assert_non_null(strstr(small, "  4-byte elements: 1, median 125.0%"));
    free(t);
}

static void one_group_or_none(void **state)
{
    (void)state;
    char *t = summarise(NULL, 0);
    assert_string_equal(t, "");
    free(t);
    const at_bench_point small[] = {{1 * MIB, 0, 1.5, 0, "spec 1000"}};
    t = summarise(small, 1);
    assert_null(strstr(t, "64 MiB or more"));
    assert_non_null(strstr(t, "  all: 1, median 150.0% of the copy"));
    assert_null(strstr(t, "elements")); /* no element size */
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(large_apart_from_small),
        cmocka_unit_test(one_group_or_none),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
