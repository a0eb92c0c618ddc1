#include "transpose_cublas.h"

#include <cublas_v2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dl.h"
#include "gen/transpose.h"

#define AT_CUBLAS_FUNCS(X)                                                   \
    X(cublasCreate_v2) X(cublasDestroy_v2) X(cublasSetStream_v2)             \
    X(cublasGetVersion_v2) X(cublasGetStatusName) X(cublasSgeam)             \
    X(cublasDgeam) X(cublasCgeam) X(cublasZgeam)

struct at_cublas {
    void *lib;
#define AT_CUBLAS_MEMBER_(fn) __typeof__(fn) *fn;
    AT_CUBLAS_FUNCS(AT_CUBLAS_MEMBER_)
#undef AT_CUBLAS_MEMBER_
    cublasHandle_t h;
    char version[32];
};

static int fail(at_err *e, at_cublas *c, cublasStatus_t st, const char *call,
                const char *what)
{
    const char *name = c && c->cublasGetStatusName
                           ? c->cublasGetStatusName(st)
                           : "CUBLAS_STATUS_?";
    return at_fail(e, AUTOTUNE_ECUDA, "%s: %s (%d) [%s]", call, name, (int)st,
                   what);
}

int at_cublas_open(at_cublas **out, at_err *e)
{
    *out = NULL;
    at_cublas *c = calloc(1, sizeof *c);
    if (!c)
        return at_fail(e, AUTOTUNE_ENOMEM, "cuBLAS handle");
    const char *env = getenv("AUTOTUNE_CUBLAS");
    const char *tries[] = {env && *env ? env : NULL, "libcublas.so.13",
                           "libcublas.so.12",
                           "/usr/local/cuda/lib64/libcublas.so"};
    char why[512];
    c->lib = at_dl_open_first(tries, sizeof tries / sizeof *tries, why,
                              sizeof why);
    if (!c->lib) {
        free(c);
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "no cuBLAS: %s", why);
    }
#define AT_CUBLAS_SYM_(fn)                                                   \
    c->fn = (__typeof__(fn) *)at_dl_sym(c->lib, #fn);                        \
    if (!c->fn) {                                                            \
        free(c);                                                             \
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "cuBLAS lacks %s", #fn);      \
    }
    AT_CUBLAS_FUNCS(AT_CUBLAS_SYM_)
#undef AT_CUBLAS_SYM_
    cublasStatus_t st = c->cublasCreate_v2(&c->h);
    if (st != CUBLAS_STATUS_SUCCESS) {
        int rc = fail(e, c, st, "cublasCreate", "cuBLAS");
        free(c);
        return rc;
    }
    int v = 0;
    if (c->cublasGetVersion_v2(c->h, &v) == CUBLAS_STATUS_SUCCESS)
        snprintf(c->version, sizeof c->version, "cuBLAS %d.%d.%d", v / 10000,
                 v / 100 % 100, v % 100);
    else
        snprintf(c->version, sizeof c->version, "cuBLAS (version unknown)");
    *out = c;
    return 0;
}

void at_cublas_close(at_cublas *c)
{
    if (!c)
        return;
    if (c->h)
        c->cublasDestroy_v2(c->h);
    /* The library stays loaded: cuBLAS registers exit handlers of its
     * own. */
    free(c);
}

const char *at_cublas_version(const at_cublas *c) { return c->version; }

const char *at_cublas_cannot(const at_problem *p)
{
    const int64_t *v = p->v;
    if (v[TP_BATCH] > 1)
        return "cuBLAS has no batched geam";
    if (v[TP_ROWS] > INT_MAX || v[TP_COLS] > INT_MAX ||
        v[TP_LD_IN] > INT_MAX || v[TP_LD_OUT] > INT_MAX)
        return "geam takes int sizes";
    const char *t = p->type->name;
    if (strcmp(t, "f32") && strcmp(t, "f64") && strcmp(t, "c64") &&
        strcmp(t, "c128"))
        return "cuBLAS geam has f32, f64, c64 and c128 only";
    return NULL;
}

int at_cublas_transpose(at_cublas *c, const at_problem *p, CUdeviceptr in,
                        CUdeviceptr out, CUstream s, at_err *e)
{
    const char *why = at_cublas_cannot(p);
    if (why)
        return at_fail(e, AUTOTUNE_EINVALID, "cuBLAS: %s", why);
    cublasStatus_t st = c->cublasSetStream_v2(c->h, (cudaStream_t)s);
    if (st != CUBLAS_STATUS_SUCCESS)
        return fail(e, c, st, "cublasSetStream", "cuBLAS");
    /* Row-major in (rows x cols, ld_in) is column-major A (cols x rows);
     * row-major out (cols x rows, ld_out) is column-major C (rows x cols):
     * C = A^T. B is C (geam's in-place form), scaled by 0. */
    int m = (int)p->v[TP_ROWS], n = (int)p->v[TP_COLS];
    int lda = (int)p->v[TP_LD_IN], ldc = (int)p->v[TP_LD_OUT];
    const char *t = p->type->name;
    if (strcmp(t, "f32") == 0) {
        const float one = 1, zero = 0;
        st = c->cublasSgeam(c->h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one,
                            (const float *)in, lda, &zero,
                            (const float *)out, ldc, (float *)out, ldc);
    } else if (strcmp(t, "f64") == 0) {
        const double one = 1, zero = 0;
        st = c->cublasDgeam(c->h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one,
                            (const double *)in, lda, &zero,
                            (const double *)out, ldc, (double *)out, ldc);
    } else if (strcmp(t, "c64") == 0) {
        const cuComplex one = {1, 0}, zero = {0, 0};
        st = c->cublasCgeam(c->h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one,
                            (const cuComplex *)in, lda, &zero,
                            (const cuComplex *)out, ldc, (cuComplex *)out,
                            ldc);
    } else {
        const cuDoubleComplex one = {1, 0}, zero = {0, 0};
        st = c->cublasZgeam(c->h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one,
                            (const cuDoubleComplex *)in, lda, &zero,
                            (const cuDoubleComplex *)out, ldc,
                            (cuDoubleComplex *)out, ldc);
    }
    if (st != CUBLAS_STATUS_SUCCESS)
        return fail(e, c, st, "cublas?geam", p->type->name);
    return 0;
}
