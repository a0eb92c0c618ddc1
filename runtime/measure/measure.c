/* Measurement: the buffers of a problem, launching a variant, and timing
 * (measure.h says how); inputs and references are made in
 * measure_cases.c, checks run in measure_check.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/median.h"
#include "runtime/measure/measure_impl.h"

/* Rotation sets for timing: enough that one round moves three L2 caches,
 * up to this many. */
enum { MAX_SETS = 1024 };

int at_measure_alloc(CUdeviceptr *p, size_t n, const char *what, at_err *e)
{
    CUresult r = at_cu.cuMemAlloc(p, n);
    if (r != CUDA_SUCCESS) {
        *p = 0;
        char call[96];
        snprintf(call, sizeof call, "cuMemAlloc(%zu bytes for %s)", n, what);
        return at_cu_fail(e, r, call, NULL);
    }
    return 0;
}

size_t at_whole_words(size_t bytes)
{
    return (bytes + 3) & ~(size_t)3;
}

int at_measure_create(at_measure **out, const at_device *d,
                      const at_problem *given, uint64_t seed, unsigned flags,
                      at_cubins *cache, at_err *e)
{
    /* The problem on this device: its cases (and check problems) launch
     * with its SMs, as the tuned kernel will. */
    at_problem on = *given;
    on.sms = d->sms;
    const at_problem *p = &on;
    const int warm_l2 = (flags & AT_MEASURE_WARM_L2) != 0;
    const int finite = (flags & AT_MEASURE_FINITE) != 0;
    at_measure *b = calloc(1, sizeof *b);
    if (!b)
        return at_fail(e, AUTOTUNE_ENOMEM, "measurement");
    b->d = d;
    b->sample_ms = flags & AT_MEASURE_LONG_SAMPLES ? AT_SAMPLE_MS_LONG
                                                   : AT_SAMPLE_MS;
    *out = b;
    int rc;
    AT_CU_TRY(e, NULL, cuStreamCreate, &b->stream, CU_STREAM_NON_BLOCKING);
    AT_CU_TRY(e, NULL, cuEventCreate, &b->start, CU_EVENT_DEFAULT);
    AT_CU_TRY(e, NULL, cuEventCreate, &b->stop, CU_EVENT_DEFAULT);
    const at_family *f = p->family;
    b->n_cases = 1 + f->n_checks;
    if (b->n_cases > AT_MAX_CASES)
        return at_fail(e, AUTOTUNE_EINVALID, "%s has %d check problems, "
                       "at most %d", f->name, f->n_checks, AT_MAX_CHECKS);
    b->cubins = cache;
    if ((rc = at_measure_alloc(&b->bad, 16 * AT_CHECK_SLOTS *
                                            (size_t)b->n_cases,
                               "mismatch counters", e)) ||
        (rc = at_check_load(b, f->ops.verify_kernel(p), cache, e)))
        return rc;

    if ((rc = at_case_init(&b->cases[0], p, "the problem", seed, 0, finite,
                           e)) ||
        ((f->caps & AT_CAP_INIT_KERNEL) &&
         (rc = at_case_init_kernel(b, &b->cases[0], e))) ||
        ((f->caps & AT_CAP_DEVICE_REFERENCE) &&
         (rc = at_case_device_ref(b, &b->cases[0], e))))
        return rc;
    for (int k = 1; k < b->n_cases; ++k) {
        at_problem check;
        const char *label;
        if ((rc = f->ops.check_problem(p, k - 1, &check, &label, e)) ||
            (rc = at_case_init(&b->cases[k], &check, label, seed,
                               (uint64_t)k, finite, e)) ||
            ((f->caps & AT_CAP_INIT_KERNEL) &&
             (rc = at_case_init_kernel(b, &b->cases[k], e))) ||
            ((f->caps & AT_CAP_DEVICE_REFERENCE) &&
             (rc = at_case_device_ref(b, &b->cases[k], e))))
            return rc;
    }

    /* Enough sets that the inputs and outputs of one round of launches are
     * three L2 caches, so no launch finds its input in L2. */
    size_t per_set = p->in_bytes + p->out_bytes;
    size_t want = warm_l2 ? 1 : 3 * (size_t)d->l2_bytes / per_set + 1;
    b->sets = want > MAX_SETS ? MAX_SETS : (int)want;
    /* Below two L2 caches a round may still be served largely from L2. */
    b->past_l2 = (size_t)b->sets * per_set >= 2 * (size_t)d->l2_bytes;
    b->in_set = calloc((size_t)b->sets, sizeof *b->in_set);
    b->out_set = calloc((size_t)b->sets, sizeof *b->out_set);
    if (!b->in_set || !b->out_set)
        return at_fail(e, AUTOTUNE_ENOMEM, "rotation sets");
    /* Inputs are only read: set 0 is the checked input. Outputs are
     * apart from the checked output, which must stay poisoned between
     * checks. */
    b->in_set[0] = b->cases[0].in;
    /* An output set also takes the copy the kernels are compared with
     * (a reduction's output is smaller than its input). */
    size_t copy = f->ops.copy_bytes(p);
    size_t out_set = p->out_bytes > copy ? p->out_bytes : copy;
    for (int s = 0; s < b->sets; ++s) {
        if ((rc = at_measure_alloc(&b->out_set[s], out_set, "rotation set",
                                   e)) ||
            (rc = at_measure_copies(b, p, b->cases[0].in, b->out_set[s], NULL,
                                    "rotation set", e)))
            return rc;
        if (s == 0)
            continue;
        if ((rc = at_measure_alloc(&b->in_set[s], p->in_bytes, "rotation set", e)))
            return rc;
        AT_CU_TRY(e, "rotation set", cuMemcpyDtoD, b->in_set[s],
                  b->cases[0].in, p->in_bytes);
    }
    /* The uploads and copies above are not ordered with the bench's
     * non-blocking stream: finish them before anything reads them. */
    AT_CU_TRY(e, NULL, cuCtxSynchronize);
    return 0;
}

