/* The integer expression evaluator (base/expr.h) that spec files'
 * restrictions, geometry and metrics go through: C's precedence and
 * truncating division, short-circuit logic, min/max, names resolved to
 * slots, and an error naming the place for every malformed text, unknown
 * name, zero divisor and overflow. */
#include "tap.h"

#include <string.h>

#include "base/expr.h"

/* Names: block_size_x, block_size_y, tile, n (slots 0..3). */
static const char *const names[] = {"block_size_x", "block_size_y", "tile",
                                    "n"};

static int lookup(void *ctx, const char *s, size_t len)
{
    (void)ctx;
    for (int i = 0; i < 4; ++i)
        if (strlen(names[i]) == len && !strncmp(names[i], s, len))
            return i;
    return -1;
}

static int64_t value(const char *text, const int64_t *slots)
{
    at_expr *x;
    at_err e = {0};
    int64_t v;
    if (at_expr_parse(text, lookup, NULL, &x, &e))
        fail_msg("parsing '%s': %s", text, e.msg);
    if (at_expr_eval(x, slots, &v, &e))
        fail_msg("evaluating '%s': %s", text, e.msg);
    at_expr_free(x);
    return v;
}

static void arithmetic_and_precedence(void **state)
{
    (void)state;
    const int64_t s[4] = {32, 8, 4, 4096};
    assert_int_equal(value("1 + 2 * 3", s), 7);
    assert_int_equal(value("(1 + 2) * 3", s), 9);
    assert_int_equal(value("10 - 4 - 3", s), 3); /* left to right */
    assert_int_equal(value("100 / 10 / 5", s), 2);
    assert_int_equal(value("-7 / 2", s), -3); /* truncates, as C */
    assert_int_equal(value("-7 % 3", s), -1);
    assert_int_equal(value("- -3 + +2", s), 5);
    assert_int_equal(value("block_size_x == block_size_y * tile", s), 1);
    assert_int_equal(value("(n + block_size_x - 1) / block_size_x", s), 128);
    assert_int_equal(value("min(block_size_x, tile) * max(2, n % 7)", s),
                     4 * 2);
    assert_int_equal(value("9223372036854775807", s), INT64_MAX);
}

static void comparisons_and_logic(void **state)
{
    (void)state;
    const int64_t s[4] = {32, 8, 4, 0};
    assert_int_equal(value("1 < 2 == 1", s), 1); /* < before == */
    assert_int_equal(value("3 <= 3 && 3 >= 4", s), 0);
    assert_int_equal(value("2 > 1 || 1 / n", s), 1);  /* not evaluated */
    assert_int_equal(value("n != 0 && 8 / n > 1", s), 0);
    assert_int_equal(value("!n + !!tile", s), 2);
    assert_int_equal(value("1 || 0 && 0", s), 1); /* && before || */
    assert_int_equal(value("tile % 2 == 0 && block_size_x >= 32", s), 1);
}

/* The error for text (parse or evaluation) contains want. */
static void fails_with(const char *text, const int64_t *slots, int code,
                       const char *want)
{
    at_expr *x = NULL;
    at_err e = {0};
    int64_t v;
    int rc = at_expr_parse(text, lookup, NULL, &x, &e);
    if (rc == 0) {
        rc = at_expr_eval(x, slots, &v, &e);
        at_expr_free(x);
    } else {
        assert_null(x);
    }
    if (rc != code || !strstr(e.msg, want))
        fail_msg("'%s': code %d '%s', wanted %d and '%s'", text, rc, e.msg,
                 code, want);
}

static void errors_name_the_place(void **state)
{
    (void)state;
    const int64_t s[4] = {32, 0, 4, INT64_MAX};
    /* Text, code, and what the message must say. */
    static const struct {
        const char *text;
        int code;
        const char *want;
    } cases[] = {
        {"block_size_x == tile_y * 2", AUTOTUNE_EINVALID,
         "unknown name 'tile_y' at column 17 of"},
        {"pow(2, 3)", AUTOTUNE_EINVALID,
         "unknown function 'pow'"},
        {"1 +", AUTOTUNE_EINVALID,
         "expected an operand, found the end at column 4"},
        {"(1 + 2", AUTOTUNE_EINVALID,
         "expected ')' at column 7"},
        {"1 + 2)", AUTOTUNE_EINVALID,
         "unexpected text after the expression"},
        {"min(1)", AUTOTUNE_EINVALID,
         "min takes two arguments"},
        {"max(1, 2, 3)", AUTOTUNE_EINVALID,
         "expected ')' after the second"},
        {"1 & 2", AUTOTUNE_EINVALID,
         "unexpected text"},
        {"2x", AUTOTUNE_EINVALID,
         "letter after a number"},
        {"", AUTOTUNE_EINVALID,
         "expected an operand"},
        {"99999999999999999999", AUTOTUNE_EINVALID,
         "number too large"},
        {"tile / block_size_y", AUTOTUNE_ERANGE,
         "division by zero at column 6 of 'tile / block_size_y'"},
        {"tile % (block_size_x - 32)", AUTOTUNE_ERANGE,
         "remainder by zero"},
        {"n + 1", AUTOTUNE_ERANGE,
         "overflow in '+' at column 3"},
        {"n * 2", AUTOTUNE_ERANGE,
         "overflow in '*'"},
        {"-n - 2", AUTOTUNE_ERANGE,
         "overflow in '-'"},
        {"(-n - 1) / -1", AUTOTUNE_ERANGE,
         "overflow in '/'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        fails_with(cases[i].text, s, cases[i].code, cases[i].want);
    char deep[300];
    memset(deep, '(', 100);
    strcpy(deep + 100, "1");
    memset(deep + 101, ')', 100);
    deep[201] = 0;
    fails_with(deep, s, AUTOTUNE_EINVALID, "nested too deeply");
    static char long_text[AT_EXPR_MAX_TEXT + 8];
    memset(long_text, '1', sizeof long_text - 1);
    fails_with(long_text, s, AUTOTUNE_EINVALID, "characters (at most");
}

static void slots_in_order_of_use(void **state)
{
    (void)state;
    at_expr *x;
    at_err e = {0};
    assert_int_equal(at_expr_parse("n / tile + tile * block_size_x", lookup,
                                   NULL, &x, &e), 0);
    int used[4];
    assert_int_equal(at_expr_slots(x, used, 4), 3);
    assert_int_equal(used[0], 3);
    assert_int_equal(used[1], 2);
    assert_int_equal(used[2], 0);
    assert_int_equal(at_expr_slots(x, used, 1), 3); /* counts them all */
    assert_string_equal(at_expr_text(x), "n / tile + tile * block_size_x");
    at_expr_free(x);
    /* No names known: every name is unknown. */
    assert_int_equal(at_expr_parse("a", NULL, NULL, &x, &e),
                     AUTOTUNE_EINVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arithmetic_and_precedence),
        cmocka_unit_test(comparisons_and_logic),
        cmocka_unit_test(errors_name_the_place),
        cmocka_unit_test(slots_in_order_of_use),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
