/* cuTENSOR as the reduction benchmark's contender (cutensorReduce: D =
 * opReduce(opA(A)) with alpha 1, beta 0), loaded as the transpose's is.
 * It takes sum, max, min and amax (opA ABS, opReduce MAX) of f32 and f64,
 * and max, min and amax of f16 and bf16; not sums of squares (it has no
 * square operator) nor integers. Its results come in the input's type
 * (its C type is A's): for f16 and bf16 the timed call writes them so,
 * and the check widens them to the bench's f32 results (a maximum is one
 * of the elements, so exact either way; a 16-bit sum is not, hence no
 * 16-bit sums). */
#ifndef AT_REDUCE_CUTENSOR_H
#define AT_REDUCE_CUTENSOR_H

#include "gen/problem.h"
#include "runtime/driver/driver.h"

typedef struct at_ct_reduce at_ct_reduce;

/* Loads cuTENSOR (at_ct_lib_open) for device d's current context. */
int at_ct_reduce_open(at_ct_reduce **r, const at_device *d, at_err *e);
void at_ct_reduce_close(at_ct_reduce *r);
const char *at_ct_reduce_version(const at_ct_reduce *r);
/* NULL if cuTENSOR can reduce p as the bench asks; else why not. */
const char *at_ct_reduce_cannot(const at_problem *p);
/* p's plan and its workspace (kept until the next problem's). */
int at_ct_reduce_plan(at_ct_reduce *r, const at_problem *p, at_err *e);
/* The timed call: cutensorReduce of in into out, results in p's type. */
int at_ct_reduce_run(at_ct_reduce *r, const at_problem *p, CUdeviceptr in,
                     CUdeviceptr out, CUstream s, at_err *e);
/* The checked call: the same, its results in the bench's result type. */
int at_ct_reduce_check(at_ct_reduce *r, const at_problem *p, CUdeviceptr in,
                       CUdeviceptr out, CUstream s, at_err *e);

#endif
