/* For the GPU tests: points compiled into modules as the tuner compiles
 * them, programs of BATCH points (kernel i % BATCH of module i / BATCH).
 * A header of static functions: each test is one translation unit. */
#ifndef AT_TEST_GPU_PROGRAMS_H
#define AT_TEST_GPU_PROGRAMS_H

#include <stdlib.h>

#include "gen/expand.h"
#include "runtime/driver/driver.h"

/* Points per NVRTC program, as the tuner compiles them. */
enum { BATCH = 16 };

/* Compiles pts[0, n) as the tuner does (programs of BATCH), with the
 * problem's code paths or, for AT_PATHS_ALL, every one (what the API
 * compiles for buffers a tuned kernel does not take), and returns their
 * modules, one a program. */
static CUmodule *compile_points_paths(const at_problem *p,
                                      const at_point *pts, size_t n, int sm,
                                      unsigned paths)
{
    at_err e = {0};
    size_t nprog = (n + BATCH - 1) / BATCH;
    at_job *jobs = calloc(nprog, sizeof *jobs);
    CUmodule *mods = calloc(nprog, sizeof *mods);
    at_pool *pool;
    assert_non_null(jobs);
    assert_non_null(mods);
    assert_int_equal(at_pool_create(&pool, 0, &e), 0);
    for (size_t g = 0; g < nprog; ++g) {
        const at_point *sel[BATCH];
        int k = (int)(n - g * BATCH < BATCH ? n - g * BATCH : BATCH);
        for (int q = 0; q < k; ++q)
            sel[q] = &pts[g * BATCH + (size_t)q];
        jobs[g].opts.sm = sm;
        p->family->ops.point_name(p->family, sel[0], jobs[g].variant,
                              sizeof jobs[g].variant);
        jobs[g].src = paths == AT_PATHS_ALL
                          ? at_expand_program_paths(p, sel, k, paths, &e)
                          : at_expand_program(p, sel, NULL, k, &e);
        assert_non_null(jobs[g].src);
        at_pool_submit(pool, &jobs[g]);
    }
    for (size_t g = 0; g < nprog; ++g) {
        at_pool_wait(pool, &jobs[g]);
        if (jobs[g].rc)
            fail_msg("compiling %s: %s", jobs[g].variant, jobs[g].err.msg);
        if (at_cu_fail(&e, at_cu.cuModuleLoadData(&mods[g], jobs[g].cubin),
                       "cuModuleLoadData", jobs[g].variant))
            fail_msg("%s", e.msg);
        at_job_release(&jobs[g]);
    }
    at_pool_destroy(pool);
    free(jobs);
    return mods;
}

/* The same with the problem's own code paths. */
static CUmodule *compile_points(const at_problem *p, const at_point *pts,
                                size_t n, int sm)
{
    return compile_points_paths(p, pts, n, sm, 0);
}

#endif
