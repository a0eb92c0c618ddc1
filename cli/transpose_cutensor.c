#include "transpose_cutensor.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutensor_lib.h"
#include "gen/transpose.h"

struct at_cutensor {
    at_ct_lib l; /* with the last problem's plan */
};

int at_cutensor_open(at_cutensor **out, at_err *e)
{
    *out = NULL;
    at_cutensor *c = calloc(1, sizeof *c);
    if (!c)
        return at_fail(e, AUTOTUNE_ENOMEM, "cuTENSOR handle");
    int rc = at_ct_lib_open(&c->l, e);
    if (rc) {
        free(c);
        return rc;
    }
    *out = c;
    return 0;
}

void at_cutensor_close(at_cutensor *c)
{
    if (!c)
        return;
    at_ct_lib_close(&c->l);
    free(c);
}

const char *at_cutensor_version(const at_cutensor *c) { return c->l.version; }

const char *at_cutensor_cannot(const at_problem *p)
{
    int wide = 0;
    return at_ct_data_type(p->type->name, &wide) < 0
               ? "cuTENSOR permutes f16, bf16, f32, f64, c64 and c128 only"
               : NULL;
}

int at_cutensor_plan(at_cutensor *c, const at_problem *p, at_err *e)
{
    int wide = 0, code = at_ct_data_type(p->type->name, &wide);
    if (code < 0)
        return at_fail(e, AUTOTUNE_EINVALID, "cuTENSOR: %s",
                       at_cutensor_cannot(p));
    const int64_t *v = p->v;
    /* in[z][r][c] is A with modes (c, r, z); out[z][c][r] is B with modes
     * (r, c, z); the batch mode only where there is a batch. */
    const uint32_t modes = v[TP_BATCH] > 1 ? 3 : 2;
    const int64_t ext_a[] = {v[TP_COLS], v[TP_ROWS], v[TP_BATCH]};
    const int64_t str_a[] = {1, v[TP_LD_IN], v[TP_STRIDE_IN]};
    const int64_t ext_b[] = {v[TP_ROWS], v[TP_COLS], v[TP_BATCH]};
    const int64_t str_b[] = {1, v[TP_LD_OUT], v[TP_STRIDE_OUT]};
    const int32_t mode_a[] = {'c', 'r', 'z'}, mode_b[] = {'r', 'c', 'z'};
    ct_desc d[2] = {NULL, NULL};
    ct_op op = NULL;
    ct_status st;
    const char *call = "";
    if ((st = c->l.cutensorCreateTensorDescriptor(c->l.h, &d[0], modes, ext_a,
                                                str_a, code, AT_CT_ALIGN)) ||
        (st = c->l.cutensorCreateTensorDescriptor(c->l.h, &d[1], modes, ext_b,
                                                str_b, code, AT_CT_ALIGN)))
        call = "cutensorCreateTensorDescriptor";
    else if ((st = c->l.cutensorCreatePermutation(
                  c->l.h, &op, d[0], mode_a, CT_OP_IDENTITY, d[1], mode_b,
                  *(wide ? c->l.desc_64f : c->l.desc_32f))))
        call = "cutensorCreatePermutation";
    return at_ct_plan(&c->l, st, call, op, d, 2, wide, NULL, p->type->name,
                      e);
}

int at_cutensor_transpose(at_cutensor *c, const at_problem *p,
                          CUdeviceptr in, CUdeviceptr out, CUstream s,
                          at_err *e)
{
    int rc = at_ct_runnable(&c->l, in, out, p->type->name, e);
    if (rc)
        return rc;
    /* alpha = 1 in the compute type, real or complex ({1, 0}). */
    const float one_f[2] = {1, 0};
    const double one_d[2] = {1, 0};
    ct_status st = c->l.cutensorPermute(c->l.h, c->l.plan,
                                      c->l.wide ? (const void *)one_d
                                           : (const void *)one_f,
                                      (const void *)(uintptr_t)in,
                                      (void *)(uintptr_t)out, s);
    return st == CT_SUCCESS ? 0 : at_ct_fail(e, &c->l, st, "cutensorPermute",
                                      p->type->name);
}
