#include "runtime/measure/measure.h"

#include "base/median.h"

#include <stdlib.h>

int at_rounds(int n, at_round_fn fn, void *ctx, at_round_result *out,
              at_err *e)
{
    double *ms = malloc((size_t)n * AT_ROUNDS * sizeof *ms);
    if (!ms)
        return at_fail(e, AUTOTUNE_ENOMEM, "round timings");
    int rc = 0;
    for (int k = 0; k < AT_ROUNDS && !rc; ++k)
        for (int i = 0; i < n && !rc; ++i) {
            at_timing t;
            rc = fn(ctx, i, AT_ROUND_SAMPLES, &t, e);
            ms[i * AT_ROUNDS + k] = t.median_ms;
        }
    for (int i = 0; i < n && !rc; ++i) {
        double *r = &ms[i * AT_ROUNDS];
        out[i].ms = at_median_sort(r, AT_ROUNDS);
        out[i].min_ms = r[0];
        out[i].max_ms = r[AT_ROUNDS - 1];
    }
    free(ms);
    return rc;
}
