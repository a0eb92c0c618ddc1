/* PCG32 against the reference output of pcg32-demo in the PCG authors'
 * minimal C library (seed 42, stream 54). */
#include "tap.h"

#include "base/pcg.h"

static void reference_sequence(void **state)
{
    (void)state;
    static const uint32_t want[] = {0xa15c02b7, 0x7b47f409, 0xba1d3330,
                                    0x83d2f293, 0xbfa4784b, 0xcbed606e};
    at_pcg g;
    at_pcg_seed(&g, 42u, 54u);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i)
        assert_int_equal(at_pcg_next(&g), want[i]);
}

static void streams_differ(void **state)
{
    (void)state;
    at_pcg a, b;
    at_pcg_seed(&a, 42u, 54u);
    at_pcg_seed(&b, 42u, 55u);
    int same = 0;
    for (int i = 0; i < 64; ++i)
        same += at_pcg_next(&a) == at_pcg_next(&b);
    assert_true(same < 4);
}

static void bounded_in_range_and_covers(void **state)
{
    (void)state;
    at_pcg g;
    at_pcg_seed(&g, 7u, 1u);
    int seen[10] = {0};
    for (int i = 0; i < 10000; ++i) {
        uint32_t v = at_pcg_bounded(&g, 10);
        assert_in_range(v, 0, 9);
        seen[v]++;
    }
    for (int k = 0; k < 10; ++k)
        assert_in_range(seen[k], 800, 1200); /* 1000 expected each */
}

static void fresh_seeds_differ(void **state)
{
    (void)state;
    assert_true(at_pcg_fresh_seed() != at_pcg_fresh_seed());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_sequence),
        cmocka_unit_test(streams_differ),
        cmocka_unit_test(bounded_in_range_and_covers),
        cmocka_unit_test(fresh_seeds_differ),
    };
    return AT_RUN_TESTS(tests);
}
