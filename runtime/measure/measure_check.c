/* Verification: the variant runs into a poisoned output, and the family's
 * comparison kernel (templates/check.cu) compares the whole buffer, its
 * guards included, with the CPU reference, then poisons it again. */
#include <stdio.h>

#include "gen/templates.h"
#include "runtime/driver/driver.h"
#include "runtime/measure/measure_impl.h"

/* The comparison kernel, from the compiled-variant cache if it has it. */
int at_check_load(at_measure *b, const char *kname, at_cubins *cache,
                  at_err *e)
{
    void *cubin = NULL;
    size_t size = 0;
    at_compile_opts co = {.sm = b->d->sm};
    char opts[128];
    at_compile_options_text(&co, opts, sizeof opts);
    at_cubin_key key = {co.sm, b->d->nvrtc, opts};
    at_err warn = {0};
    char kernel[AT_KERNEL_NAME];
    int rc = cache ? at_cubins_get(cache, &key, at_tmpl_check, &cubin, &size,
                                   kernel, &warn)
                   : 0;
    if (rc < 0)
        return at_fail(e, rc, "%s", warn.msg);
    if (rc == 0) {
        if ((rc = at_compile(at_tmpl_check, "check.cu", &co, &cubin, &size,
                             e)))
            return rc;
        const char *srcs[] = {at_tmpl_check}, *kernels[] = {kname};
        if (cache && (rc = at_cubins_put(cache, &key, 1, srcs, kernels,
                                         cubin, size, e))) {
            free(cubin);
            return rc;
        }
    }
    CUresult r = at_cu.cuModuleLoadData(&b->check_mod, cubin);
    free(cubin);
    if (r != CUDA_SUCCESS)
        return at_cu_fail(e, r, "cuModuleLoadData", "check.cu");
    AT_CU_TRY(e, "check.cu", cuModuleGetFunction, &b->compare, b->check_mod,
              kname);
    AT_CU_TRY(e, "check.cu", cuModuleGetFunction, &b->compare_elems,
              b->check_mod, "at_compare_elems");
    AT_CU_TRY(e, "check.cu", cuModuleGetFunction, &b->ws_left, b->check_mod,
              "at_workspace_left");
    return 0;
}

CUdeviceptr at_check_counters(const at_measure *b, int k, int s)
{
    return b->bad + 16 * ((size_t)k * AT_CHECK_SLOTS + (size_t)s);
}

/* Queues the check of one case: the runner into the poisoned output, then
 * the comparison (which poisons the output again) into the case's
 * counters, which at_check_run has zeroed. */
static int queue_case(at_measure *b, int k, const at_runner *run, at_err *e)
{
    at_case *c = &b->cases[k];
    const at_problem *p = &c->p;
    size_t words = (at_whole_words(p->out_bytes) + 2 * AT_GUARD) / 4;
    CUdeviceptr bad = at_check_counters(b, k, 0);
    /* A variant before may have left its workspace dirty (it was wrong). */
    int rc = at_measure_ws(b, run, p, e);
    if (rc)
        return rc;
    if (b->ws_bytes)
        AT_CU_TRY(e, run->name, cuMemsetD32Async, b->ws, 0, b->ws_bytes / 4,
                  b->stream);
    if (!run->op && (rc = at_measure_copies(b, p, c->in, c->out, run->fn,
                                            run->name, e)))
        return rc;
    /* The variant's run on the problem is timed: it may stand for a
     * first sample (at_measure_checked_ms). */
    const int timed = k == 0 && !run->op;
    if (timed)
        AT_CU_TRY(e, run->name, cuEventRecord, b->start, b->stream);
    if ((rc = at_runner_once(b, run, p, c->in, c->out, e)))
        return rc;
    if (timed)
        AT_CU_TRY(e, run->name, cuEventRecord, b->stop, b->stream);
    if (b->ws_bytes) { /* left zero, as the next launch needs it? */
        unsigned long long ws_words = b->ws_bytes / 4;
        CUdeviceptr left = at_check_counters(b, k, AT_WS_SLOT);
        void *wargs[] = {&b->ws, &ws_words, &left};
        unsigned wgrid = (unsigned)((ws_words + 255) / 256);
        if (wgrid > (unsigned)b->d->sms * 16)
            wgrid = (unsigned)b->d->sms * 16;
        AT_CU_TRY(e, run->name, cuLaunchKernel, b->ws_left, wgrid, 1, 1, 256,
                  1, 1, 0, b->stream, wargs, NULL);
    }
    if (!at_family_verifies(p->family))
        return 0; /* verify: none: run, not compared */
    if (p->family->caps & AT_CAP_CHECK_SEGMENTS)
        return at_segs_queue(b, k, run, e);
    unsigned long long n = words;
    unsigned poison = AT_POISON;
    /* The tolerance's scale for this point (a contender: any order). */
    double scale = p->family->ops.tolerance(p, run->pt);
    void *args[] = {&c->out_alloc, &c->ref, &n, &bad, &poison, &c->bound,
                    &scale};
    unsigned grid = (unsigned)((words + 255) / 256);
    if (grid > (unsigned)b->d->sms * 16)
        grid = (unsigned)b->d->sms * 16;
    AT_CU_TRY(e, run->name, cuLaunchKernel, b->compare, grid, 1, 1, 256, 1,
              1, 0, b->stream, args, NULL);
    return 0;
}