void at_measure_destroy(at_measure *b)
{
    if (!b)
        return;
    for (int s = 0; s < b->sets && b->in_set && b->out_set; ++s) {
        if (s > 0 && b->in_set[s])
            at_cu.cuMemFree(b->in_set[s]);
        if (b->out_set[s])
            at_cu.cuMemFree(b->out_set[s]);
    }
    free(b->in_set);
    free(b->out_set);
    for (int k = 0; k < b->n_cases; ++k)
        at_case_free(&b->cases[k]);
    if (b->bad)
        at_cu.cuMemFree(b->bad);
    if (b->ws)
        at_cu.cuMemFree(b->ws);
    if (b->check_mod)
        at_cu.cuModuleUnload(b->check_mod);
    if (b->start)
        at_cu.cuEventDestroy(b->start);
    if (b->stop)
        at_cu.cuEventDestroy(b->stop);
    if (b->stream)
        at_cu.cuStreamDestroy(b->stream);
    free(b);
}

int at_measure_sets(const at_measure *b) { return b->sets; }

double at_copy_gbps(const at_problem *p, double ms)
{
    return 2.0 * (double)p->family->ops.copy_bytes(p) / ms / 1e6;
}

int at_measure_past_l2(const at_measure *b) { return b->past_l2; }

double at_measure_checked_ms(const at_measure *b)
{
    int one_set = b->sets == 1 && b->past_l2;
    double least = b->sample_ms > AT_CHECK_SAMPLE_MS ? b->sample_ms
                                                     : AT_CHECK_SAMPLE_MS;
    return one_set && b->check_ms >= least ? b->check_ms : 0;
}

/* The family's arguments against the kernel's parameters, where the
 * driver can say them: a spec whose arguments do not match its kernel's
 * signature is refused before anything runs (AUTOTUNE_EINVALID). Only
 * the parameters passed are asked for: the driver has no count, and a
 * question past the last is an API error compute-sanitizer reports (a
 * kernel taking more than it is passed shows in its verification). */
