#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../gen/expand.h"
#include "../gen/hash.h"
#include "../search/pcg.h"
#include "../search/record.h"
#include "../search/strategy.h"
#include "autotune_version.h"
#include "compile.h"
#include "elf.h"

enum {
    FIRST_SAMPLES = 5,  /* per variant in the walk, unless raced */
    ROUNDS = 5,         /* the leaders re-timed interleaved */
    ROUND_SAMPLES = 10,
};

typedef struct cand {
    size_t idx;
    at_point pt;
    char name[128];
    char kernel[AT_KERNEL_NAME];
    CUmodule mod; /* a leader's own; NULL while its program's is used */
    CUfunction fn;
    void *cubin;
    size_t size;
    at_timing t;
    double final_ms;
} cand;

/* A kernel already evaluated, with its launch: identical code launched
 * alike gives the same answer and the same time. Kept: its hash (the
 * kernel's sections, elf.h) and launch, and its .text to compare. */
typedef struct code {
    uint64_t hash;
    at_launch g;
    unsigned char *text;
    size_t size;
    int ok; /* verified */
    at_timing t;
} code;

/* Points per NVRTC program: NVRTC's cost per program is paid once for
 * all of them (docs/notes/gpu-log.md: 16 points a program compile 1.6x
 * faster than one each). */
enum { BATCH = 16 };

/* One program of up to BATCH points, compiled by the pool or found in the
 * compiled-variant cache; its points are evaluated in proposal order. */
typedef struct prog {
    at_job cj;  /* the pool's job: the program's source and cubin */
    int n, left; /* points, and points not yet evaluated */
    size_t idx[BATCH];
    char kernel[BATCH][AT_KERNEL_NAME];
    char *src[BATCH]; /* each point's own source: its cache key */
    int cached;       /* the cubin came from the cache ... */
    int64_t blob;     /* ... where it is this one */
    int handled;      /* completion handled: stored, or split */
    struct prog *single[BATCH]; /* a failed program: a program per point */
    CUmodule mod;
} prog;

/* A point in flight: its program and its place there. */
typedef struct slot {
    prog *g;
    int i;
} slot;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* The compile options that shape the code, as one string. */
static void compile_opts(const at_tune_opts *o, int sm, at_compile_opts *co,
                         char *text, size_t n)
{
    co->sm = sm;
    co->limit_s = o->compile_limit_s > 0 ? o->compile_limit_s
                                         : AT_COMPILE_LIMIT_S;
    at_compile_options_text(co, text, n);
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
    k->batch = p->batch;
    k->stride_in = p->stride_in;
    k->stride_out = p->stride_out;
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
    const at_point *pts;
    at_bench *b;
    at_pool *pool;
    at_compile_opts co;
    char co_text[128];
    at_cubin_key ckey;
    prog *open;   /* the program being filled with cache misses */
    prog *last;   /* the last program started (cache hits join it) */
    double t0, walk_t0, last_print, copy_gbps;
    size_t proposed;
    cand lead[AT_LEADERS];
    int n_lead;
    int tty;
    code *codes; /* open addressing by hash */
    size_t n_codes_cap;
} run;

static void say(run *r, const char *fmt, const char *msg)
{
    if (r->o->progress) {
        fprintf(r->o->progress, "%s", r->tty ? "\r\033[K" : "");
        fprintf(r->o->progress, fmt, msg);
    }
}

