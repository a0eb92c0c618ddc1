/* cuTENSOR, a contender in the transpose benchmark only (not in
 * libautotune), loaded at run time: cutensorPermute (B = alpha * A with
 * A's modes reordered) with alpha 1 is cuTENSOR's transpose, for the
 * floating types it permutes: f16, bf16, f32, f64, c64, c128 (no 1-byte
 * permute; integer bits read as floats would not survive its NaN
 * handling). A machine without cuTENSOR runs everything else. */
#ifndef AT_CUTENSOR_H
#define AT_CUTENSOR_H

#include "gen/problem.h"
#include "runtime/driver/driver.h"

typedef struct at_cutensor at_cutensor;

/* Loads libcutensor ($AUTOTUNE_CUTENSOR, else libcutensor.so.2) and
 * creates a handle on the current context. On failure AUTOTUNE_ENOT_FOUND
 * (no library) or AUTOTUNE_ECUDA (no handle), with why. */
int at_cutensor_open(at_cutensor **c, at_err *e);
void at_cutensor_close(at_cutensor *c);
/* "cuTENSOR 2.8.1" */
const char *at_cutensor_version(const at_cutensor *c);
/* NULL if cuTENSOR can transpose p; else why not. */
const char *at_cutensor_cannot(const at_problem *p);
/* Makes the plan for p (kept until the next problem's). */
int at_cutensor_plan(at_cutensor *c, const at_problem *p, at_err *e);
/* One permute on stream s: out = in^T for p, with p's plan. Buffers
 * aligned to 256 bytes (cuMemAlloc's). */
int at_cutensor_transpose(at_cutensor *c, const at_problem *p,
                          CUdeviceptr in, CUdeviceptr out, CUstream s,
                          at_err *e);

#endif
