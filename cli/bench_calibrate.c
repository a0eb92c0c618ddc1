/* `autotune bench tune`'s calibration (issue 36): how fast this host's
 * NVRTC is, so that tuning times from different leases can be compared.
 * A fixed program, the transpose family's 16 points spread over its space
 * for 8192 x 8192 f32 (what a cold tune compiles, 16 to a program),
 * compiled twice by one process, then once by each of procs processes at
 * once (the tune's compile workers). Its figures change with the
 * transpose template; compare leases on one commit. */
#include <math.h>
#include <stdlib.h>

#include "bench_tune.h"
#include "errors.h"
#include "gen/expand.h"
#include "gen/space.h"
#include "runtime/driver/driver.h"

enum { PROGRAM_POINTS = 16 };

/* The program's source, malloc'd, into *src, its points into *k; its
 * problem into *p. The points are sm_90's where the table does not know
 * sm (a newer GPU): the same program, compiled for sm. */
static int program(int sm, at_problem *p, char **src, int *k, at_err *e)
{
    at_limits l;
    at_point *pts = NULL;
    size_t n = 0;
    if (!at_limits_for_arch(sm, &l))
        at_limits_for_arch(90, &l);
    int rc = at_problem_make(p, "transpose", "f32", "rows=8192 cols=8192", e);
    if (!rc)
        rc = at_space_points(p->family, p, &l, &pts, &n, e);
    if (rc)
        return rc;
    const at_point *pick[PROGRAM_POINTS];
    for (*k = 0; *k < PROGRAM_POINTS && (size_t)*k < n; ++*k)
        pick[*k] = &pts[(size_t)*k * n / PROGRAM_POINTS];
    *src = at_expand_program(p, pick, NULL, *k, e);
    free(pts);
    return *src ? 0 : e->code ? e->code : AUTOTUNE_ENOMEM;
}

/* A row: its point column says what was compiled (no comma: the CSV
 * does not quote it). */
static void fill(bench_tune_row *r, const at_problem *p, int kind,
                 int points, const at_calibration *c)
{
    r->p = *p;
    r->cache = kind;
    r->wall_s = c->wall_s;
    r->compiled = (long long)c->compiles * points;
    r->variants_per_s = r->compiled / c->wall_s;
    r->nvrtc_cpu_s = c->cpu_s;
    r->best_ms = NAN;
    r->workers = c->procs;
    snprintf(r->point, sizeof r->point, "%d points a program; %d compiles",
             points, c->compiles);
}

int at_bench_calibrate(int sm, int procs, bench_tune_row *r)
{
    at_err e = {0};
    at_problem p;
    char *src = NULL;
    at_calibration alone, busy;
    int points = 0;
    if (procs <= 0) /* as many as a tune's compile workers */
        procs = at_pool_default_workers();
    int rc = program(sm, &p, &src, &points, &e);
    if (!rc)
        rc = at_compile_calibrate(src, sm, 1, 2, &alone, &e);
    if (!rc)
        rc = at_compile_calibrate(src, sm, procs, 1, &busy, &e);
    free(src);
    if (rc) {
        at_cli_fail(&e);
        return 1;
    }
    fill(&r[0], &p, CAL_ALONE, points, &alone);
    fill(&r[1], &p, CAL_BUSY, points, &busy);
    return 0;
}
