/* One point evaluated: its kernel loaded, verified, raced and timed;
 * identical kernels found by their code; the leaders kept. */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hash.h"
#include "runtime/driver/driver.h"
#include "search/record.h"
#include "runtime/store/store.h"
#include "runtime/tune/tune_impl.h"

/* Keeps c among the leaders (sorted by first-pass median) or frees it. */
void at_lead_offer(run *r, cand *c)
{
    int pos = r->leaders.n;
    while (pos > 0 && c->t.median_ms < r->leaders.c[pos - 1].t.median_ms)
        --pos;
    if (pos >= AT_LEADERS) {
        at_cand_free(c);
        return;
    }
    if (r->leaders.n == AT_LEADERS)
        at_cand_free(&r->leaders.c[AT_LEADERS - 1]);
    else
        r->leaders.n++;
    memmove(&r->leaders.c[pos + 1], &r->leaders.c[pos],
            (size_t)(r->leaders.n - 1 - pos) * sizeof(cand));
    r->leaders.c[pos] = *c;
}

const char *at_eval_status_name(int status)
{
    static const char *const names[] = {"ok", "wrong", "compile_failed",
                                        "launch_failed", "faulted"};
    return status >= 0 && status < 5 ? names[status] : "?";
}

int at_eval_status_of(const char *name)
{
    for (int s = 0; s < 5; ++s)
        if (strcmp(name, at_eval_status_name(s)) == 0)
            return s;
    return AT_EVAL_WRONG;
}

/* A failure kept for the report (the first few) and the first message;
 * said on the progress stream unless quiet. */
void at_tune_failure(run *r, const char *msg, int quiet)
{
    at_tuned *o = r->out;
    snprintf(r->progress.last_why, sizeof r->progress.last_why, "%s", msg);
    if (!o->first_failure[0])
        snprintf(o->first_failure, sizeof o->first_failure, "%s", msg);
    if (o->n_failures < AT_FAILURES_KEPT)
        snprintf(o->failures[o->n_failures++], sizeof o->failures[0], "%s",
                 msg);
    if (!quiet)
        at_tune_say(r, "failed: %s\n", msg);
}

static void note_failure(run *r, const char *msg)
{
    at_tune_failure(r, msg, 0);
}

/* The evaluated kernel identical to this one (kernel of cubin) with this
 * launch, or the empty slot where it goes (*text: the kernel's code, to
 * keep there); NULL if the cubin has no such kernel's sections (then
 * nothing is shared). */
static code *code_slot(run *r, const void *cubin, size_t size,
                       const char *kernel, const at_point *pt,
                       const unsigned char **text)
{
    uint64_t h = at_elf_kernel_hash(cubin, size, kernel), lh = 0;
    char text_name[96];
    snprintf(text_name, sizeof text_name, ".text.%s", kernel);
    size_t n;
    uint32_t info;
    /* The same code launched alike on the problem and on every check
     * problem, arguments included (a chunk's split and a split in waves
     * may give one grid and different segments). */
    if (!h || at_elf_section(cubin, size, text_name, text, &n, &info) != 1 ||
        !*text || !at_tune_launches(r, pt, &lh))
        return NULL;
    at_launch g;
    memset(&g, 0, sizeof g);
    r->p->family->ops.launch(r->p, pt, &g);
    h = at_hash(at_hash(h, &lh, sizeof lh), &g, sizeof g);
    size_t mask = r->same.n_codes_cap - 1;
    for (size_t s = h & mask;; s = (s + 1) & mask) {
        code *c = &r->same.codes[s];
        if (!c->text) {
            c->hash = h;
            c->g = g;
            c->launches = lh;
            c->size = n;
            return c;
        }
        if (c->hash == h && c->size == n && c->launches == lh &&
            memcmp(&c->g, &g, sizeof g) == 0 &&
            memcmp(c->text, *text, n) == 0)
            return c;
    }
}

