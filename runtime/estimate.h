/* AUTOTUNE_ESTIMATE's one variant: a point's cubin for a problem, as the
 * tuner compiles a winner (alone, its kernel AT_KERNEL_SYMBOL), taken
 * from the compiled-variant cache or from a tuned entry of the same
 * source when there, else compiled here; then loaded and verified on the
 * problem itself and the family's check shapes. Nothing is timed. */
#ifndef AT_ESTIMATE_H
#define AT_ESTIMATE_H

#include "tune.h"

/* have, have_size: a cubin of pt compiled for the problem `have_for`
 * (NULL: none), used when pt's source is the same for both. On success
 * *cubin is malloc'd. AUTOTUNE_EWRONG when pt fails its verification. */
int at_estimate_check(const at_device *d, const at_problem *p,
                      const at_point *pt, const at_tune_opts *o,
                      const at_problem *have_for, const void *have,
                      size_t have_size, void **cubin, size_t *size,
                      at_err *e);

#endif
