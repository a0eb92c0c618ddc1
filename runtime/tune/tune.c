#include "runtime/tune/tune_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/pcg.h"
#include "search/record.h"
#include "search/strategy.h"

/* The compile options that shape the code, as one string. */
void at_tune_compile_opts(const at_tune_opts *o, const at_family *f, int sm,
                          at_compile_opts *co, char *text, size_t n)
{
    co->sm = sm;
    at_compile_family_extra(f, co->extra, sizeof co->extra);
    co->limit_s = o->compile_limit_s > 0 ? o->compile_limit_s
                                         : AT_COMPILE_LIMIT_S;
    at_compile_options_text(co, text, n);
}

void at_cand_free(cand *c)
{
    if (c->mod)
        at_cu.cuModuleUnload(c->mod);
    free(c->cubin);
    memset(c, 0, sizeof *c);
}

void at_tune_say(run *r, const char *fmt, const char *msg)
{
    if (r->o->progress) {
        fprintf(r->o->progress, "%s", r->progress.tty ? "\r\033[K" : "");
        fprintf(r->o->progress, fmt, msg);
    }
}

double at_tune_gbps(const run *r, double ms)
{
    return r->p->family->ops.bytes_moved(r->p) / ms / 1e6;
}

void at_tune_progress(run *r, int final)
{
    FILE *f = r->o->progress;
    if (!f)
        return;
    double t = at_now_s();
    if (!final && t - r->progress.last_print < (r->progress.tty ? 0.2 : 5.0))
        return;
    r->progress.last_print = t;
    const at_tuned *o = r->out;
    char best[256] = "none yet", eta[64] = "";
    if (r->leaders.n) {
        const cand *c = &r->leaders.c[0];
        double g = at_tune_gbps(r, c->t.median_ms);
        snprintf(best, sizeof best, "%.4f ms %.0f GB/s (%.1f%% of copy) %s",
                 c->t.median_ms, g, 100 * g / r->copy_gbps, c->name);
    }
    double walk = t - r->progress.walk_t0;
    double rate = walk > 0 ? o->evaluated / walk : 0;
    size_t goal = o->points;
    if (r->o->budget_evals && r->o->budget_evals < goal)
        goal = r->o->budget_evals;
    /* No ETA from the first few points: they waited for the first
     * programs to compile. */
    if (!final && rate > 0 && goal > o->evaluated &&
        o->evaluated * 20 >= goal) {
        double left = (double)(goal - o->evaluated) / rate;
        if (r->o->budget_s && r->o->budget_s - walk < left)
            left = r->o->budget_s - walk;
        snprintf(eta, sizeof eta, ", ETA %.0f s", left > 0 ? left : 0);
    }
    fprintf(f,
            "%s[%6.1fs] %zu/%zu evaluated (%zu compiled, %zu cached, %zu "
            "same code), %zu timed, %zu failed, %.0f/s%s; best %s%s",
            r->progress.tty ? "\r\033[K" : "", t - r->progress.t0, o->evaluated, goal,
            o->compiled - o->cached, o->cached, o->same_code, o->timed,
            o->compile_failed + o->wrong, rate, eta, best,
            r->progress.tty && !final ? "" : "\n");
    fflush(f);
}

/* The space as the strategies see it: each point's value index per axis. */
static unsigned char *space_view(const at_family *f, const at_point *pts,
                                 size_t n, at_space_view *v)
{
    memset(v, 0, sizeof *v);
    v->n = n;
    v->n_axes = f->n_axes;
    unsigned char *coord = malloc(n * (size_t)f->n_axes + 1);
    if (!coord)
        return NULL;
    for (int a = 0; a < f->n_axes; ++a)
        v->radix[a] = f->axes[a].n;
    for (size_t i = 0; i < n; ++i)
        for (int a = 0; a < f->n_axes; ++a) {
            int k = 0;
            while (k < f->axes[a].n && f->axes[a].values[k] != pts[i].v[a])
                ++k;
            coord[i * (size_t)f->n_axes + (size_t)a] = (unsigned char)k;
        }
    v->coord = coord;
    return coord;
}

