#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../gen/expand.h"
#include "../gen/hash.h"
#include "../search/pcg.h"
#include "../search/strategy.h"
#include "autotune_version.h"
#include "compile.h"

enum {
    FIRST_SAMPLES = 15, /* per variant in the walk */
    LEADERS = 5,        /* re-timed interleaved at the end */
    ROUNDS = 5,
    ROUND_SAMPLES = 10,
};

typedef struct cand {
    size_t idx;
    at_point pt;
    char name[128];
    CUmodule mod;
    CUfunction fn;
    void *cubin;
    size_t size;
    at_timing t;
    double final_ms;
    int regs, local, shared;
} cand;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int at_key_fill(at_key *k, const at_device *d, const at_problem *p,
                const at_limits *l, at_err *e)
{
    memset(k, 0, sizeof *k);
    const at_family *f = p->family;
    if (d) {
        snprintf(k->gpu, sizeof k->gpu, "%s", d->name);
        k->sms = d->sms;
        k->driver = d->driver_version;
        snprintf(k->driver_build, sizeof k->driver_build, "%s",
                 d->driver_build);
        snprintf(k->nvrtc, sizeof k->nvrtc, "%s", d->nvrtc);
    }
    k->cc = l->sm;
    /* The template, and what gives it meaning: this program's version and
     * the family's launch ABI. */
    char abi[96];
    snprintf(abi, sizeof abi, "autotune %s; %s abi %d", AUTOTUNE_VERSION,
             f->name, f->abi);
    uint64_t th = at_hash(AT_HASH_INIT, f->template_src,
                          strlen(f->template_src));
    snprintf(k->template_hash, sizeof k->template_hash, "%016llx",
             (unsigned long long)at_hash(th, abi, strlen(abi)));
    /* The space's hash covers the names of the points the constraints
     * keep: a change of axes or constraints is a different key. */
    at_point *pts = NULL;
    size_t n = 0;
    int rc = at_space_points(f, p, l, &pts, &n, e);
    if (rc)
        return rc;
    uint64_t h = AT_HASH_INIT;
    for (size_t i = 0; i < n; ++i) {
        char name[128];
        f->point_name(&pts[i], name, sizeof name);
        h = at_hash(h, name, strlen(name) + 1);
    }
    free(pts);
    snprintf(k->space_hash, sizeof k->space_hash, "%016llx",
             (unsigned long long)h);
    snprintf(k->family, sizeof k->family, "%s", f->name);
    snprintf(k->type, sizeof k->type, "%s", p->type->name);
    k->rows = p->rows;
    k->cols = p->cols;
    k->ld_in = p->ld_in;
    k->ld_out = p->ld_out;
    return 0;
}

int at_entry_point(const at_problem *p, const at_limits *l,
                   const at_entry *en, at_point *pt)
{
    const at_family *f = p->family;
    char name[128];
    if (at_point_parse(f, en->params, pt, NULL) != 0)
        return 0;
    f->point_name(pt, name, sizeof name);
    return strcmp(name, en->point) == 0 && f->valid(p, pt, l, NULL, 0);
}

static void cand_free(cand *c)
{
    if (c->mod)
        at_cu.cuModuleUnload(c->mod);
    free(c->cubin);
    memset(c, 0, sizeof *c);
}

typedef struct run {
    const at_device *d;
    const at_problem *p;
    const at_tune_opts *o;
    at_tuned *out;
    double t0, last_print, copy_gbps;
    cand lead[LEADERS];
    int n_lead;
    int tty;
} run;

