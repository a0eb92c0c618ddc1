/* Launch overhead (issue 12): autotune_launch on a cached handle against
 * a raw cuLaunchKernel of the same function with the same arguments, on
 * a tiny transpose, 100,000 launches each, in interleaved blocks of
 * 1,000 (so drift of clocks and queue state falls on both alike): the
 * host's wall time per launch, median over blocks. A block ends with a
 * stream synchronize, so a launch cannot run ahead of the GPU for more
 * than a block. Prints a table; exits non-zero only if it cannot run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autotune.h"
#include "base/clock.h"
#include "runtime/api/api.h"
#include "runtime/driver/driver.h"

enum { BLOCKS = 100, PER_BLOCK = 1000 };

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *cache = argc > 1 ? argv[1] : NULL;
    autotune_ctx *ctx;
    autotune_options o = {0, cache, 0, 0};
    if (autotune_create(&ctx, &o)) {
        fprintf(stderr, "launch_overhead: %s\n", autotune_last_error(NULL));
        return 77;
    }
    autotune_problem *u = NULL;
    autotune_kernel *k;
    if (autotune_problem_create(ctx, "transpose", "f32", &u) ||
        autotune_problem_set_text(u, "rows=32 cols=32") ||
        autotune_get(ctx, u, &k)) {
        fprintf(stderr, "launch_overhead: %s\n", autotune_last_error(ctx));
        return 1;
    }
    autotune_problem_destroy(u);
    CUdevice d;
    CUcontext c;
    CUdeviceptr in, out;
    CUstream s;
    if (at_cu.cuDeviceGet(&d, 0) || at_cu.cuDevicePrimaryCtxRetain(&c, d) ||
        at_cu.cuCtxPushCurrent(c) || at_cu.cuMemAlloc(&in, 4096) ||
        at_cu.cuMemAlloc(&out, 4096) || at_cu.cuStreamCreate(&s, 0)) {
        fprintf(stderr, "launch_overhead: CUDA setup failed\n");
        return 1;
    }
    /* The raw launch: the same function, geometry and arguments. */
    at_args a;
    k->p.family->ops.args(&k->p, &k->pt, in, out, 0, 0, &a);
    const at_launch *g = &k->g;
    double raw[BLOCKS], ours[BLOCKS];
    const void *args[] = {(const void *)in, (const void *)out};
    for (int warm = 0; warm < 2; ++warm)
        for (int b = 0; b < BLOCKS; ++b) {
            double t0 = at_now_s();
            for (int i = 0; i < PER_BLOCK; ++i)
                if (at_cu.cuLaunchKernel(k->fn, g->grid[0], g->grid[1],
                                         g->grid[2], g->block[0],
                                         g->block[1], g->block[2], g->smem,
                                         s, a.ptr, NULL))
                    return 1;
            at_cu.cuStreamSynchronize(s);
            double t1 = at_now_s();
            for (int i = 0; i < PER_BLOCK; ++i)
                if (autotune_launch(k, args, 2, (struct CUstream_st *)s))
                    return 1;
            at_cu.cuStreamSynchronize(s);
            double t2 = at_now_s();
            raw[b] = (t1 - t0) / PER_BLOCK * 1e6;
            ours[b] = (t2 - t1) / PER_BLOCK * 1e6;
        }
    qsort(raw, BLOCKS, sizeof raw[0], cmp);
    qsort(ours, BLOCKS, sizeof ours[0], cmp);
    printf("launch overhead, transpose f32 32x32 (%s), %d launches each, "
           "interleaved blocks of %d; us per launch:\n",
           autotune_kernel_point(k), BLOCKS * PER_BLOCK, PER_BLOCK);
    printf("%-22s %8s %8s %8s\n", "", "p10", "median", "p90");
    printf("%-22s %8.3f %8.3f %8.3f\n", "cuLaunchKernel (raw)",
           raw[BLOCKS / 10], raw[BLOCKS / 2], raw[9 * BLOCKS / 10]);
    printf("%-22s %8.3f %8.3f %8.3f\n", "autotune_launch", ours[BLOCKS / 10],
           ours[BLOCKS / 2], ours[9 * BLOCKS / 10]);
    printf("autotune_launch / raw, median: %.3f (target: within 1.05)\n",
           ours[BLOCKS / 2] / raw[BLOCKS / 2]);
    autotune_kernel_destroy(k);
    at_cu.cuStreamDestroy(s);
    at_cu.cuMemFree(in);
    at_cu.cuMemFree(out);
    at_cu.cuCtxPopCurrent(&c);
    at_cu.cuDevicePrimaryCtxRelease(d);
    autotune_destroy(ctx);
    return 0;
}