int at_tune_record(run *r, const cand *c, const char *status, at_err *e)
{
    const at_problem *p = r->p;
    char params[256], prob[512];
    at_point_params(p->family, &r->pts[c->idx], params, sizeof params);
    if (strcmp(status, "ok") == 0)
        at_profile_offer(r->out, params, c->t.median_ms);
    if (!r->o->record)
        return 0;
    at_problem_key_text(p, prob, sizeof prob);
    at_record_row row = {
        .gpu = r->d->name, .family = p->family->name,
        .type = p->type->name, .problem = prob,
        .point = c->name, .params = params, .status = status,
        .verified = c->verified,
        .median_ms = c->t.median_ms, .min_ms = c->t.min_ms,
        .max_ms = c->t.max_ms, .samples = c->t.samples,
        .gbps = c->t.median_ms > 0 ? at_tune_gbps(r, c->t.median_ms) : 0,
        .elapsed_s = at_now_s() - (r->o->started_s ? r->o->started_s
                                                   : r->progress.t0)};
    return at_record_write(r->o->record, r->o->record_path, &row, e);
}

/* A point that failed a check: counted, said, not timed or kept. */
static int wrong(run *r, cand *c, const char **status, at_err *e)
{
    r->out->wrong++;
    *status = "wrong";
    note_failure(r, e->msg);
    at_err_clear(e);
    c->fn = NULL;
    return 0;
}

/* A possible leader is checked on the problem itself first (unless it
 * was already, --verify-all), then gets a module of its own (its
 * program's goes when the program's last point is done); any other
 * timed point is not kept. */
static int keep_if_leading(run *r, prog *g, int k, cand *c,
                           const char **status, at_err *e)
{
    int leads = r->leaders.n < AT_LEADERS ||
                c->t.median_ms < r->leaders.c[AT_LEADERS - 1].t.median_ms;
    if (leads && !c->verified) {
        double t0 = at_now_s();
        int rc = at_measure_verify(r->b, &c->pt, c->fn, c->name,
                                   AT_CHECK_PROBLEM, e);
        r->out->check_s += at_now_s() - t0;
        /* verify: none runs the variant, compares nothing: not counted */
        r->out->verified += at_family_verifies(r->p->family);
        if (rc == AUTOTUNE_EWRONG)
            return wrong(r, c, status, e);
        if (rc)
            return rc;
        c->verified = at_family_verifies(r->p->family);
    }
    if (!leads) {
        c->fn = NULL;
        c->t.samples = c->t.samples ? c->t.samples : 1;
        c->idx = g->idx[k];
        return 0;
    }
    c->cubin = malloc(g->cj.size);
    if (!c->cubin)
        return at_fail(e, AUTOTUNE_ENOMEM, "cubin of %zu bytes", g->cj.size);
    memcpy(c->cubin, g->cj.cubin, g->cj.size);
    c->size = g->cj.size;
    AT_CU_TRY(e, c->name, cuModuleLoadData, &c->mod, c->cubin);
    AT_CU_TRY(e, c->name, cuModuleGetFunction, &c->fn, c->mod, c->kernel);
    return at_measure_prepare(r->p, &c->pt, c->fn, c->name, e);
}

/* A CUDA error while the variant ran (a fault, a trap) or a hang: the
 * context cannot be trusted again, so the tune ends with AUTOTUNE_EFAULT
 * naming the variant; the planner remembers it and the next GPU worker
 * goes on from here without it (runtime/plan/plan.h). */
static int faulted(run *r, const cand *c, int rc, at_err *e)
{
    if (rc != AUTOTUNE_ECUDA && rc != AUTOTUNE_EFAULT)
        return rc;
    snprintf(r->out->faulted, sizeof r->out->faulted, "%s", c->name);
    e->code = AUTOTUNE_EFAULT;
    return AUTOTUNE_EFAULT;
}

/* A launch the driver refused (AUTOTUNE_ELAUNCH): the variant's own; the
 * search goes on in this context once it answers (else it is a fault). */
