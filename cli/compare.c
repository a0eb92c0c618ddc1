#include "compare.h"

#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/pcg.h"
#include "runtime/measure/measure.h"

/* A contender as a measurement op. */
typedef struct op_ctx {
    const at_contender *c;
    void *state;
    const at_problem *p;
} op_ctx;

static int op_run(void *ctx, CUdeviceptr in, CUdeviceptr out, CUstream s,
                  at_err *e)
{
    const op_ctx *o = ctx;
    return o->c->run(o->state, o->p, in, out, s, e);
}

static int op_check(void *ctx, CUdeviceptr in, CUdeviceptr out, CUstream s,
                    at_err *e)
{
    const op_ctx *o = ctx;
    return (o->c->check ? o->c->check : o->c->run)(o->state, o->p, in, out,
                                                    s, e);
}

/* The kernels of one comparison, ready to check and time; index[i] is the
 * row of the i-th one present. */
typedef struct run {
    at_measure *m;
    autotune_kernel *k;
    op_ctx ops[AT_CMP_MAX];
    int index[AT_CMP_MAX], n;
} run;

static int time_one(void *ctx, int i, int samples, at_timing *t, at_err *e)
{
    run *r = ctx;
    int row = r->index[i];
    if (row == AT_CMP_MEMCPY)
        return at_measure_time_copy(r->m, samples, t, e);
    if (row == AT_CMP_TUNED)
        return at_measure_time(r->m, &r->k->pt, r->k->fn, r->k->name,
                               samples, 0, 0, t, e);
    return at_measure_time_op(r->m, op_run, &r->ops[row],
                              r->ops[row].c->name, samples, t, e);
}

static int check_one(run *r, int row, at_err *e)
{
    if (row == AT_CMP_MEMCPY)
        return 0; /* the copy is the yardstick, not the operation */
    if (row == AT_CMP_TUNED)
        return at_measure_verify(r->m, &r->k->pt, r->k->fn, r->k->name,
                                 AT_CHECK_ALL, e);
    return at_measure_verify_op(r->m, op_check, &r->ops[row],
                                r->ops[row].c->name, e);
}

/* The rows: the copy, the tuned kernel, each contender that can run p. */
int at_cmp_init(at_cmp *c, const at_bench_family *bf, at_err *e)
{
    c->n = AT_CMP_FIRST_CONTENDER + bf->n_contenders;
    if (c->n > AT_CMP_MAX)
        return at_fail(e, AUTOTUNE_EINVALID, "%s: %d contenders, at most %d",
                       bf->family, bf->n_contenders,
                       AT_CMP_MAX - AT_CMP_FIRST_CONTENDER);
    c->row[AT_CMP_MEMCPY].kernel = "memcpy";
    c->row[AT_CMP_TUNED].kernel = "tuned";
    for (int j = 0; j < bf->n_contenders; ++j)
        c->row[AT_CMP_FIRST_CONTENDER + j].kernel = bf->contenders[j].name;
    return 0;
}

static int rows_init(run *r, const at_problem *p, const at_bench_family *bf,
                     void *state, at_cmp *out, at_err *e)
{
    int rc = at_cmp_init(out, bf, e);
    if (rc)
        return rc;
    for (int i = 0; i < out->n; ++i) {
        at_cmp_row *w = &out->row[i];
        w->present = 1;
        if (i < AT_CMP_FIRST_CONTENDER)
            continue;
        const at_contender *c = &bf->contenders[i - AT_CMP_FIRST_CONTENDER];
        r->ops[i] = (op_ctx){c, state, p};
        int ok = c->ready(state, p, w->why, sizeof w->why, e);
        if (ok < 0)
            return ok;
        w->present = ok;
    }
    for (int i = 0; i < out->n; ++i)
        if (out->row[i].present)
            r->index[r->n++] = i;
    return 0;
}

/* Checks every row, then times them in interleaved rounds. A contender's
 * wrong answer is its row's result (marked, not timed), not the end of
 * the benchmark; the tuned kernel's is an error. */
static int check_and_time(run *r, const at_problem *p, at_cmp *out,
                          at_err *e)
{
    int rc = 0;
    for (int i = 0; !rc && i < r->n; ++i) {
        const int row = r->index[i];
        rc = check_one(r, row, e);
        if (rc == AUTOTUNE_EWRONG && row >= AT_CMP_FIRST_CONTENDER) {
            at_cmp_row *w = &out->row[row];
            w->present = 0;
            w->wrong = 1;
            snprintf(w->why, sizeof w->why, "%s", e->msg);
            memset(e, 0, sizeof *e);
            rc = 0;
            memmove(&r->index[i], &r->index[i + 1],
                    (size_t)(r->n - i - 1) * sizeof r->index[0]);
            --r->n;
            --i;
        }
    }
    at_round_result res[AT_CMP_MAX];
    if (!rc)
        rc = at_rounds(r->n, time_one, r, res, e);
    if (rc)
        return rc;
    out->sets = at_measure_sets(r->m);
    out->past_l2 = at_measure_past_l2(r->m);
    double bytes = p->family->ops.bytes_moved(p);
    for (int i = 0; i < r->n; ++i) {
        at_cmp_row *w = &out->row[r->index[i]];
        w->ms = res[i].ms;
        w->min_ms = res[i].min_ms;
        w->max_ms = res[i].max_ms;
        w->gbps = r->index[i] == AT_CMP_MEMCPY ? at_copy_gbps(p, w->ms)
                                               : bytes / w->ms / 1e6;
    }
    for (int i = 0; i < r->n; ++i) {
        at_cmp_row *w = &out->row[r->index[i]];
        w->frac_copy = w->gbps / out->row[AT_CMP_MEMCPY].gbps;
    }
    return 0;
}

int at_compare(autotune_ctx *ctx, const at_problem *p, const at_tune_opts *o,
               const at_bench_family *bf, void *state, at_cmp *out,
               at_err *e)
{
    memset(out, 0, sizeof *out);
    run r = {0};
    double t0 = at_now_s();
    int rc = at_ctx_get(ctx, p, o, &r.k);
    if (rc) {
        *e = ctx->err;
        return rc;
    }
    out->from_cache = r.k->fig.from_cache;
    out->tune_s = out->from_cache ? 0 : at_now_s() - t0;
    snprintf(out->point, sizeof out->point, "%s", r.k->name);
    if ((rc = at_device_push(&ctx->dev, e))) {
        autotune_kernel_destroy(r.k);
        return rc;
    }
    rc = rows_init(&r, p, bf, state, out, e);
    out->seed = o->seed ? o->seed : at_pcg_fresh_seed();
    if (!rc)
        rc = at_measure_create(&r.m, &ctx->dev, p, out->seed,
                               AT_MEASURE_FINITE | AT_MEASURE_LONG_SAMPLES,
                               ctx->cubins, e);
    if (!rc)
        rc = check_and_time(&r, p, out, e);
    at_measure_destroy(r.m);
    at_device_pop();
    autotune_kernel_destroy(r.k);
    if (rc) {
        char text[256];
        at_problem_str(p, text, sizeof text);
        at_err_prefix(e, "benchmark of %s (input seed %llu): ", text,
                      (unsigned long long)out->seed);
    }
    return rc;
}
