/* AUTOTUNE_ESTIMATE's one variant: a point's cubin for a problem, taken
 * from a tuned entry of the same source, else from the compiled-variant
 * cache (compiled alone, as the tuner compiles a winner, or in one of the
 * tuner's programs of several points: the very code a tune timed), else
 * compiled here; then loaded and verified on the problem itself and the
 * family's check shapes. Nothing is timed. */
#ifndef AT_ESTIMATE_H
#define AT_ESTIMATE_H

#include "cubins.h"
#include "tune.h"

/* have, have_size: a cubin of pt compiled for the problem `have_for`
 * (NULL: none), used when pt's source is the same for both. On success
 * *cubin is malloc'd and kernel names pt's kernel in it. AUTOTUNE_EWRONG
 * when pt fails its verification. */
int at_estimate_check(const at_device *d, const at_problem *p,
                      const at_point *pt, const at_tune_opts *o,
                      const at_problem *have_for, const void *have,
                      size_t have_size, void **cubin, size_t *size,
                      char kernel[AT_KERNEL_NAME], at_err *e);

#endif