static int setup(run *r, at_space_view *v, unsigned char **coord, at_err *e)
{
    const at_problem *p = r->p;
    at_tuned *out = r->out;
    int rc = at_twins_setup(r, out->points, e);
    if (rc)
        return rc;
    if (!(*coord = space_view(p->family, r->pts, out->points, v)))
        return at_fail(e, AUTOTUNE_ENOMEM, "space view");
    /* A resumed tune's record goes on after its first worker's rows. */
    if (r->o->record && !r->o->n_prior &&
        (rc = at_record_header(r->o->record, r->o->record_path, e)))
        return rc;
    double t0 = at_now_s();
    if ((rc = at_pool_create(&r->cc.pool, r->o->jobs, e)))
        return rc;
    double t1 = at_now_s();
    out->workers = at_pool_workers(r->cc.pool);
    size_t cap = 16;
    while (cap < 2 * out->points)
        cap *= 2;
    r->same.codes = calloc(cap, sizeof *r->same.codes);
    r->same.n_codes_cap = cap;
    if (!r->same.codes)
        return at_fail(e, AUTOTUNE_ENOMEM, "evaluated code table");
    r->cc.pool_s = t1 - t0;
    return 0;
}

int at_tune_measure(run *r, at_err *e)
{
    const at_problem *p = r->p;
    at_tuned *out = r->out;
    at_timing ct;
    int rc;
    double t1 = at_now_s();
    if ((rc = at_measure_create(&r->b, r->d, p, out->seed,
                              r->o->warm_l2 ? AT_MEASURE_WARM_L2 : 0,
                              r->o->cubins, e)))
        return rc;
    double t2 = at_now_s();
    if ((rc = at_measure_time_copy(r->b, FIRST_SAMPLES, &ct, e)))
        return rc;
    out->sets = at_measure_sets(r->b);
    r->copy_gbps = at_copy_gbps(r->p, ct.median_ms);
    /* A launch that runs a thousand copies' time is hung, not slow. */
    double limit = AT_KERNEL_LIMIT_COPIES * ct.median_ms / 1e3;
    at_measure_set_limit(r->b, r->o->kernel_limit_s > 0
                                   ? r->o->kernel_limit_s
                                   : limit > 1 ? limit : 1);
    if (r->o->progress)
        fprintf(r->o->progress,
                "device-to-device copy of the same bytes: %.4f ms, %.0f GB/s "
                "(%d buffer set%s%s)\n",
                ct.median_ms, r->copy_gbps, out->sets,
                out->sets > 1 ? "s, rotated" : "",
                r->o->warm_l2 ? "; kept warm in L2 on request"
                : at_measure_past_l2(r->b) ? ""
                                         : "; too small to leave the L2 "
                                           "cache: timed from L2");
    if (r->o->progress)
        fprintf(r->o->progress, "setup: %d compile worker processes %.2f s, inputs "
                "and references %.2f s, copy timing %.2f s\n", out->workers,
                r->cc.pool_s, t2 - t1, at_now_s() - t2);
    out->setup_s += at_now_s() - t1;
    return 0;
}

/* What the tune is about to do, on the progress stream. */
static void say_start(const run *r, const char *prob)
{
    const at_tuned *out = r->out;
    FILE *f = r->o->progress;
    fprintf(f, "tuning %s on %s (sm_%d): %zu of %zu points pass the "
            "constraints; strategy %s, seed %llu; NVRTC %s\n", prob,
            r->d->name, r->d->sm, out->points, out->space_total,
            out->strategy, (unsigned long long)out->seed, r->cc.co_text);
    if (out->left_out)
        fprintf(f, "left out %zu variant%s that failed on this GPU before "
                "(--retune tries them again)\n", out->left_out,
                out->left_out > 1 ? "s" : "");
    if (r->o->n_prior)
        fprintf(f, "resuming: %zu point%s evaluated before the fault are "
                "taken as they were, none evaluated again\n",
                r->o->n_prior, r->o->n_prior > 1 ? "s" : "");
}

/* What a tune holds once it is over, its outcome rc. */
static void release(run *r, int rc, unsigned char *coord, at_point *pts)
{
    at_pool_destroy(r->cc.pool);
    at_alone_free(r);
    /* After a fault the context is lost, or busy forever with a hung
     * kernel that a module unload or a free would wait for: leave the
     * device alone (the GPU worker exits next). */
    int gpu_ok = rc != AUTOTUNE_EFAULT;
    for (int i = 0; i < r->leaders.n; ++i) {
        if (!gpu_ok)
            r->leaders.c[i].mod = NULL;
        at_cand_free(&r->leaders.c[i]);
    }
    for (size_t i = 0; r->same.codes && i < r->same.n_codes_cap; ++i)
        free(r->same.codes[i].text);
    free(r->same.codes);
    at_twins_free(r);
    free(coord);
    if (gpu_ok)
        at_measure_destroy(r->b);
    at_device_pop();
    free(r->prior_of);
    free(pts);
}