static void progress(run *r, int final)
{
    FILE *f = r->o->progress;
    if (!f)
        return;
    double t = now_s();
    if (!final && t - r->last_print < (r->tty ? 0.2 : 5.0))
        return;
    r->last_print = t;
    const at_tuned *o = r->out;
    char best[256] = "none yet";
    if (r->n_lead) {
        const cand *c = &r->lead[0];
        double gbps = r->p->family->bytes_moved(r->p) / c->t.median_ms / 1e6;
        snprintf(best, sizeof best, "%.4f ms %.0f GB/s (%.1f%% of copy) %s",
                 c->t.median_ms, gbps, 100 * gbps / r->copy_gbps, c->name);
    }
    fprintf(f, "%s[%6.1fs] %zu/%zu compiled, %zu timed, %zu failed; best %s%s",
            r->tty ? "\r\033[K" : "", t - r->t0, o->compiled + o->compile_failed,
            o->points, o->timed, o->compile_failed + o->wrong, best,
            r->tty && !final ? "" : "\n");
    fflush(f);
}

/* Keeps c among the leaders (sorted by first-pass median) or frees it. */
static void offer(run *r, cand *c)
{
    int pos = r->n_lead;
    while (pos > 0 && c->t.median_ms < r->lead[pos - 1].t.median_ms)
        --pos;
    if (pos >= LEADERS) {
        cand_free(c);
        return;
    }
    if (r->n_lead == LEADERS)
        cand_free(&r->lead[LEADERS - 1]);
    else
        r->n_lead++;
    memmove(&r->lead[pos + 1], &r->lead[pos],
            (size_t)(r->n_lead - 1 - pos) * sizeof(cand));
    r->lead[pos] = *c;
}

/* Loads, verifies and times one compiled job. 0: evaluated (c->t set, or
 * c->fn NULL if it failed; the failure counted); < 0: fatal. */
static int evaluate(run *r, at_job *j, cand *c, at_err *e)
{
    at_tuned *o = r->out;
    at_err why = {0};
    memset(c, 0, sizeof *c);
    c->idx = j->index;
    o->nvrtc_cpu_s += j->ms / 1e3;
    snprintf(c->name, sizeof c->name, "%s", j->variant);
    if (j->rc) {
        o->compile_failed++;
        why = j->err;
        goto failed;
    }
    CUresult cr = at_cu.cuModuleLoadData(&c->mod, j->cubin);
    if (cr != CUDA_SUCCESS) {
        at_cu_fail(&why, cr, "cuModuleLoadData", c->name);
        o->compile_failed++;
        goto failed;
    }
    o->compiled++;
    c->cubin = j->cubin;
    c->size = j->size;
    j->cubin = NULL;
    int rc;
    if ((rc = at_cu_fail(e, at_cu.cuModuleGetFunction(&c->fn, c->mod,
                                                     AT_KERNEL_SYMBOL),
                         "cuModuleGetFunction", c->name)))
        return rc;
    return 0;
failed:
    if (!o->first_failure[0])
        snprintf(o->first_failure, sizeof o->first_failure, "%s", why.msg);
    if (r->o->progress)
        fprintf(r->o->progress, "%sfailed: %s\n", r->tty ? "\r\033[K" : "",
                why.msg);
    c->fn = NULL;
    return 0;
}

static int check_and_time(run *r, at_bench *b, const at_point *pts, cand *c,
                          at_err *e)
{
    at_tuned *o = r->out;
    c->pt = pts[c->idx];
    int rc = at_bench_prepare(r->p, &c->pt, c->fn, c->name, e);
    if (!rc)
        rc = at_bench_verify(b, &c->pt, c->fn, c->name, e);
    if (rc == AUTOTUNE_EWRONG) {
        o->wrong++;
        if (!o->first_failure[0])
            snprintf(o->first_failure, sizeof o->first_failure, "%s",
                     e->msg);
        if (r->o->progress)
            fprintf(r->o->progress, "%sfailed: %s\n",
                    r->tty ? "\r\033[K" : "", e->msg);
        at_err_clear(e);
        c->fn = NULL;
        return 0;
    }
    if (rc)
        return rc;
    if ((rc = at_bench_time(b, &c->pt, c->fn, c->name, FIRST_SAMPLES, &c->t,
                            e)))
        return rc;
    o->timed++;
    return 0;
}

/* The leaders again, interleaved with the copy, several rounds: a clock
 * change then moves every candidate alike. Median of the round medians. */
