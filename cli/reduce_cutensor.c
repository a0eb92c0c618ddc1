#include "reduce_cutensor.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutensor_lib.h"
#include "gen/reduce.h"

/* 16-bit results widened to float: f16 by cvt (no header needed), bf16
 * by its bits, which are a float's top half. */
static const char widen_src[] =
    "extern \"C\" __global__ void at_widen(const unsigned short *in,\n"
    "                                      float *out, long long n, int bf)\n"
    "{\n"
    "    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    unsigned short h = in[i];\n"
    "    float f;\n"
    "    if (bf)\n"
    "        f = __uint_as_float((unsigned)h << 16);\n"
    "    else\n"
    "        asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h));\n"
    "    out[i] = f;\n"
    "}\n";

struct at_ct_reduce {
    at_ct_lib l;
    int sm;
    CUdeviceptr work, scratch; /* for the last problem planned */
    size_t work_bytes, work_alloc, scratch_alloc;
    CUmodule widen_mod;
    CUfunction widen;
};

int at_ct_reduce_open(at_ct_reduce **out, const at_device *d, at_err *e)
{
    *out = NULL;
    at_ct_reduce *r = calloc(1, sizeof *r);
    if (!r)
        return at_fail(e, AUTOTUNE_ENOMEM, "cuTENSOR reduction");
    int rc = at_ct_lib_open(&r->l, e);
    if (rc) {
        free(r);
        return rc;
    }
    r->sm = d->sm;
    *out = r;
    return 0;
}

void at_ct_reduce_close(at_ct_reduce *r)
{
    if (!r)
        return;
    if (r->work)
        at_cu.cuMemFree(r->work);
    if (r->scratch)
        at_cu.cuMemFree(r->scratch);
    if (r->widen_mod)
        at_cu.cuModuleUnload(r->widen_mod);
    at_ct_lib_close(&r->l);
    free(r);
}

const char *at_ct_reduce_version(const at_ct_reduce *r)
{
    return r->l.version;
}

/* 16-bit input: its results are 16-bit too. */
static int narrow(const at_problem *p) { return p->type->bytes == 2; }

const char *at_ct_reduce_cannot(const at_problem *p)
{
    int wide = 0;
    if (at_ct_data_type(p->type->name, &wide) < 0)
        return "cuTENSOR reduces floating types only";
    if (p->v[RD_OP] == OP_SUMSQ)
        return "cuTENSOR has no square operator for a sum of squares";
    if (narrow(p) && p->v[RD_OP] == OP_SUM)
        return "cuTENSOR sums 16-bit input into 16-bit results (its C "
               "type is A's), not the f32 results asked for";
    return NULL;
}

static int load_widen(at_ct_reduce *r, at_err *e)
{
    if (r->widen)
        return 0;
    at_compile_opts co = {.sm = r->sm};
    void *cubin = NULL;
    size_t size = 0;
    int rc = at_compile(widen_src, "cuTENSOR widen", &co, &cubin, &size, e);
    if (rc)
        return rc;
    CUresult cr = at_cu.cuModuleLoadData(&r->widen_mod, cubin);
    free(cubin);
    if (cr != CUDA_SUCCESS) {
        r->widen_mod = NULL;
        return at_cu_fail(e, cr, "cuModuleLoadData", "cuTENSOR widen");
    }
    AT_CU_TRY(e, "cuTENSOR widen", cuModuleGetFunction, &r->widen,
              r->widen_mod, "at_widen");
    return 0;
}