int at_measure_params(CUfunction fn, const at_args *a, const char *variant,
                      const char *who, at_err *e)
{
    size_t off, size;
    if (!at_cu_param_info)
        return 0;
    for (int i = 0; i < a->n; ++i) {
        CUresult r = at_cu_param_info(fn, (size_t)i, &off, &size);
        if (r != CUDA_SUCCESS)
            return at_fail(e, AUTOTUNE_EINVALID, "[variant %s] the kernel "
                           "takes %d arguments, %s passes %d", variant, i,
                           who, a->n);
        if (size != a->bytes[i])
            return at_fail(e, AUTOTUNE_EINVALID, "[variant %s] argument %d "
                           "of %s is %u bytes, the kernel's parameter %zu",
                           variant, i + 1, who, a->bytes[i], size);
    }
    return 0;
}

int at_measure_signature(const at_problem *p, const at_point *pt,
                         CUfunction fn, const char *variant, at_err *e)
{
    at_args a;
    p->family->ops.args(p, pt, 0, 0, 0, 0, &a);
    return at_measure_params(fn, &a, variant, p->family->name, e);
}

/* What the compiled kernel allows, before anything runs: threads its
 * registers leave room for, shared memory past the device's limit. Either
 * is the variant's own (AUTOTUNE_ELAUNCH), not the GPU's. */