static int refused(run *r, cand *c, const char **status, int rc, at_err *e)
{
    if (rc != AUTOTUNE_ELAUNCH)
        return faulted(r, c, rc, e);
    CUresult ok = at_cu.cuCtxSynchronize();
    if (ok != CUDA_SUCCESS) {
        at_cu_fail(e, ok, "cuCtxSynchronize (after a refused launch)",
                   c->name);
        return faulted(r, c, AUTOTUNE_ECUDA, e);
    }
    r->out->launch_failed++;
    *status = at_eval_status_name(AT_EVAL_LAUNCH_FAILED);
    note_failure(r, e->msg);
    at_err_clear(e);
    c->fn = NULL;
    return 0;
}

/* g's module loaded (once for its points); 0 if g did not compile or
 * load: c failed to compile, said. */
static int module_of(run *r, prog *g, const cand *c, const char **status)
{
    at_err why = {0};
    CUresult cr = CUDA_SUCCESS;
    if (!g->cj.rc && !g->mod)
        cr = at_cu.cuModuleLoadData(&g->mod, g->cj.cubin);
    if (!g->cj.rc && cr == CUDA_SUCCESS)
        return 1;
    if (!g->cj.rc) {
        g->mod = NULL;
        at_cu_fail(&why, cr, "cuModuleLoadData", c->name);
    }
    r->out->compile_failed++;
    *status = "compile_failed";
    note_failure(r, g->cj.rc ? g->cj.err.msg : why.msg);
    return 0;
}

/* Its run on the problem, if the check just made one that can stand for
 * a sample (at_measure_checked_ms), decides a point far behind the last
 * leader (cutoff_ms): more than CHECK_MARGIN slower, it is not run again.
 * Wider than racing's 5%: that run was the function's first, perhaps
 * after the GPU idled while programs compiled. 1: raced there, c->t set. */
static int raced_on_check(run *r, cand *c, double cutoff_ms)
{
    const double CHECK_MARGIN = 1.2;
    double first = at_measure_checked_ms(r->b);
    if (first <= 0 || cutoff_ms <= 0 || first <= CHECK_MARGIN * cutoff_ms)
        return 0;
    c->t = (at_timing){.median_ms = first, .min_ms = first, .max_ms = first,
                       .samples = 1, .launches_per_sample = 1};
    r->out->raced_on_check++;
    return 1;
}

/* Loads, verifies and times point k of program g. 0: evaluated (c->fn NULL
 * and *status set if it failed); < 0: fatal (AUTOTUNE_EFAULT: the variant
 * faulted or hung, r->out->faulted names it). */