int at_ct_reduce_plan(at_ct_reduce *r, const at_problem *p, at_err *e)
{
    const char *no = at_ct_reduce_cannot(p);
    if (no)
        return at_fail(e, AUTOTUNE_EINVALID, "cuTENSOR: %s", no);
    int wide = 0, code = at_ct_data_type(p->type->name, &wide);
    const int64_t *v = p->v;
    /* A is in[r][c]: modes (c, r); the whole array one mode. The result
     * keeps the mode not reduced: c down columns, r along rows; none for
     * the whole array. */
    const int all = v[RD_AXIS] == AXIS_ALL;
    const uint32_t modes_a = all ? 1 : 2, modes_c = all ? 0 : 1;
    const int64_t ext_a[] = {v[RD_COLS], v[RD_ROWS]};
    const int64_t str_a[] = {1, v[RD_LD]};
    const int64_t ext_c[] = {at_rd_outputs(p)}, str_c[] = {1};
    const int32_t mode_a[] = {'c', 'r'};
    const int32_t mode_c[] = {at_rd_down(p) ? 'c' : 'r'};
    const int op_a = v[RD_OP] == OP_AMAX ? CT_OP_ABS : CT_OP_IDENTITY;
    const int op_r = v[RD_OP] == OP_SUM   ? CT_OP_ADD
                     : v[RD_OP] == OP_MIN ? CT_OP_MIN
                                          : CT_OP_MAX;
    ct_desc d[2] = {NULL, NULL};
    ct_op op = NULL;
    ct_status st;
    uint64_t work = 0;
    const char *call = "";
    if ((st = r->l.cutensorCreateTensorDescriptor(
             r->l.h, &d[0], modes_a, ext_a, str_a, code, AT_CT_ALIGN)) ||
        (st = r->l.cutensorCreateTensorDescriptor(
             r->l.h, &d[1], modes_c, modes_c ? ext_c : NULL,
             modes_c ? str_c : NULL, code, AT_CT_ALIGN)))
        call = "cutensorCreateTensorDescriptor";
    else if ((st = r->l.cutensorCreateReduction(
                  r->l.h, &op, d[0], mode_a, op_a, d[1], mode_c,
                  CT_OP_IDENTITY, d[1], mode_c, op_r,
                  *(wide ? r->l.desc_64f : r->l.desc_32f))))
        call = "cutensorCreateReduction";
    int rc = at_ct_plan(&r->l, st, call, op, d, 2, wide, &work,
                        p->type->name, e);
    if (rc)
        return rc;
    r->work_bytes = (size_t)work;
    rc = at_cu_grow(&r->work, &r->work_alloc,
                    r->work_bytes ? r->work_bytes : 1, "cuTENSOR", e);
    if (!rc && narrow(p))
        rc = at_cu_grow(&r->scratch, &r->scratch_alloc,
                        (size_t)at_rd_outputs(p) * 2, "cuTENSOR", e);
    if (!rc && narrow(p))
        rc = load_widen(r, e);
    return rc;
}

int at_ct_reduce_run(at_ct_reduce *r, const at_problem *p, CUdeviceptr in,
                     CUdeviceptr out, CUstream s, at_err *e)
{
    int rc = at_ct_runnable(&r->l, in, out, p->type->name, e);
    if (rc)
        return rc;
    /* alpha 1, beta 0 in the compute type: D = opReduce(opA(A)). */
    const float one_f = 1, zero_f = 0;
    const double one_d = 1, zero_d = 0;
    const int w = r->l.wide;
    const void *alpha = w ? (const void *)&one_d : (const void *)&one_f;
    const void *beta = w ? (const void *)&zero_d : (const void *)&zero_f;
    void *d = (void *)(uintptr_t)out;
    ct_status st = r->l.cutensorReduce(
        r->l.h, r->l.plan, alpha, (const void *)(uintptr_t)in, beta, d, d,
        (void *)(uintptr_t)r->work, r->work_bytes, s);
    return st == CT_SUCCESS ? 0
                            : at_ct_fail(e, &r->l, st, "cutensorReduce",
                                         p->type->name);
}

int at_ct_reduce_check(at_ct_reduce *r, const at_problem *p, CUdeviceptr in,
                       CUdeviceptr out, CUstream s, at_err *e)
{
    if (!narrow(p))
        return at_ct_reduce_run(r, p, in, out, s, e);
    int rc = at_ct_reduce_run(r, p, in, r->scratch, s, e);
    if (rc)
        return rc;
    long long n = at_rd_outputs(p);
    int bf = strcmp(p->type->name, "bf16") == 0;
    CUdeviceptr src = r->scratch;
    void *args[] = {&src, &out, &n, &bf};
    AT_CU_TRY(e, "cuTENSOR widen", cuLaunchKernel, r->widen,
              (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1, 0, s, args,
              NULL);
    return 0;
}
