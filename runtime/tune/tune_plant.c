/* Points planted with a fault: test builds only (AT_TEST, as SQLite's
 * SQLITE_TEST; the Makefile compiles this file into libautotune-san.a
 * and build/autotune-test, never into libautotune.a or the installed
 * library).
 *
 * AUTOTUNE_PLANT="fault@I,trap@J,spin@K,skip@L" makes the I-th point of
 * the space write to an illegal address, the J-th execute __trap(), the
 * K-th spin forever and the L-th return at once when launched on the
 * problem (its grid), so that it is fast and wrong there but right on the
 * check shapes: real variants of a real space, for the GPU suite to prove
 * that such variants are contained and never chosen
 * (tests/gpu/faults.sh). */
#include <stdlib.h>
#include <string.h>

#include "runtime/tune/tune_impl.h"

static const struct {
    const char *name, *code;
} kinds[] = {
    {"fault", "if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 "
              "&& threadIdx.y == 0) *(volatile int *)8 = 1;"},
    {"trap", "if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 "
             "&& threadIdx.y == 0) __trap();"},
    {"spin", "if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 "
             "&& threadIdx.y == 0) for (;;) __nanosleep(1000);"},
    {"skip", "if (gridDim.x == %uu && gridDim.y == %uu && gridDim.z == %uu) "
             "return;"},
};

int at_tune_plants(run *r, const at_point *pts, size_t n, at_err *e)
{
    const char *env = getenv("AUTOTUNE_PLANT");
    char buf[256];
    if (!env || !*env)
        return 0;
    if (strlen(env) >= sizeof buf)
        return at_fail(e, AUTOTUNE_EINVALID, "AUTOTUNE_PLANT too long");
    snprintf(buf, sizeof buf, "%s", env);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        char *at = strchr(t, '@'), *end;
        size_t k = 0, nk = sizeof kinds / sizeof kinds[0];
        if (at) {
            *at = '\0';
            while (k < nk && strcmp(t, kinds[k].name) != 0)
                ++k;
        }
        unsigned long long i = at ? strtoull(at + 1, &end, 10) : 0;
        if (!at || k == nk || !at[1] || *end || i >= n ||
            r->n_plants == MAX_PLANTS)
            return at_fail(e, AUTOTUNE_EINVALID, "AUTOTUNE_PLANT: '%s' is "
                           "not fault@I, trap@I, spin@I or skip@I with I "
                           "below %zu (at most %d)", env, n, MAX_PLANTS);
        plant *pl = &r->plants[r->n_plants++];
        at_launch g;
        r->p->family->ops.launch(r->p, &pts[i], &g);
        pl->pt = pts[i];
        snprintf(pl->code, sizeof pl->code, kinds[k].code, g.grid[0],
                 g.grid[1], g.grid[2]);
    }
    return 0;
}

const char *at_tune_prelude(const run *r, const at_point *pt)
{
    for (int i = 0; i < r->n_plants; ++i)
        if (memcmp(&r->plants[i].pt, pt, sizeof *pt) == 0)
            return r->plants[i].code;
    return NULL;
}
