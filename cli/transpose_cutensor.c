#include "transpose_cutensor.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dl.h"
#include "gen/transpose.h"

/* The few declarations of cuTENSOR 2.x's cutensor.h used here, so that
 * the build needs no cuTENSOR: opaque handles, and the enumerators' values
 * (cutensor/types.h, library_types.h). */
typedef int ct_status;
typedef struct ct_handle_s *ct_handle;
typedef struct ct_desc_s *ct_desc;
typedef struct ct_op_s *ct_op;
typedef struct ct_pref_s *ct_pref;
typedef struct ct_plan_s *ct_plan;
typedef struct ct_compute_s *ct_compute;
enum { CT_SUCCESS = 0, CT_OP_IDENTITY = 1, CT_ALGO_DEFAULT = -1,
       CT_JIT_NONE = 0 };
enum { CT_R_32F = 0, CT_R_64F = 1, CT_R_16F = 2, CT_C_32F = 4,
       CT_C_64F = 5, CT_R_16BF = 14 };
/* The buffers' alignment: cuMemAlloc's. */
enum { ALIGN = 256 };

#define CT_FUNCS(X)                                                          \
    X(cutensorCreate, ct_status, (ct_handle *))                              \
    X(cutensorDestroy, ct_status, (ct_handle))                               \
    X(cutensorGetErrorString, const char *, (ct_status))                     \
    X(cutensorGetVersion, size_t, (void))                                    \
    X(cutensorCreateTensorDescriptor, ct_status,                             \
      (ct_handle, ct_desc *, uint32_t, const int64_t *, const int64_t *,     \
       int, uint32_t))                                                       \
    X(cutensorDestroyTensorDescriptor, ct_status, (ct_desc))                 \
    X(cutensorCreatePermutation, ct_status,                                  \
      (ct_handle, ct_op *, ct_desc, const int32_t *, int, ct_desc,           \
       const int32_t *, ct_compute))                                         \
    X(cutensorDestroyOperationDescriptor, ct_status, (ct_op))                \
    X(cutensorCreatePlanPreference, ct_status,                               \
      (ct_handle, ct_pref *, int, int))                                      \
    X(cutensorDestroyPlanPreference, ct_status, (ct_pref))                   \
    X(cutensorCreatePlan, ct_status,                                         \
      (ct_handle, ct_plan *, ct_op, ct_pref, uint64_t))                      \
    X(cutensorDestroyPlan, ct_status, (ct_plan))                             \
    X(cutensorPermute, ct_status,                                            \
      (ct_handle, ct_plan, const void *, const void *, void *, CUstream))

struct at_cutensor {
    void *lib;
#define CT_MEMBER_(fn, ret, args) ret(*fn) args;
    CT_FUNCS(CT_MEMBER_)
#undef CT_MEMBER_
    const ct_compute *desc_32f, *desc_64f; /* the library's constants */
    ct_handle h;
    ct_plan plan; /* for the last problem planned */
    int wide;     /* its compute type is 64-bit */
    char version[32];
};

static int fail(at_err *e, const at_cutensor *c, ct_status st,
                const char *call, const char *what)
{
    return at_fail(e, AUTOTUNE_ECUDA, "%s: %s (%d) [%s]", call,
                   c->cutensorGetErrorString
                       ? c->cutensorGetErrorString(st)
                       : "CUTENSOR_STATUS_?",
                   st, what);
}

int at_cutensor_open(at_cutensor **out, at_err *e)
{
    *out = NULL;
    at_cutensor *c = calloc(1, sizeof *c);
    if (!c)
        return at_fail(e, AUTOTUNE_ENOMEM, "cuTENSOR handle");
    const char *env = getenv("AUTOTUNE_CUTENSOR");
    const char *tries[] = {env && *env ? env : NULL, "libcutensor.so.2"};
    char why[512];
    c->lib = at_dl_open_first(tries, sizeof tries / sizeof *tries, why,
                              sizeof why);
    if (!c->lib) {
        free(c);
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "no cuTENSOR: %s", why);
    }