int at_tune_evaluate(run *r, prog *g, int k, cand *c, const char **status,
                    at_err *e)
{
    at_tuned *o = r->out;
    int rc;
    memset(c, 0, sizeof *c);
    c->idx = g->idx[k];
    c->pt = r->pts[c->idx];
    r->p->family->ops.point_name(r->p->family, &c->pt, c->name, sizeof c->name);
    snprintf(c->kernel, sizeof c->kernel, "%s", g->kernel[k]);
    *status = "ok";
    if (!module_of(r, g, c, status))
        return 0;
    o->compiled++;
    o->cached += g->cached != 0;
    /* The kernel's symbol in the cubin: a user's kernel of C++ linkage
     * has its lowered name there. */
    char sym[AT_KERNEL_NAME];
    if (at_elf_kernel_symbol(g->cj.cubin, g->cj.size, c->kernel, sym,
                             sizeof sym) == 1)
        memcpy(c->kernel, sym, sizeof sym);
    const unsigned char *text = NULL;
    code *same = code_slot(r, g->cj.cubin, g->cj.size, c->kernel, &c->pt,
                           &text);
    if (same && same->text) { /* the same code was evaluated: so is this */
        o->same_code++;
        c->t = same->t;
        c->verified = same->verified;
        if (same->status != AT_EVAL_OK)
            *status = at_eval_status_name(same->status);
        return 0;
    }
    if ((rc = at_module_function(g->mod, g->cj.cubin, g->cj.size, c->kernel,
                                 &c->fn, c->name, e)))
        return rc;
    /* Every point is checked on the family's check shapes before it is
     * timed, and on the problem itself before it can lead (the problem's
     * full-size check costs as much as its timing): --verify-all checks
     * every point on both first, as a family without check shapes (a
     * spec's) always does. */
    int what = r->o->verify_all ? AT_CHECK_ALL : AT_CHECK_SHAPES;
    double t0 = at_now_s();
    rc = at_measure_prepare(r->p, &c->pt, c->fn, c->name, e);
    /* Checked (passed or not) unless refused before it ran. */
    const int on_problem = !rc && at_measure_on_problem(r->b, what) &&
                           at_family_verifies(r->p->family);
    if (!rc)
        rc = at_measure_verify(r->b, &c->pt, c->fn, c->name, what, e);
    o->check_s += at_now_s() - t0;
    o->verified += on_problem;
    if (same) { /* remember this code, whatever its outcome */
        if (!(same->text = malloc(same->size ? same->size : 1)))
            return at_fail(e, AUTOTUNE_ENOMEM, "evaluated code");
        memcpy(same->text, text, same->size);
        same->status = rc == AUTOTUNE_ELAUNCH ? AT_EVAL_LAUNCH_FAILED
                                              : AT_EVAL_WRONG;
    }
    if (rc == AUTOTUNE_EWRONG)
        return wrong(r, c, status, e);
    if (rc)
        return refused(r, c, status, rc, e);
    c->verified = on_problem;
    /* Racing against the last leader: a variant clearly slower cannot
     * become one. */
    double cutoff = r->leaders.n == AT_LEADERS
                        ? r->leaders.c[AT_LEADERS - 1].t.median_ms
                        : 0;
    if (!raced_on_check(r, c, cutoff)) {
        t0 = at_now_s();
        rc = at_measure_time(r->b, &c->pt, c->fn, c->name, FIRST_SAMPLES,
                             cutoff, 1, &c->t, e);
        o->time_s += at_now_s() - t0;
    }
    if (rc) {
        rc = refused(r, c, status, rc, e);
        if (!rc && same)
            same->status = AT_EVAL_LAUNCH_FAILED;
        return rc;
    }
    o->timed++;
    o->raced += c->t.samples < FIRST_SAMPLES;
    if ((rc = keep_if_leading(r, g, k, c, status, e)))
        return refused(r, c, status, rc, e);
    if (same) {
        same->status = at_eval_status_of(*status);
        same->verified = c->verified;
        same->t = c->t;
    }
    return 0;
}

void at_tune_tell(run *r, const cand *c, const char *status, const char *why)
{
    if (!r->o->on_eval)
        return;
    at_eval ev;
    memset(&ev, 0, sizeof ev);
    ev.idx = c->idx;
    ev.pt = r->pts[c->idx];
    ev.status = at_eval_status_of(status);
    ev.verified = c->verified;
    ev.t = c->t;
    snprintf(ev.why, sizeof ev.why, "%s", why ? why : "");
    r->o->on_eval(r->o->on_eval_ctx, &ev);
}

void at_tune_resume(run *r, const at_eval *ev, size_t idx, cand *c,
                    const char **status)
{
    at_tuned *o = r->out;
    memset(c, 0, sizeof *c);
    c->idx = idx;
    c->pt = r->pts[idx];
    r->p->family->ops.point_name(r->p->family, &c->pt, c->name, sizeof c->name);
    c->t = ev->t;
    c->verified = ev->verified;
    *status = at_eval_status_name(ev->status);
    o->resumed++;
    switch (ev->status) {
    case AT_EVAL_OK: {
        char params[256];
        at_point_params(r->p->family, &c->pt, params, sizeof params);
        at_profile_offer(o, params, c->t.median_ms);
        o->timed++;
        o->compiled++;
        c->resumed = 1; /* may lead: loaded at the end if it does */
        return;
    }
    case AT_EVAL_WRONG: o->wrong++; o->compiled++; break;
    case AT_EVAL_COMPILE_FAILED: o->compile_failed++; break;
    case AT_EVAL_LAUNCH_FAILED: o->launch_failed++; o->compiled++; break;
    default: o->faulted_before++; o->compiled++; break;
    }
    at_tune_failure(r, ev->why, 1);
}
