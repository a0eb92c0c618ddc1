/* cuBLAS, a contender in the transpose benchmark only (not in
 * libautotune), loaded at run time: geam
 * (C = alpha * op(A) + beta * B) with op = transpose, alpha 1 and beta 0
 * is cuBLAS's transpose, for the types it has: f32, f64, c64, c128. A
 * machine without cuBLAS runs everything else. */
#ifndef AT_CUBLAS_H
#define AT_CUBLAS_H

#include "gen/problem.h"
#include "runtime/driver/driver.h"

typedef struct at_cublas at_cublas;

/* Loads libcublas ($AUTOTUNE_CUBLAS, else libcublas.so.13, .12, or the
 * toolkit's) and creates a handle on the current context. On failure
 * AUTOTUNE_ENOT_FOUND (no library) or AUTOTUNE_ECUDA (no handle), with
 * why. */
int at_cublas_open(at_cublas **c, at_err *e);
void at_cublas_close(at_cublas *c);
/* "cuBLAS 13.0.2" */
const char *at_cublas_version(const at_cublas *c);
/* NULL if geam can transpose p; else why not ("no 1-byte geam"). */
const char *at_cublas_cannot(const at_problem *p);
/* One geam on stream s: out = in^T for problem p (one matrix). */
int at_cublas_transpose(at_cublas *c, const at_problem *p, CUdeviceptr in,
                        CUdeviceptr out, CUstream s, at_err *e);

#endif