int at_check_report(at_measure *b, int k, const at_runner *run,
                    const unsigned long long *bad, size_t start, at_err *e)
{
    at_case *c = &b->cases[k];
    const at_problem *p = &c->p;
    size_t words = (at_whole_words(p->out_bytes) + 2 * AT_GUARD) / 4;
    size_t byte = ((size_t)~bad[1] + start) * 4; /* check.cu keeps ~first */
    /* An 8-byte element is shown whole: its first word alone may agree
     * (a double's low half) and say nothing. */
    const int whole8 = p->type->bytes == 8 && byte >= AT_GUARD &&
                       byte < AT_GUARD + p->out_bytes;
    if (whole8)
        byte -= (byte - AT_GUARD) % 8;
    const size_t shown = whole8 ? 8 : 4;
    unsigned long long got = 0, want = 0;
    const char *variant = run->name;
    /* The comparison poisoned the output again: run once more to read
     * what was written there, then poison it back. */
    int rc = run->op ? 0 : at_measure_copies(b, p, c->in, c->out, run->fn,
                                             variant, e);
    if (!rc)
        rc = at_runner_once(b, run, p, c->in, c->out, e);
    if (rc || (rc = at_measure_wait(b, NULL, 1, variant, e)))
        return rc;
    AT_CU_TRY(e, variant, cuMemcpyDtoH, &got, c->out_alloc + byte, shown);
    AT_CU_TRY(e, variant, cuMemsetD32, c->out_alloc, AT_POISON, words);
    AT_CU_TRY(e, variant, cuMemcpyDtoH, &want, c->ref + byte, shown);
    char where[96];
    if (byte < AT_GUARD || byte >= AT_GUARD + p->out_bytes) {
        snprintf(where, sizeof where, "%zu bytes %s the output buffer",
                 byte < AT_GUARD ? AT_GUARD - byte : byte - AT_GUARD - p->out_bytes,
                 byte < AT_GUARD ? "before" : "past the end of");
    } else {
        p->family->ops.where(p, (byte - AT_GUARD) / (size_t)p->type->bytes,
                         where, sizeof where);
    }
    char prob[256];
    at_problem_str(p, prob, sizeof prob);
    return at_fail(e, AUTOTUNE_EWRONG,
                   "wrong answer [variant %s] on %s (%s): %llu of %zu words "
                   "differ, first at %s: got 0x%0*llx, want 0x%0*llx%s",
                   variant, c->label, prob, bad[0], words, where,
                   (int)shown * 2, got, (int)shown * 2, want,
                   (want & 0xffffffffu) == AT_POISON
                       ? " (written outside the matrix)" : "");
}

