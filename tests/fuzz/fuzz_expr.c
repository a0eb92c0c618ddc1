/* libFuzzer: integer expressions (base/expr.h), as a spec file's
 * restrictions, geometry and metrics give them: parsed with three known
 * names, evaluated on values drawn from the input's first bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/expr.h"

static int lookup(void *ctx, const char *s, size_t n)
{
    (void)ctx;
    static const char *const names[] = {"x", "block_size_x", "n"};
    for (int i = 0; i < 3; ++i)
        if (strlen(names[i]) == n && !strncmp(names[i], s, n))
            return i;
    return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    /* Slot values: small, zero, negative and extreme ones. */
    static const int64_t pick[] = {0, 1, -1, 2, 32, 4096, INT64_MAX,
                                   INT64_MIN};
    int64_t slots[3];
    for (int i = 0; i < 3; ++i)
        slots[i] = pick[data[i] % 8];
    char *text = malloc(size - 2);
    if (!text)
        return 0;
    memcpy(text, data + 3, size - 3);
    text[size - 3] = '\0';
    at_expr *x;
    at_err e = {0};
    int64_t v;
    if (at_expr_parse(text, lookup, NULL, &x, &e) == 0) {
        int used[3];
        if (at_expr_slots(x, used, 3) > 3)
            abort(); /* three names exist */
        at_expr_eval(x, slots, &v, &e);
        at_expr_free(x);
    } else if (!e.msg[0]) {
        abort(); /* an error always says what */
    }
    free(text);
    return 0;
}
