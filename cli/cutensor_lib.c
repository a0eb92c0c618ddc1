#include "cutensor_lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dl.h"

int at_ct_fail(at_err *e, const at_ct_lib *l, ct_status st, const char *call,
               const char *what)
{
    return at_fail(e, AUTOTUNE_ECUDA, "%s: %s (%d) [%s]", call,
                   l->cutensorGetErrorString
                       ? l->cutensorGetErrorString(st)
                       : "CUTENSOR_STATUS_?",
                   st, what);
}

int at_ct_lib_open(at_ct_lib *l, at_err *e)
{
    memset(l, 0, sizeof *l);
    const char *env = getenv("AUTOTUNE_CUTENSOR");
    const char *tries[] = {env && *env ? env : NULL, "libcutensor.so.2"};
    char why[512];
    l->lib = at_dl_open_first(tries, sizeof tries / sizeof *tries, why,
                              sizeof why);
    if (!l->lib)
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "no cuTENSOR: %s", why);
#define AT_CT_SYM_(fn, ret, args)                                            \
    if (!(l->fn = (ret(*) args)at_dl_sym(l->lib, #fn))) {                   \
        memset(l, 0, sizeof *l);                                             \
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "cuTENSOR lacks %s", #fn);    \
    }
    AT_CT_FUNCS(AT_CT_SYM_)
#undef AT_CT_SYM_
    l->desc_32f = at_dl_sym(l->lib, "CUTENSOR_COMPUTE_DESC_32F");
    l->desc_64f = at_dl_sym(l->lib, "CUTENSOR_COMPUTE_DESC_64F");
    if (!l->desc_32f || !l->desc_64f) {
        memset(l, 0, sizeof *l);
        return at_fail(e, AUTOTUNE_ENOT_FOUND,
                       "cuTENSOR lacks CUTENSOR_COMPUTE_DESC_32F/64F");
    }
    ct_status st = l->cutensorCreate(&l->h);
    if (st != CT_SUCCESS) {
        int rc = at_ct_fail(e, l, st, "cutensorCreate", "cuTENSOR");
        memset(l, 0, sizeof *l);
        return rc;
    }
    size_t v = l->cutensorGetVersion();
    snprintf(l->version, sizeof l->version, "cuTENSOR %zu.%zu.%zu",
             v / 10000, v / 100 % 100, v % 100);
    return 0;
}

void at_ct_lib_close(at_ct_lib *l)
{
    if (l->plan)
        l->cutensorDestroyPlan(l->plan);
    if (l->h)
        l->cutensorDestroy(l->h);
    memset(l, 0, sizeof *l);
}

int at_ct_data_type(const char *type, int *wide)
{
    static const struct {
        const char *name;
        int code, wide;
    } all[] = {{"f16", CT_R_16F, 0}, {"bf16", CT_R_16BF, 0},
               {"f32", CT_R_32F, 0}, {"f64", CT_R_64F, 1},
               {"c64", CT_C_32F, 0}, {"c128", CT_C_64F, 1}};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (strcmp(type, all[i].name) == 0) {
            *wide = all[i].wide;
            return all[i].code;
        }
    return -1;
}

int at_ct_plan(at_ct_lib *l, ct_status st, const char *call, ct_op op,
               ct_desc *d, int n, int wide, uint64_t *work,
               const char *what, at_err *e)
{
    ct_pref pref = NULL;
    uint64_t limit = 0;
    if (l->plan)
        l->cutensorDestroyPlan(l->plan);
    l->plan = NULL;
    if (st != CT_SUCCESS)
        ;
    else if ((st = l->cutensorCreatePlanPreference(l->h, &pref,
                                                   CT_ALGO_DEFAULT,
                                                   CT_JIT_NONE)))
        call = "cutensorCreatePlanPreference";
    else if (work && (st = l->cutensorEstimateWorkspaceSize(
                          l->h, op, pref, CT_WORKSPACE_DEFAULT, &limit)))
        call = "cutensorEstimateWorkspaceSize";
    else if ((st = l->cutensorCreatePlan(l->h, &l->plan, op, pref, limit)))
        call = "cutensorCreatePlan";
    if (pref)
        l->cutensorDestroyPlanPreference(pref);
    if (op)
        l->cutensorDestroyOperationDescriptor(op);
    for (int i = 0; i < n; ++i)
        if (d[i])
            l->cutensorDestroyTensorDescriptor(d[i]);
    if (st != CT_SUCCESS) {
        l->plan = NULL;
        return at_ct_fail(e, l, st, call, what);
    }
    l->wide = wide;
    if (work)
        *work = limit;
    return 0;
}

int at_ct_runnable(const at_ct_lib *l, CUdeviceptr in, CUdeviceptr out,
                   const char *what, at_err *e)
{
    if (!l->plan)
        return at_fail(e, AUTOTUNE_EINVALID, "cuTENSOR: no plan for %s",
                       what);
    if ((in | out) % AT_CT_ALIGN)
        return at_fail(e, AUTOTUNE_EINVALID,
                       "cuTENSOR: buffers not aligned to %d bytes",
                       AT_CT_ALIGN);
    return 0;
}