static double gbps_of(const run *r, double ms)
{
    return r->p->family->bytes_moved(r->p) / ms / 1e6;
}

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
    char best[256] = "none yet", eta[64] = "";
    if (r->n_lead) {
        const cand *c = &r->lead[0];
        double g = gbps_of(r, c->t.median_ms);
        snprintf(best, sizeof best, "%.4f ms %.0f GB/s (%.1f%% of copy) %s",
                 c->t.median_ms, g, 100 * g / r->copy_gbps, c->name);
    }
    double walk = t - r->walk_t0;
    double rate = walk > 0 ? o->evaluated / walk : 0;
    size_t goal = o->points;
    if (r->o->budget_evals && r->o->budget_evals < goal)
        goal = r->o->budget_evals;
    if (!final && rate > 0 && goal > o->evaluated) {
        double left = (double)(goal - o->evaluated) / rate;
        if (r->o->budget_s && r->o->budget_s - walk < left)
            left = r->o->budget_s - walk;
        snprintf(eta, sizeof eta, ", ETA %.0f s", left > 0 ? left : 0);
    }
    fprintf(f,
            "%s[%6.1fs] %zu/%zu evaluated (%zu compiled, %zu cached, %zu "
            "same code), %zu timed, %zu failed, %.0f/s%s; best %s%s",
            r->tty ? "\r\033[K" : "", t - r->t0, o->evaluated, goal,
            o->compiled - o->cached, o->cached, o->same_code, o->timed,
            o->compile_failed + o->wrong, rate, eta, best,
            r->tty && !final ? "" : "\n");
    fflush(f);
}

/* Keeps c among the leaders (sorted by first-pass median) or frees it. */
static void offer(run *r, cand *c)
{
    int pos = r->n_lead;
    while (pos > 0 && c->t.median_ms < r->lead[pos - 1].t.median_ms)
        --pos;
    if (pos >= AT_LEADERS) {
        cand_free(c);
        return;
    }
    if (r->n_lead == AT_LEADERS)
        cand_free(&r->lead[AT_LEADERS - 1]);
    else
        r->n_lead++;
    memmove(&r->lead[pos + 1], &r->lead[pos],
            (size_t)(r->n_lead - 1 - pos) * sizeof(cand));
    r->lead[pos] = *c;
}

static void note_failure(run *r, const char *msg)
{
    if (!r->out->first_failure[0])
        snprintf(r->out->first_failure, sizeof r->out->first_failure, "%s",
                 msg);
    say(r, "failed: %s\n", msg);
}

/* The evaluated kernel identical to this one (kernel of cubin) with this
 * launch, or the empty slot where it goes (*text: the kernel's code, to
 * keep there); NULL if the cubin has no such kernel's sections (then
 * nothing is shared). */
static code *code_slot(run *r, const void *cubin, size_t size,
                       const char *kernel, const at_launch *g,
                       const unsigned char **text)
{
    uint64_t h = at_elf_kernel_hash(cubin, size, kernel);
    char text_name[96];
    snprintf(text_name, sizeof text_name, ".text.%s", kernel);
    size_t n;
    uint32_t info;
    if (!h || at_elf_section(cubin, size, text_name, text, &n, &info) != 1 ||
        !*text)
        return NULL;
    h = at_hash(h, g, sizeof *g);
    size_t mask = r->n_codes_cap - 1;
    for (size_t s = h & mask;; s = (s + 1) & mask) {
        code *c = &r->codes[s];
        if (!c->text) {
            c->hash = h;
            c->g = *g;
            c->size = n;
            return c;
        }
        if (c->hash == h && c->size == n &&
            memcmp(&c->g, g, sizeof *g) == 0 &&
            memcmp(c->text, *text, n) == 0)
            return c;
    }
}

static int record(run *r, const cand *c, const char *status, at_err *e)
{
    if (!r->o->record)
        return 0;
    const at_problem *p = r->p;
    char params[256];
    at_point_params(p->family, &r->pts[c->idx], params, sizeof params);
    at_record_row row = {
        .gpu = r->d->name, .family = p->family->name,
        .type = p->type->name, .rows = p->rows, .cols = p->cols,
        .point = c->name, .params = params, .status = status,
        .median_ms = c->t.median_ms, .min_ms = c->t.min_ms,
        .max_ms = c->t.max_ms, .samples = c->t.samples,
        .gbps = c->t.median_ms > 0 ? gbps_of(r, c->t.median_ms) : 0};
    return at_record_write(r->o->record, r->o->record_path, &row, e);
}