/* A launch that left words of its workspace non-zero: wrong, though its
 * output was right (the next launch, of the same shape or another, takes
 * the workspace as it was left and may never finish its combine). */
static int ws_left_report(const at_measure *b, int k, const at_runner *run,
                          const unsigned long long *left, at_err *e)
{
    char prob[256];
    at_problem_str(&b->cases[k].p, prob, sizeof prob);
    return at_fail(e, AUTOTUNE_EWRONG,
                   "wrong [variant %s] on %s (%s): left %llu words of its "
                   "workspace non-zero, the first at byte %llu; each launch "
                   "must leave it zero",
                   run->name, b->cases[k].label, prob, left[0],
                   (unsigned long long)~left[1] * 4);
}

/* Whether case k is one the runner's kernel takes: the problem, and the
 * check problems its family fits to the point (a contender takes all). */
static int case_fits(const at_measure *b, const at_runner *run, int k)
{
    const at_problem *p = &b->cases[0].p;
    return k == 0 || !run->pt ||
           p->family->ops.check_fits(p, run->pt, k - 1);
}

/* Checks run on cases [first, end) that fit: every case queued, then one
 * wait: a kernel's own fault (illegal address, ...) surfaces there. */
int at_check_run(at_measure *b, const at_runner *run, int first, int end,
                 at_err *e)
{
    b->check_ms = 0;
    if (end > first)
        AT_CU_TRY(e, run->name, cuMemsetD32Async, at_check_counters(b, first, 0),
                  0, 4 * AT_CHECK_SLOTS * (size_t)(end - first), b->stream);
    for (int k = first; k < end; ++k) {
        int rc = case_fits(b, run, k) ? queue_case(b, k, run, e) : 0;
        if (rc)
            return rc;
    }
    if (end <= first)
        return 0;
    unsigned long long bad[2 * AT_CHECK_SLOTS * AT_MAX_CASES];
    int rc = at_measure_wait(b, NULL, end - first, run->name, e);
    if (rc)
        return rc;
    float ms = 0; /* the run's time is optional: none if not to be had */
    if (first == 0 && !run->op &&
        at_cu.cuEventElapsedTime(&ms, b->start, b->stop) == CUDA_SUCCESS)
        b->check_ms = ms;
    AT_CU_TRY(e, run->name, cuMemcpyDtoH, bad, at_check_counters(b, first, 0),
              sizeof bad[0] * 2 * AT_CHECK_SLOTS * (size_t)(end - first));
    for (int k = first; k < end; ++k) {
        const unsigned long long *own =
            &bad[2 * AT_CHECK_SLOTS * (size_t)(k - first)];
        if (!case_fits(b, run, k))
            continue;
        if ((b->cases[k].p.family->caps & AT_CAP_CHECK_SEGMENTS) &&
            at_family_verifies(b->cases[k].p.family))
            rc = at_segs_judge(b, k, run, own, e);
        else if (own[0])
            rc = at_check_report(b, k, run, own, 0, e);
        if (!rc && own[2 * AT_WS_SLOT])
            rc = ws_left_report(b, k, run, own + 2 * AT_WS_SLOT, e);
        if (rc)
            return rc;
    }
    return 0;
}

int at_measure_on_problem(const at_measure *b, int what)
{
    /* A family without check shapes is checked on the problem. */
    return (what & AT_CHECK_PROBLEM) || b->n_cases == 1;
}

int at_measure_verify(at_measure *b, const at_point *pt, CUfunction fn,
                      const char *variant, int what, at_err *e)
{
    at_runner r = {pt, fn, NULL, NULL, variant};
    int first = at_measure_on_problem(b, what) ? 0 : 1;
    int end = what & AT_CHECK_SHAPES ? b->n_cases : 1;
    return at_check_run(b, &r, first, end, e);
}

int at_measure_verify_op(at_measure *b, at_measure_op op, void *ctx,
                       const char *name, at_err *e)
{
    at_runner r = {NULL, NULL, op, ctx, name};
    return at_check_run(b, &r, 0, 1, e);
}