static int retime(run *r, at_bench *b, at_err *e)
{
    double ms[LEADERS][ROUNDS], copy[ROUNDS];
    for (int k = 0; k < ROUNDS; ++k) {
        at_timing t;
        int rc = at_bench_time_copy(b, ROUND_SAMPLES, &t, e);
        if (rc)
            return rc;
        copy[k] = t.median_ms;
        for (int i = 0; i < r->n_lead; ++i) {
            cand *c = &r->lead[i];
            if ((rc = at_bench_time(b, &c->pt, c->fn, c->name, ROUND_SAMPLES,
                                    &t, e)))
                return rc;
            ms[i][k] = t.median_ms;
        }
    }
    int win = 0;
    for (int i = 0; i < r->n_lead; ++i) {
        double v[ROUNDS];
        memcpy(v, ms[i], sizeof v);
        for (int a = 1; a < ROUNDS; ++a) /* insertion sort: 5 values */
            for (int q = a; q > 0 && v[q] < v[q - 1]; --q) {
                double s = v[q];
                v[q] = v[q - 1];
                v[q - 1] = s;
            }
        r->lead[i].final_ms = v[ROUNDS / 2];
        if (r->lead[i].final_ms < r->lead[win].final_ms)
            win = i;
    }
    for (int a = 1; a < ROUNDS; ++a)
        for (int q = a; q > 0 && copy[q] < copy[q - 1]; --q) {
            double s = copy[q];
            copy[q] = copy[q - 1];
            copy[q - 1] = s;
        }
    at_tuned *o = r->out;
    cand *c = &r->lead[win];
    const at_problem *p = r->p;
    o->point = c->pt;
    snprintf(o->name, sizeof o->name, "%s", c->name);
    o->kernel = c->t;
    o->kernel.median_ms = c->final_ms;
    o->copy.median_ms = copy[ROUNDS / 2];
    o->gbps = p->family->bytes_moved(p) / o->kernel.median_ms / 1e6;
    o->copy_gbps = p->family->bytes_moved(p) / o->copy.median_ms / 1e6;
    o->frac_copy = o->gbps / o->copy_gbps;
    at_launch g;
    p->family->launch(p, &c->pt, &g);
    AT_CU_TRY(e, c->name, cuFuncGetAttribute, &o->registers,
              CU_FUNC_ATTRIBUTE_NUM_REGS, c->fn);
    AT_CU_TRY(e, c->name, cuFuncGetAttribute, &o->local_bytes,
              CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, c->fn);
    AT_CU_TRY(e, c->name, cuFuncGetAttribute, &o->shared_bytes,
              CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, c->fn);
    o->shared_bytes += (int)g.smem; /* static + dynamic */
    o->cubin = c->cubin;
    o->cubin_size = c->size;
    c->cubin = NULL;
    return 0;
}