static int launchable(const at_launch *g, CUfunction fn, const char *variant,
                      at_err *e)
{
    int most = 0, regs = 0, shared = 0;
    AT_CU_TRY(e, variant, cuFuncGetAttribute, &most,
              CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
    AT_CU_TRY(e, variant, cuFuncGetAttribute, &regs,
              CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
    AT_CU_TRY(e, variant, cuFuncGetAttribute, &shared,
              CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
    long long threads = (long long)g->block[0] * g->block[1] * g->block[2];
    if (threads > most)
        return at_fail(e, AUTOTUNE_ELAUNCH, "[variant %s] cannot launch: "
                       "%lld threads a block, the kernel allows %d (%d "
                       "registers a thread)", variant ? variant : "?",
                       threads, most, regs);
    CUresult r = at_cu.cuFuncSetAttribute(
        fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)g->smem);
    if (r != CUDA_SUCCESS && at_cu_launch_refused(r))
        return at_fail(e, AUTOTUNE_ELAUNCH, "[variant %s] cannot launch: "
                       "%u bytes of dynamic shared memory beside %d static "
                       "pass the device's limit (cuFuncSetAttribute: %d)",
                       variant ? variant : "?", g->smem, shared, (int)r);
    return at_cu_fail(e, r, "cuFuncSetAttribute", variant);
}

int at_measure_prepare(const at_problem *p, const at_point *pt, CUfunction fn,
                     const char *variant, at_err *e)
{
    at_launch g;
    p->family->ops.launch(p, pt, &g);
    int rc = launchable(&g, fn, variant, e);
    return rc ? rc : at_measure_signature(p, pt, fn, variant, e);
}

size_t at_workspace_bytes(const at_problem *p, const at_point *pt)
{
    return p->family->ops.workspace(p, pt);
}

int at_launch_variant(const at_problem *p, const at_point *pt, CUfunction fn,
                      CUdeviceptr in, CUdeviceptr out, CUdeviceptr ws,
                      CUstream stream, const char *variant, at_err *e)
{
    at_launch g = {0};
    p->family->ops.launch(p, pt, &g);
    for (int pass = 0; pass < (g.passes > 1 ? 2 : 1); ++pass) {
        at_args a;
        const unsigned *grid = pass ? g.grid2 : g.grid;
        p->family->ops.args(p, pt, in, out, ws, pass, &a);
        CUresult r = at_cu.cuLaunchKernel(fn, grid[0], grid[1], grid[2],
                                          g.block[0], g.block[1], g.block[2],
                                          g.smem, stream, a.ptr, NULL);
        if (r == CUDA_SUCCESS)
            continue;
        int rc = at_cu_fail(e, r, "cuLaunchKernel", variant);
        /* Refused at launch (the driver knows before running it): the
         * variant's, and the context goes on. */
        if (at_cu_launch_refused(r)) {
            rc = AUTOTUNE_ELAUNCH;
            if (e)
                e->code = rc;
        }
        return rc;
    }
    return 0;
}

int at_measure_ws(at_measure *b, const at_runner *r, const at_problem *p,
                  at_err *e)
{
    size_t need = r->op ? 0 : at_workspace_bytes(p, r->pt);
    if (need <= b->ws_bytes)
        return 0;
    if (b->ws) {
        AT_CU_TRY(e, r->name, cuStreamSynchronize, b->stream);
        at_cu.cuMemFree(b->ws);
        b->ws = 0;
        b->ws_bytes = 0;
    }
    int rc = at_measure_alloc(&b->ws, need, "workspace", e);
    if (rc)
        return rc;
    b->ws_bytes = need;
    AT_CU_TRY(e, r->name, cuMemsetD32, b->ws, 0, need / 4);
    return 0;
}

int at_runner_once(at_measure *b, const at_runner *r, const at_problem *p,
                    CUdeviceptr in, CUdeviceptr out, at_err *e)
{
    if (r->op)
        return r->op(r->ctx, in, out, b->stream, e);
    int rc = at_measure_ws(b, r, p, e);
    if (rc)
        return rc;
    return at_launch_variant(p, r->pt, r->fn, in, out, b->ws, b->stream,
                             r->name, e);
}


/* The device-to-device copy the family compares with, as an op. */
static int op_copy(void *ctx, CUdeviceptr in, CUdeviceptr out, CUstream s,
                   at_err *e)
{
    const at_problem *p = ctx;
    size_t bytes = p->family->ops.copy_bytes(p);
    AT_CU_TRY(e, "device-to-device copy", cuMemcpyDtoDAsync, out, in, bytes,
              s);
    return 0;
}

/* One run on the problem's next rotation set (*s counts them). */
static int run_next_set(at_measure *b, const at_runner *run, int *s, at_err *e)
{
    int k = (*s)++ % b->sets;
    return at_runner_once(b, run, &b->cases[0].p, b->in_set[k], b->out_set[k], e);
}

int at_measure_wait(at_measure *b, CUevent ev, int launches,
                    const char *variant, at_err *e)
{
    /* Before the copy is timed, a generous limit: the copy itself. */
    double limit = b->limit_s > 0 ? b->limit_s : 60;
    double t0 = at_now_s(), deadline = t0 + limit * (launches > 0 ? launches
                                                                   : 1);
    for (;;) {
        CUresult r = ev ? at_cu.cuEventQuery(ev) : at_cu.cuStreamQuery(b->stream);
        if (r == CUDA_SUCCESS)
            return 0;
        if (r != CUDA_ERROR_NOT_READY)
            return at_cu_fail(e, r, ev ? "cuEventQuery" : "cuStreamQuery",
                              variant);
        double now = at_now_s();
        if (now > deadline)
            return at_fail(e, AUTOTUNE_EFAULT, "[variant %s] did not finish "
                           "within %.3g s (%d launch%s at the kernel limit of "
                           "%.3g s): hung", variant ? variant : "?",
                           now - t0, launches, launches == 1 ? "" : "es",
                           limit);
        if (now - t0 > 0.002) /* short waits spin; long ones sleep */
            usleep(100);
    }
}

void at_measure_set_limit(at_measure *b, double s) { b->limit_s = s; }

/* One sample: per launches between two events. A kernel's own fault
 * surfaces at the wait. */
static int sample(at_measure *b, const at_runner *run, int per, int *s, float *ms,
                  at_err *e)
{
    const char *variant = run->name;
    AT_CU_TRY(e, variant, cuEventRecord, b->start, b->stream);
    for (int i = 0; i < per; ++i) {
        int rc = run_next_set(b, run, s, e);
        if (rc)
            return rc;
    }
    AT_CU_TRY(e, variant, cuEventRecord, b->stop, b->stream);
    int rc = at_measure_wait(b, b->stop, per, variant, e);
    if (rc)
        return rc;
    AT_CU_TRY(e, variant, cuEventElapsedTime, ms, b->start, b->stop);
    return 0;
}

/* One sample 5% slower, two 3% (samples spread well under 1%). */
int at_measure_raced(const double *x, int k, int samples, double cutoff_ms)
{
    static const double margin[] = {0, 1.05, 1.03};
    if (cutoff_ms <= 0 || k <= 0)
        return 0;
    int slower = 0, clearly = k <= AT_QUICK_SAMPLES;
    for (int q = 0; q < k; ++q) {
        slower += x[q] > cutoff_ms;
        if (clearly && x[q] <= margin[k] * cutoff_ms)
            clearly = 0;
    }
    return clearly || slower > samples / 2;
}

static int time_run(at_measure *b, const at_runner *run, int samples,
                    double cutoff_ms, int warm, at_timing *t, at_err *e)
{
    int rc, s = 0;
    float ms = 0;
    /* Warm-up (unless it has just run), then one timed round over the
     * sets to size the samples. */
    if (!warm && (rc = run_next_set(b, run, &s, e)))
        return rc;
    if ((rc = sample(b, run, b->sets, &s, &ms, e)))
        return rc;
    double one = ms / b->sets;
    /* Each sample at least sample_ms, so event resolution and launch
     * gaps are small beside it; at least one full round of the sets. */
    int per = one > 0 ? (int)(b->sample_ms / one) + 1 : 1000;
    if (per < b->sets)
        per = b->sets;
    if (per > 1000)
        per = 1000;
    double *x = malloc((size_t)samples * sizeof *x);
    if (!x)
        return at_fail(e, AUTOTUNE_ENOMEM, "timing samples");
    int k = 0;
    if (per == b->sets) { /* the sizing round was a sample like the others */
        x[k++] = (double)ms / per;
        if (at_measure_raced(x, k, samples, cutoff_ms))
            samples = k;
    }
    for (; k < samples; ++k) {
        rc = sample(b, run, per, &s, &ms, e);
        if (rc) {
            free(x);
            return rc;
        }
        x[k] = (double)ms / per;
        if (at_measure_raced(x, k + 1, samples, cutoff_ms)) {
            ++k;
            break;
        }
    }
    t->median_ms = at_median_sort(x, (size_t)k);
    t->samples = k;
    t->launches_per_sample = per;
    t->min_ms = x[0];
    t->max_ms = x[k - 1];
    free(x);
    return 0;
}

int at_measure_time(at_measure *b, const at_point *pt, CUfunction fn,
                  const char *variant, int samples, double cutoff_ms,
                  int warm, at_timing *t, at_err *e)
{
    at_runner r = {pt, fn, NULL, NULL, variant};
    /* The module's __constant__ symbols (the rotation sets' outputs got
     * their copies when made). */
    int rc = at_measure_copies(b, &b->cases[0].p, b->cases[0].in, 0, fn,
                               variant, e);
    return rc ? rc : time_run(b, &r, samples, cutoff_ms, warm, t, e);
}

int at_measure_time_copy(at_measure *b, int samples, at_timing *t, at_err *e)
{
    at_runner r = {NULL, NULL, op_copy, &b->cases[0].p, "device-to-device copy"};
    return time_run(b, &r, samples, 0, 0, t, e);
}

int at_measure_time_op(at_measure *b, at_measure_op op, void *ctx,
                     const char *name, int samples, at_timing *t, at_err *e)
{
    at_runner r = {NULL, NULL, op, ctx, name};
    return time_run(b, &r, samples, 0, 0, t, e);
}


int at_measure_problem_data(at_measure *b, void *in, void *ref, at_err *e)
{
    const at_case *c = &b->cases[0];
    AT_CU_TRY(e, "the problem's data", cuMemcpyDtoH, in, c->in,
              c->p.in_bytes);
    AT_CU_TRY(e, "the problem's data", cuMemcpyDtoH, ref, c->ref + AT_GUARD,
              c->p.out_bytes);
    return 0;
}