static void prog_free(prog *g)
{
    if (!g)
        return;
    if (g->mod)
        at_cu.cuModuleUnload(g->mod);
    at_job_release(&g->cj);
    for (int i = 0; i < g->n; ++i) {
        free(g->src[i]);
        prog_free(g->single[i]);
    }
    free(g);
}

static prog *prog_new(run *r, at_err *e)
{
    prog *g = calloc(1, sizeof *g);
    if (!g) {
        at_fail(e, AUTOTUNE_ENOMEM, "program of variants");
        return NULL;
    }
    g->cj.done = 1; /* until submitted: nothing to wait for */
    g->cj.opts = r->co;
    return g;
}

/* Adds point i (its own source src, taken) to g. */
static void prog_add(prog *g, size_t i, char *src)
{
    g->idx[g->n] = i;
    g->src[g->n] = src;
    at_batch_kernel(g->n, g->kernel[g->n], AT_KERNEL_NAME);
    g->n++;
    g->left++;
}

/* Builds g's program and hands it to the pool. */
static int prog_submit(run *r, prog *g, at_err *e)
{
    const at_point *pts[BATCH];
    for (int k = 0; k < g->n; ++k)
        pts[k] = &r->pts[g->idx[k]];
    g->cj.src = at_expand_batch(r->p, pts, g->n, e);
    if (!g->cj.src)
        return AUTOTUNE_ENOMEM;
    r->p->family->point_name(pts[0], g->cj.variant, sizeof g->cj.variant);
    if (g->n > 1) {
        size_t len = strlen(g->cj.variant);
        snprintf(g->cj.variant + len, sizeof g->cj.variant - len,
                 " and %d more in one program", g->n - 1);
    }
    g->cj.opts.limit_s = r->co.limit_s * g->n;
    at_pool_submit(r->pool, &g->cj);
    return 0;
}

/* Puts point i in flight: into the program of the cache hit it joins, or
 * the open program of misses (submitted when full). */
static int start_point(run *r, slot *s, size_t i, at_err *e)
{
    const at_family *f = r->p->family;
    char *src = at_expand(r->p, &r->pts[i], AT_KERNEL_SYMBOL, e);
    if (!src)
        return AUTOTUNE_ENOMEM;
    int64_t blob = 0;
    char kernel[AT_KERNEL_NAME];
    int hit = 0, rc;
    if (r->o->cubins) {
        at_err w = {0};
        hit = at_cubins_find(r->o->cubins, &r->ckey, src, &blob, kernel, &w);
        if (hit < 0) {
            free(src);
            return at_fail(e, hit, "%s", w.msg);
        }
    }
    if (hit && !(r->last && r->last->cached && r->last->blob == blob &&
                 r->last->n < BATCH)) {
        /* A cubin not read yet: a program of its own. */
        prog *g = prog_new(r, e);
        if (!g) {
            free(src);
            return AUTOTUNE_ENOMEM;
        }
        at_err w = {0};
        hit = at_cubins_blob(r->o->cubins, blob, &g->cj.cubin, &g->cj.size,
                             &w);
        if (hit < 0) {
            free(src);
            free(g);
            return at_fail(e, hit, "%s", w.msg);
        }
        if (w.msg[0])
            say(r, "%s\n", w.msg);
        if (hit) {
            g->cached = g->handled = 1;
            g->blob = blob;
            f->point_name(&r->pts[i], g->cj.variant, sizeof g->cj.variant);
            r->last = g;
        } else {
            free(g);
        }
    }
    prog *g;
    if (hit) {
        g = r->last;
        prog_add(g, i, src);
        snprintf(g->kernel[g->n - 1], AT_KERNEL_NAME, "%s", kernel);
        r->out->cached++;
    } else {
        if (!r->open && !(r->open = prog_new(r, e))) {
            free(src);
            return AUTOTUNE_ENOMEM;
        }
        g = r->open;
        prog_add(g, i, src);
        r->last = g;
    }
    /* In flight from here on, whatever follows. */
    s->g = g;
    s->i = g->n - 1;
    if (g == r->open && g->n == BATCH) {
        r->open = NULL;
        if ((rc = prog_submit(r, g, e)))
            return rc;
    }
    return 0;
}

