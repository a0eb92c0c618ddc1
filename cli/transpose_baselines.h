/* The classic transpose kernels (templates/baselines.cu) as benchmark
 * contenders: the naive one and the 32x32 padded tile with 32x8 threads,
 * compiled with NVRTC on first use for each element size. */
#ifndef AT_TRANSPOSE_BASELINES_H
#define AT_TRANSPOSE_BASELINES_H

#include "runtime/driver/driver.h"

typedef struct at_baselines at_baselines;

at_baselines *at_baselines_create(const at_device *d); /* NULL: no memory */
void at_baselines_destroy(at_baselines *b);
/* The kernel ("at_naive" or "at_classic") for an element size, compiled on
 * first use. */
int at_baselines_get(at_baselines *b, int bytes, int classic, CUfunction *fn,
                     at_err *e);
/* One launch over p's tiles of 32x32 with 32x8 threads. */
int at_baselines_launch(CUfunction fn, const at_problem *p, CUdeviceptr in,
                        CUdeviceptr out, CUstream s, const char *name,
                        at_err *e);

#endif