int at_tune(const at_device *d, const at_problem *p, const at_tune_opts *o,
            at_tuned *out, at_err *e)
{
    memset(out, 0, sizeof *out);
    /* The problem on this device (a split in waves of its SMs). */
    at_problem on = *p;
    on.sms = d->sms;
    p = &on;
    run r = {.d = d, .p = p, .o = o, .out = out, .progress.t0 = at_now_s()};
    r.progress.tty = o->progress && isatty(fileno(o->progress));
    out->seed = o->seed ? o->seed : at_pcg_fresh_seed();
    snprintf(out->strategy, sizeof out->strategy, "%s",
             o->strategy ? o->strategy : "exhaustive");
    if (!at_strategy_find(out->strategy))
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "unknown strategy '%s' "
                       "(known: %s)", out->strategy, at_strategy_list());
    at_tune_compile_opts(o, p->family, d->sm, &r.cc.co, r.cc.co_text,
                         sizeof r.cc.co_text);
    r.cc.ckey = (at_cubin_key){d->sm, d->nvrtc, r.cc.co_text};
    at_limits l = at_device_limits(d);
    at_point *pts = NULL;
    char prob[256];
    at_problem_str(p, prob, sizeof prob);
    int rc = at_space_points(p->family, p, &l, &pts, &out->points, e);
#ifdef AT_TEST
    if (!rc)
        rc = at_tune_plants(&r, pts, out->points, e);
#endif
    if (!rc)
        out->left_out = at_tune_leave_out(&r, pts, &out->points);
    r.pts = pts;
    if (!rc)
        rc = at_tune_prior_index(&r, out->points, e);
    out->space_total = at_space_size(p->family);
    /* A share of the space as the budget (AUTOTUNE_MEASURE), at least 1. */
    at_tune_opts shared = *o;
    if (!rc && o->budget_share > 0 && !o->budget_evals) {
        double n = ceil(o->budget_share * (double)out->points);
        shared.budget_evals = n < 1 ? 1 : (size_t)n;
        r.o = &shared;
    }
    if (!rc && o->progress)
        say_start(&r, prob);
    if (!rc)
        rc = at_device_push(d, e);
    if (rc) {
        free(r.prior_of);
        free(pts);
        return rc;
    }
    at_space_view v;
    unsigned char *coord = NULL;
    if (o->cubins)
        at_cubins_batch_begin(o->cubins);
    rc = setup(&r, &v, &coord, e);
    out->setup_s = at_now_s() - r.progress.t0; /* and the measurement's, in the walk */
    if (!rc)
        rc = at_tune_walk(&r, &v, e);
    out->search_s = at_now_s() - r.progress.walk_t0;
    if (!rc && r.leaders.n == 0)
        rc = at_fail(e, AUTOTUNE_ENO_VARIANT,
                     "none of %zu variants evaluated passed verification; "
                     "first failure: %s",
                     out->evaluated, out->first_failure);
    double t1 = at_now_s();
    if (!rc)
        rc = at_tune_retime(&r, e);
    if (!rc) /* the winner's check was the last */
        at_measure_check_note(r.b, out->check_note, sizeof out->check_note);
    out->retime_s = at_now_s() - t1;
    /* After a failure too (after a fault the next worker compiles none
     * of them again); no write transaction outlives the tune. */
    if (o->cubins) {
        at_err w = {0};
        int fr = at_cubins_batch_end(o->cubins, &w);
        if (!rc && fr)
            rc = at_fail(e, fr, "%s", w.msg);
    }
    out->seconds = at_now_s() - r.progress.t0;
    if (!rc)
        at_tune_progress(&r, 1);
    release(&r, rc, coord, pts);
    if (rc)
        at_err_prefix(e, "tuning %s: ", prob);
    return rc;
}

void at_tuned_free(at_tuned *t)
{
    if (t) {
        free(t->cubin);
        t->cubin = NULL;
    }
}