/* Once g's compilation is over: a failed program of several points is
 * split into a program per point, so each failure is its own; a compiled
 * one is stored in the cache. */
static int prog_done(run *r, prog *g, at_err *e)
{
    if (g->handled)
        return 0;
    g->handled = 1;
    at_tuned *o = r->out;
    o->nvrtc_cpu_s += g->cj.ms / 1e3;
    if (g->cj.rc && g->n > 1) {
        for (int k = 0; k < g->n; ++k) {
            prog *s = g->single[k] = prog_new(r, e);
            if (!s)
                return AUTOTUNE_ENOMEM;
            s->handled = 0;
            s->idx[0] = g->idx[k];
            s->n = s->left = 1;
            at_batch_kernel(0, s->kernel[0], AT_KERNEL_NAME);
            s->src[0] = strdup(g->src[k]);
            if (!s->src[0])
                return at_fail(e, AUTOTUNE_ENOMEM, "program of variants");
            int rc = prog_submit(r, s, e);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (!g->cj.rc && r->o->cubins) {
        const char *srcs[BATCH], *kernels[BATCH];
        for (int k = 0; k < g->n; ++k) {
            srcs[k] = g->src[k];
            kernels[k] = g->kernel[k];
        }
        at_err w = {0};
        int rc = at_cubins_put(r->o->cubins, &r->ckey, g->n, srcs, kernels,
                               g->cj.cubin, g->cj.size, &w);
        if (rc)
            return at_fail(e, rc, "%s", w.msg);
    }
    return 0;
}

/* Loads, verifies and times point k of program g. 0: evaluated (c->fn NULL
 * and *status set if it failed); < 0: fatal. */
static int evaluate(run *r, prog *g, int k, cand *c, const char **status,
                    at_err *e)
{
    at_tuned *o = r->out;
    at_err why = {0};
    int rc;
    memset(c, 0, sizeof *c);
    c->idx = g->idx[k];
    c->pt = r->pts[c->idx];
    r->p->family->point_name(&c->pt, c->name, sizeof c->name);
    snprintf(c->kernel, sizeof c->kernel, "%s", g->kernel[k]);
    *status = "ok";
    if (g->cj.rc) {
        o->compile_failed++;
        *status = "compile_failed";
        note_failure(r, g->cj.err.msg);
        return 0;
    }
    CUresult cr = CUDA_SUCCESS;
    if (!g->mod)
        cr = at_cu.cuModuleLoadData(&g->mod, g->cj.cubin);
    if (cr != CUDA_SUCCESS) {
        g->mod = NULL;
        at_cu_fail(&why, cr, "cuModuleLoadData", c->name);
        o->compile_failed++;
        *status = "compile_failed";
        note_failure(r, why.msg);
        return 0;
    }
    o->compiled++;
    at_launch launch;
    r->p->family->launch(r->p, &c->pt, &launch);
    const unsigned char *text = NULL;
    code *same = code_slot(r, g->cj.cubin, g->cj.size, c->kernel, &launch,
                           &text);
    if (same && same->text) { /* the same code was evaluated: so is this */
        o->same_code++;
        c->t = same->t;
        if (!same->ok)
            *status = "wrong";
        return 0;
    }
    if ((rc = at_cu_fail(e, at_cu.cuModuleGetFunction(&c->fn, g->mod,
                                                     c->kernel),
                         "cuModuleGetFunction", c->name)))
        return rc;
    rc = at_bench_prepare(r->p, &c->pt, c->fn, c->name, e);
    if (!rc)
        rc = at_bench_verify(r->b, &c->pt, c->fn, c->name, e);
    if (same) { /* remember this code, whatever its outcome */
        if (!(same->text = malloc(same->size ? same->size : 1)))
            return at_fail(e, AUTOTUNE_ENOMEM, "evaluated code");
        memcpy(same->text, text, same->size);
    }
    if (rc == AUTOTUNE_EWRONG) {
        o->wrong++;
        *status = "wrong";
        note_failure(r, e->msg);
        at_err_clear(e);
        c->fn = NULL;
        return 0;
    }
    if (rc)
        return rc;
    /* Racing against the last leader: a variant clearly slower cannot
     * become one. */
    double cutoff = r->n_lead == AT_LEADERS
                        ? r->lead[AT_LEADERS - 1].t.median_ms
                        : 0;
    if ((rc = at_bench_time(r->b, &c->pt, c->fn, c->name, FIRST_SAMPLES,
                            cutoff, 1, &c->t, e)))
        return rc;
    o->timed++;
    o->raced += c->t.samples < FIRST_SAMPLES;
    if (same) {
        same->ok = 1;
        same->t = c->t;
    }
    /* A possible leader gets a module of its own: its program's goes
     * when the program's last point is done. */
    int leads = r->n_lead < AT_LEADERS ||
                c->t.median_ms < r->lead[AT_LEADERS - 1].t.median_ms;
    if (leads) {
        c->cubin = malloc(g->cj.size);
        if (!c->cubin)
            return at_fail(e, AUTOTUNE_ENOMEM, "cubin of %zu bytes",
                           g->cj.size);
        memcpy(c->cubin, g->cj.cubin, g->cj.size);
        c->size = g->cj.size;
        AT_CU_TRY(e, c->name, cuModuleLoadData, &c->mod, c->cubin);
        AT_CU_TRY(e, c->name, cuModuleGetFunction, &c->fn, c->mod,
                  c->kernel);
        if ((rc = at_bench_prepare(r->p, &c->pt, c->fn, c->name, e)))
            return rc;
    } else {
        c->fn = NULL; /* timed; not kept */
        c->t.samples = c->t.samples ? c->t.samples : 1;
        c->idx = g->idx[k];
    }
    return 0;
}

static int walk(run *r, const at_space_view *v, at_err *e)
{
    at_tuned *o = r->out;
    const at_strategy *s = at_strategy_find(o->strategy);
    void *st = s->create(v, o->seed);
    if (!st)
        return at_fail(e, AUTOTUNE_ENOMEM, "strategy state");
    /* Points in flight: enough for every compile worker to hold a full
     * program while the next ones fill. */
    size_t window = 2 * (size_t)o->threads * BATCH;
    if (window < AT_SEARCH_WINDOW)
        window = AT_SEARCH_WINDOW;
    size_t head = 0, count = 0;
    slot *ring = calloc(window, sizeof *ring);
    size_t *idx = calloc(window, sizeof *idx);
    int rc = ring && idx ? 0 : at_fail(e, AUTOTUNE_ENOMEM, "point ring");
    o->stopped = "every point evaluated";
    r->walk_t0 = now_s();
    while (!rc) {
        /* Ask for points a program's worth at a time (or whatever is free
         * when nothing is in flight), so programs fill. */
        size_t want = window - count;
        if (want < BATCH && count > 0)
            want = 0;
        if (r->o->budget_evals && r->o->budget_evals - r->proposed < want)
            want = r->o->budget_evals - r->proposed;
        size_t k = want ? s->propose(st, idx, want) : 0;
        for (size_t i = 0; i < k && !rc; ++i) {
            slot *sl = &ring[(head + count) % window];
            sl->g = NULL;
            rc = start_point(r, sl, idx[i], e);
            count += sl->g != NULL;
            ++r->proposed;
        }
        /* A partial program goes now: nothing else would fill it soon. */
        if (!rc && r->open) {
            prog *g = r->open;
            r->open = NULL;
            rc = prog_submit(r, g, e);
        }
        if (rc || count == 0)
            break;
        slot *sl = &ring[head];
        prog *g = sl->g;
        int i = sl->i;
        at_pool_wait(r->pool, &g->cj);
        if ((rc = prog_done(r, g, e)))
            break;
        prog *own = g->single[i] ? g->single[i] : g;
        if (own != g) {
            at_pool_wait(r->pool, &own->cj);
            if ((rc = prog_done(r, own, e)))
                break;
        }
        if (r->o->budget_s && now_s() - r->walk_t0 > r->o->budget_s) {
            o->stopped = "time budget reached";
            break;
        }
        cand c;
        const char *status;
        double t0 = now_s();
        rc = evaluate(r, own, own == g ? i : 0, &c, &status, e);
        o->gpu_s += now_s() - t0;
        head = (head + 1) % window;
        --count;
        if (--g->left == 0) {
            if (r->last == g)
                r->last = NULL;
            prog_free(g);
        }
        if (!rc) {
            o->evaluated++;
            rc = record(r, &c, status, e);
        }
        if (rc) {
            cand_free(&c);
            break;
        }
        s->observe(st, c.idx, strcmp(status, "ok") == 0 ? c.t.median_ms
                                                         : -1.0);
        if (c.fn)
            offer(r, &c);
        else
            cand_free(&c);
        progress(r, 0);
    }
    if (!rc && r->o->budget_evals && r->proposed >= r->o->budget_evals &&
        o->evaluated < o->points)
        o->stopped = "evaluation budget reached";
    /* Drop what is queued; wait for what runs; free every program once. */
    at_pool_cancel(r->pool);
    r->open = NULL; /* its points are in the ring */
    for (size_t i = 0; ring && i < count; ++i) {
        prog *g = ring[(head + i) % window].g;
        at_pool_wait(r->pool, &g->cj);
        for (int k = 0; k < g->n; ++k)
            if (g->single[k])
                at_pool_wait(r->pool, &g->single[k]->cj);
        if (--g->left == 0)
            prog_free(g);
    }
    r->last = NULL;
    free(ring);
    free(idx);
    s->destroy(st);
    return rc;
}

/* The winner's cubin for the cache and the API: compiled alone, its
 * kernel named as every stored cubin's is, and checked again. */
static int winner_cubin(run *r, cand *c, at_err *e)
{
    char *src = at_expand(r->p, &c->pt, AT_KERNEL_SYMBOL, e);
    if (!src)
        return AUTOTUNE_ENOMEM;
    char opts[160], kernel[AT_KERNEL_NAME];
    snprintf(opts, sizeof opts, "%s; alone", r->co_text);
    at_cubin_key key = r->ckey;
    key.options = opts;
    void *cubin = NULL;
    size_t size = 0;
    at_err w = {0};
    int rc = r->o->cubins ? at_cubins_get(r->o->cubins, &key, src, &cubin,
                                          &size, kernel, &w)
                          : 0;
    if (rc < 0) {
        free(src);
        return at_fail(e, rc, "%s", w.msg);
    }
    if (rc == 0) {
        rc = at_compile(src, c->name, &r->co, &cubin, &size, e);
        const char *k = AT_KERNEL_SYMBOL;
        const char *srcs[] = {src};
        if (!rc && r->o->cubins)
            rc = at_cubins_put(r->o->cubins, &key, 1, srcs, &k, cubin, size,
                               e);
    } else {
        rc = 0;
    }
    free(src);
    CUmodule mod = NULL;
    CUfunction fn;
    if (!rc)
        rc = at_cu_fail(e, at_cu.cuModuleLoadData(&mod, cubin),
                        "cuModuleLoadData", c->name);
    if (!rc)
        rc = at_cu_fail(e, at_cu.cuModuleGetFunction(&fn, mod,
                                                     AT_KERNEL_SYMBOL),
                        "cuModuleGetFunction", c->name);
    if (!rc)
        rc = at_bench_prepare(r->p, &c->pt, fn, c->name, e);
    if (!rc)
        rc = at_bench_verify(r->b, &c->pt, fn, c->name, e);
    if (mod)
        at_cu.cuModuleUnload(mod);
    if (rc) {
        free(cubin);
        return rc;
    }
    r->out->cubin = cubin;
    r->out->cubin_size = size;
    return 0;
}

static void sort5(double *v, int n)
{
    for (int a = 1; a < n; ++a)
        for (int q = a; q > 0 && v[q] < v[q - 1]; --q) {
            double s = v[q];
            v[q] = v[q - 1];
            v[q - 1] = s;
        }
}

/* The leaders again, interleaved with the copy, several rounds: a clock
 * change then moves every candidate alike. Median of the round medians;
 * the winner is the lowest, ties going to the earlier leader. */
static int retime(run *r, at_err *e)
{
    double ms[AT_LEADERS][ROUNDS], copy[ROUNDS];
    for (int k = 0; k < ROUNDS; ++k) {
        at_timing t;
        int rc = at_bench_time_copy(r->b, ROUND_SAMPLES, &t, e);
        if (rc)
            return rc;
        copy[k] = t.median_ms;
        for (int i = 0; i < r->n_lead; ++i) {
            cand *c = &r->lead[i];
            if ((rc = at_bench_time(r->b, &c->pt, c->fn, c->name,
                                    ROUND_SAMPLES, 0, 0, &t, e)))
                return rc;
            ms[i][k] = t.median_ms;
        }
    }
    int win = 0;
    for (int i = 0; i < r->n_lead; ++i) {
        sort5(ms[i], ROUNDS);
        r->lead[i].final_ms = ms[i][ROUNDS / 2];
        if (r->lead[i].final_ms < r->lead[win].final_ms)
            win = i;
    }
    sort5(copy, ROUNDS);
    at_tuned *o = r->out;
    /* The leaders by final time, for the summary. */
    int order[AT_LEADERS];
    for (int i = 0; i < r->n_lead; ++i) {
        int q = i;
        while (q > 0 && r->lead[i].final_ms < r->lead[order[q - 1]].final_ms) {
            order[q] = order[q - 1];
            --q;
        }
        order[q] = i;
    }
    o->n_leaders = r->n_lead;
    for (int i = 0; i < r->n_lead; ++i) {
        snprintf(o->leaders[i].name, sizeof o->leaders[i].name, "%s",
                 r->lead[order[i]].name);
        o->leaders[i].ms = r->lead[order[i]].final_ms;
    }
    cand *c = &r->lead[win];
    const at_problem *p = r->p;
    o->point = c->pt;
    snprintf(o->name, sizeof o->name, "%s", c->name);
    o->kernel = c->t;
    o->kernel.median_ms = c->final_ms;
    o->copy.median_ms = copy[ROUNDS / 2];
    o->gbps = gbps_of(r, o->kernel.median_ms);
    o->copy_gbps = gbps_of(r, o->copy.median_ms);
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
    return winner_cubin(r, c, e);
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
    at_timing ct;
    int rc;
    if (!(*coord = space_view(p->family, r->pts, out->points, v)))
        return at_fail(e, AUTOTUNE_ENOMEM, "space view");
    if (r->o->record && (rc = at_record_header(r->o->record,
                                               r->o->record_path, e)))
        return rc;
    double t0 = now_s();
    if ((rc = at_pool_create(&r->pool, r->o->jobs, 1, e)))
        return rc;
    double t1 = now_s();
    out->threads = at_pool_threads(r->pool);
    size_t cap = 16;
    while (cap < 2 * out->points)
        cap *= 2;
    r->codes = calloc(cap, sizeof *r->codes);
    r->n_codes_cap = cap;
    if (!r->codes)
        return at_fail(e, AUTOTUNE_ENOMEM, "evaluated code table");
    if ((rc = at_bench_create(&r->b, r->d, p, out->seed,
                              r->o->warm_l2 ? AT_BENCH_WARM_L2 : 0,
                              r->o->cubins, e)))
        return rc;
    double t2 = now_s();
    if ((rc = at_bench_time_copy(r->b, FIRST_SAMPLES, &ct, e)))
        return rc;
    out->sets = at_bench_sets(r->b);
    r->copy_gbps = gbps_of(r, ct.median_ms);
    if (r->o->progress)
        fprintf(r->o->progress,
                "device-to-device copy of the same bytes: %.4f ms, %.0f GB/s "
                "(%d buffer set%s%s)\n",
                ct.median_ms, r->copy_gbps, out->sets,
                out->sets > 1 ? "s, rotated" : "",
                r->o->warm_l2 ? "; kept warm in L2 on request"
                : at_bench_past_l2(r->b) ? ""
                                         : "; too small to leave the L2 "
                                           "cache: timed from L2");
    if (r->o->progress)
        fprintf(r->o->progress, "setup: %d compile workers %.2f s, inputs "
                "and references %.2f s, copy timing %.2f s\n", out->threads,
                t1 - t0, t2 - t1, now_s() - t2);
    return 0;
}

int at_tune(const at_device *d, const at_problem *p, const at_tune_opts *o,
            at_tuned *out, at_err *e)
{
    memset(out, 0, sizeof *out);
    run r = {.d = d, .p = p, .o = o, .out = out, .t0 = now_s()};
    r.tty = o->progress && isatty(fileno(o->progress));
    out->seed = o->seed ? o->seed : at_pcg_fresh_seed();
    out->strategy = o->strategy ? o->strategy : "exhaustive";
    if (!at_strategy_find(out->strategy))
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "unknown strategy '%s' "
                       "(known: %s)", out->strategy, at_strategy_list());
    compile_opts(o, d->sm, &r.co, r.co_text, sizeof r.co_text);
    r.ckey = (at_cubin_key){d->sm, d->nvrtc, r.co_text};
    at_limits l = at_device_limits(d);
    at_point *pts = NULL;
    char prob[256];
    at_problem_str(p, prob, sizeof prob);
    int rc = at_space_points(p->family, p, &l, &pts, &out->points, e);
    r.pts = pts;
    out->space_total = at_space_size(p->family);
    if (!rc && o->progress)
        fprintf(o->progress,
                "tuning %s on %s (sm_%d): %zu of %zu points pass the "
                "constraints; strategy %s, seed %llu; NVRTC %s\n",
                prob, d->name, d->sm, out->points, out->space_total,
                out->strategy, (unsigned long long)out->seed, r.co_text);
    if (!rc)
        rc = at_device_push(d, e);
    if (rc) {
        free(pts);
        return rc;
    }
    at_space_view v;
    unsigned char *coord = NULL;
    rc = setup(&r, &v, &coord, e);
    out->setup_s = now_s() - r.t0;
    if (!rc)
        rc = walk(&r, &v, e);
    out->search_s = now_s() - r.walk_t0;
    if (!rc && r.n_lead == 0)
        rc = at_fail(e, AUTOTUNE_ENO_VARIANT,
                     "none of %zu variants evaluated passed verification; "
                     "first failure: %s",
                     out->evaluated, out->first_failure);
    double t1 = now_s();
    if (!rc)
        rc = retime(&r, e);
    out->retime_s = now_s() - t1;
    if (!rc && o->cubins)
        rc = at_cubins_flush(o->cubins, e);
    out->seconds = now_s() - r.t0;
    if (!rc)
        progress(&r, 1);
    at_pool_destroy(r.pool);
    for (int i = 0; i < r.n_lead; ++i)
        cand_free(&r.lead[i]);
    for (size_t i = 0; r.codes && i < r.n_codes_cap; ++i)
        free(r.codes[i].text);
    free(r.codes);
    free(coord);
    at_bench_destroy(r.b);
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