#define CT_SYM_(fn, ret, args)                                               \
    if (!(c->fn = (ret(*) args)at_dl_sym(c->lib, #fn))) {                   \
        free(c);                                                             \
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "cuTENSOR lacks %s", #fn);    \
    }
    CT_FUNCS(CT_SYM_)
#undef CT_SYM_
    c->desc_32f = at_dl_sym(c->lib, "CUTENSOR_COMPUTE_DESC_32F");
    c->desc_64f = at_dl_sym(c->lib, "CUTENSOR_COMPUTE_DESC_64F");
    if (!c->desc_32f || !c->desc_64f) {
        free(c);
        return at_fail(e, AUTOTUNE_ENOT_FOUND,
                       "cuTENSOR lacks CUTENSOR_COMPUTE_DESC_32F/64F");
    }
    ct_status st = c->cutensorCreate(&c->h);
    if (st != CT_SUCCESS) {
        int rc = fail(e, c, st, "cutensorCreate", "cuTENSOR");
        free(c);
        return rc;
    }
    size_t v = c->cutensorGetVersion();
    snprintf(c->version, sizeof c->version, "cuTENSOR %zu.%zu.%zu",
             v / 10000, v / 100 % 100, v % 100);
    *out = c;
    return 0;
}

void at_cutensor_close(at_cutensor *c)
{
    if (!c)
        return;
    if (c->plan)
        c->cutensorDestroyPlan(c->plan);
    if (c->h)
        c->cutensorDestroy(c->h);
    /* The library stays loaded, as cuBLAS does. */
    free(c);
}

const char *at_cutensor_version(const at_cutensor *c) { return c->version; }

/* The data type's code, and whether its compute type is 64-bit; -1 where
 * cuTENSOR has no permute for the type. */
static int data_type(const at_problem *p, int *wide)
{
    static const struct {
        const char *name;
        int code, wide;
    } all[] = {{"f16", CT_R_16F, 0}, {"bf16", CT_R_16BF, 0},
               {"f32", CT_R_32F, 0}, {"f64", CT_R_64F, 1},
               {"c64", CT_C_32F, 0}, {"c128", CT_C_64F, 1}};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (strcmp(p->type->name, all[i].name) == 0) {
            *wide = all[i].wide;
            return all[i].code;
        }
    return -1;
}

const char *at_cutensor_cannot(const at_problem *p)
{
    int wide = 0;
    return data_type(p, &wide) < 0
               ? "cuTENSOR permutes f16, bf16, f32, f64, c64 and c128 only"
               : NULL;
}

int at_cutensor_plan(at_cutensor *c, const at_problem *p, at_err *e)
{
    int wide = 0, code = data_type(p, &wide);
    if (code < 0)
        return at_fail(e, AUTOTUNE_EINVALID, "cuTENSOR: %s",
                       at_cutensor_cannot(p));
    if (c->plan) {
        c->cutensorDestroyPlan(c->plan);
        c->plan = NULL;
    }
    const int64_t *v = p->v;
    /* in[z][r][c] is A with modes (c, r, z); out[z][c][r] is B with modes
     * (r, c, z); the batch mode only where there is a batch. */
    const uint32_t modes = v[TP_BATCH] > 1 ? 3 : 2;
    const int64_t ext_a[] = {v[TP_COLS], v[TP_ROWS], v[TP_BATCH]};
    const int64_t str_a[] = {1, v[TP_LD_IN], v[TP_STRIDE_IN]};
    const int64_t ext_b[] = {v[TP_ROWS], v[TP_COLS], v[TP_BATCH]};
    const int64_t str_b[] = {1, v[TP_LD_OUT], v[TP_STRIDE_OUT]};
    const int32_t mode_a[] = {'c', 'r', 'z'}, mode_b[] = {'r', 'c', 'z'};
    ct_desc da = NULL, db = NULL;
    ct_op op = NULL;
    ct_pref pref = NULL;
    ct_status st;
    const char *call = "";
    if ((st = c->cutensorCreateTensorDescriptor(c->h, &da, modes, ext_a,
                                                str_a, code, ALIGN)) ||
        (st = c->cutensorCreateTensorDescriptor(c->h, &db, modes, ext_b,
                                                str_b, code, ALIGN)))
        call = "cutensorCreateTensorDescriptor";
    else if ((st = c->cutensorCreatePermutation(
                  c->h, &op, da, mode_a, CT_OP_IDENTITY, db, mode_b,
                  *(wide ? c->desc_64f : c->desc_32f))))
        call = "cutensorCreatePermutation";
    else if ((st = c->cutensorCreatePlanPreference(c->h, &pref,
                                                   CT_ALGO_DEFAULT,
                                                   CT_JIT_NONE)))
        call = "cutensorCreatePlanPreference";
    else if ((st = c->cutensorCreatePlan(c->h, &c->plan, op, pref, 0)))
        call = "cutensorCreatePlan";
    if (pref)
        c->cutensorDestroyPlanPreference(pref);
    if (op)
        c->cutensorDestroyOperationDescriptor(op);
    if (db)
        c->cutensorDestroyTensorDescriptor(db);
    if (da)
        c->cutensorDestroyTensorDescriptor(da);
    if (st != CT_SUCCESS) {
        c->plan = NULL;
        return fail(e, c, st, call, p->type->name);
    }
    c->wide = wide;
    return 0;
}

int at_cutensor_transpose(at_cutensor *c, const at_problem *p,
                          CUdeviceptr in, CUdeviceptr out, CUstream s,
                          at_err *e)
{
    if (!c->plan)
        return at_fail(e, AUTOTUNE_EINVALID, "cuTENSOR: no plan for %s",
                       p->type->name);
    if ((in | out) % ALIGN)
        return at_fail(e, AUTOTUNE_EINVALID,
                       "cuTENSOR: buffers not aligned to %d bytes", ALIGN);
    /* alpha = 1 in the compute type, real or complex ({1, 0}). */
    const float one_f[2] = {1, 0};
    const double one_d[2] = {1, 0};
    ct_status st = c->cutensorPermute(c->h, c->plan,
                                      c->wide ? (const void *)one_d
                                           : (const void *)one_f,
                                      (const void *)(uintptr_t)in,
                                      (void *)(uintptr_t)out, s);
    return st == CT_SUCCESS ? 0 : fail(e, c, st, "cutensorPermute",
                                      p->type->name);
}