static int walk(run *r, at_bench *b, const at_point *pts, at_err *e)
{
    const at_family *f = r->p->family;
    const char *sname = r->o->strategy ? r->o->strategy : "exhaustive";
    const at_strategy *s = at_strategy_find(sname);
    if (!s)
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "unknown strategy '%s'",
                       sname);
    void *st = s->create(r->out->points, r->out->seed);
    at_pool *pool = NULL;
    int rc = st ? at_pool_create(&pool, r->o->jobs, e)
                : at_fail(e, AUTOTUNE_ENOMEM, "strategy state");
    if (rc) {
        if (st)
            s->destroy(st);
        return rc;
    }
    /* A ring of jobs in flight: compiled ahead, consumed in order. */
    r->out->threads = at_pool_threads(pool);
    size_t window = 4 * (size_t)r->out->threads, head = 0, count = 0;
    at_job *ring = calloc(window, sizeof *ring);
    size_t *idx = calloc(window, sizeof *idx);
    if (!ring || !idx)
        rc = at_fail(e, AUTOTUNE_ENOMEM, "job ring");
    while (!rc) {
        size_t k = s->propose(st, idx, window - count);
        for (size_t i = 0; i < k && !rc; ++i) {
            at_job *j = &ring[(head + count) % window];
            memset(j, 0, sizeof *j);
            j->index = idx[i];
            j->sm = r->d->sm;
            f->point_name(&pts[idx[i]], j->variant, sizeof j->variant);
            j->src = at_expand(r->p, &pts[idx[i]], AT_KERNEL_SYMBOL, e);
            if (!j->src) {
                rc = AUTOTUNE_ENOMEM;
                break;
            }
            at_pool_submit(pool, j);
            ++count;
        }
        if (rc || count == 0)
            break;
        at_job *j = &ring[head];
        at_pool_wait(pool, j);
        cand c;
        double t0 = now_s();
        rc = evaluate(r, j, &c, e);
        if (!rc && c.fn)
            rc = check_and_time(r, b, pts, &c, e);
        r->out->gpu_s += now_s() - t0;
        at_job_release(j);
        head = (head + 1) % window;
        --count;
        if (rc) {
            cand_free(&c);
            break;
        }
        s->observe(st, c.idx, c.fn ? c.t.median_ms : -1.0);
        if (c.fn)
            offer(r, &c);
        else
            cand_free(&c);
        progress(r, 0);
    }
    at_pool_destroy(pool); /* before the ring: queued jobs point into it */
    for (size_t i = 0; ring && i < count; ++i)
        at_job_release(&ring[(head + i) % window]);
    free(ring);
    free(idx);
    s->destroy(st);
    return rc;
}

int at_tune(const at_device *d, const at_problem *p, const at_tune_opts *o,
            at_tuned *out, at_err *e)
{
    memset(out, 0, sizeof *out);
    run r = {.d = d, .p = p, .o = o, .out = out, .t0 = now_s()};
    r.tty = o->progress && isatty(fileno(o->progress));
    out->seed = o->seed ? o->seed : at_pcg_fresh_seed();
    at_limits l = at_device_limits(d);
    at_point *pts = NULL;
    at_bench *b = NULL;
    char prob[256];
    at_problem_str(p, prob, sizeof prob);
    int rc = at_space_points(p->family, p, &l, &pts, &out->points, e);
    out->space_total = at_space_size(p->family);
    if (!rc && o->progress)
        fprintf(o->progress,
                "tuning %s on %s (sm_%d): %zu of %zu points pass the "
                "constraints; input seed %llu\n",
                prob, d->name, d->sm, out->points, out->space_total,
                (unsigned long long)out->seed);
    if (!rc)
        rc = at_device_push(d, e);
    if (rc) {
        free(pts);
        return rc;
    }
    rc = at_bench_create(&b, d, p, out->seed, e);
    at_timing ct;
    if (!rc)
        rc = at_bench_time_copy(b, FIRST_SAMPLES, &ct, e);
    if (!rc) {
        out->sets = at_bench_sets(b);
        r.copy_gbps = p->family->bytes_moved(p) / ct.median_ms / 1e6;
        if (o->progress)
            fprintf(o->progress,
                    "device-to-device copy of the same bytes: %.4f ms, %.0f "
                    "GB/s (%d buffer set%s%s)\n",
                    ct.median_ms, r.copy_gbps, out->sets,
                    out->sets > 1 ? "s, rotated" : "",
                    at_bench_past_l2(b) ? ""
                                        : "; too small to leave the L2 "
                                          "cache: timed from L2");
        rc = walk(&r, b, pts, e);
    }
    if (!rc && r.n_lead == 0)
        rc = at_fail(e, AUTOTUNE_ENO_VARIANT,
                     "none of %zu variants passed verification; first "
                     "failure: %s",
                     out->points, out->first_failure);
    if (!rc)
        rc = retime(&r, b, e);
    out->seconds = now_s() - r.t0;
    if (!rc)
        progress(&r, 1);
    for (int i = 0; i < r.n_lead; ++i)
        cand_free(&r.lead[i]);
    at_bench_destroy(b);
    at_device_pop();
    free(pts);
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
