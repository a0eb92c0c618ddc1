/* Twins: points whose sources preprocess to the same tokens
 * (base/cpp.h) and launch alike on every case are one kernel, so the
 * first is compiled and evaluated and the others take its outcome, as
 * points whose cubins match do after compiling (tune_eval.c). Only for
 * a family that compiles each point alone (a spec's): the others batch
 * their points, and their templates #include headers, which the digest
 * does not read. */
#include <stdlib.h>
#include <string.h>

#include "base/cpp.h"
#include "base/hash.h"
#include "gen/expand.h"
#include "runtime/tune/tune_impl.h"

/* Adds p's launch of pt and its arguments (pointers 0) to h. */
static uint64_t launch_hash(const at_problem *p, const at_point *pt,
                            uint64_t h)
{
    const at_family *f = p->family;
    at_launch g;
    memset(&g, 0, sizeof g);
    f->ops.launch(p, pt, &g);
    h = at_hash(h, &g, sizeof g);
    for (int pass = 0; pass < (g.passes == 2 ? 2 : 1); ++pass) {
        at_args a;
        memset(&a, 0, sizeof a);
        f->ops.args(p, pt, 0, 0, 0, pass, &a);
        h = at_hash(h, &a.n, sizeof a.n);
        for (int i = 0; i < a.n && i < (int)(sizeof a.bytes); ++i) {
            size_t n = a.bytes[i] < 8 ? a.bytes[i] : 8;
            h = at_hash(at_hash(h, &a.bytes[i], 1), a.store[i], n);
        }
    }
    size_t ws = f->ops.workspace(p, pt);
    return at_hash(h, &ws, sizeof ws);
}

int at_tune_launches(const run *r, const at_point *pt, uint64_t *h)
{
    const at_family *f = r->p->family;
    *h = launch_hash(r->p, pt, AT_HASH_INIT);
    for (int k = 0; k < f->n_checks; ++k) {
        at_problem check;
        const char *label;
        at_err e = {0};
        if (f->ops.check_problem(r->p, k, &check, &label, &e))
            return 0;
        *h = launch_hash(&check, pt, *h);
    }
    return 1;
}

static int grow(run_twins *w)
{
    if (w->n < w->cap)
        return 1;
    size_t cap = w->cap ? 2 * w->cap : 64;
    twin *t = realloc(w->t, cap * sizeof *t);
    if (!t)
        return 0;
    w->t = t;
    w->cap = cap;
    return 1;
}

static size_t slot_of(const uint64_t d[2], uint64_t g, size_t mask)
{
    return (size_t)(d[0] ^ (g * 0x9e3779b97f4a7c15ULL)) & mask;
}

int at_twins_setup(run *r, size_t points, at_err *e)
{
    run_twins *w = &r->twins;
    const char *env = getenv("AUTOTUNE_TWINS");
    if (env && strcmp(env, "0") != 0 && strcmp(env, "1") != 0)
        return at_fail(e, AUTOTUNE_EINVALID, "AUTOTUNE_TWINS: 0 (compile "
                       "every point) or 1 (the default), not '%.40s'", env);
    w->off = (env && !strcmp(env, "0")) ||
             at_family_program_points(r->p->family, 2) != 1;
    if (w->off)
        return 0;
    /* Each point has at most one entry: the index stays half empty. */
    size_t cap = 16;
    while (cap < 2 * points)
        cap *= 2;
    if (!(w->index = calloc(cap, sizeof *w->index)))
        return at_fail(e, AUTOTUNE_ENOMEM, "the twins' index");
    w->index_cap = cap;
    return 0;
}

/* The entry (1-based) of digest d and launches g, made if new (*copy 0)
 * or found (*copy 1); 0 if there is no room for a new one. */
static long entry_of(run_twins *w, const uint64_t d[2], uint64_t g,
                     int *copy)
{
    if (2 * (w->n + 1) > w->index_cap || !grow(w))
        return 0;
    size_t mask = w->index_cap - 1, s = slot_of(d, g, mask);
    for (; w->index[s]; s = (s + 1) & mask) {
        const twin *t = &w->t[w->index[s] - 1];
        if (t->d[0] == d[0] && t->d[1] == d[1] && t->g == g) {
            *copy = 1;
            return (long)w->index[s];
        }
    }
    twin *t = &w->t[w->n];
    memset(t, 0, sizeof *t);
    t->d[0] = d[0];
    t->d[1] = d[1];
    t->g = g;
    w->index[s] = ++w->n;
    return (long)w->n;
}

int at_twin_of(run *r, size_t i, const char *src, long *first, int *copy)
{
    run_twins *w = &r->twins;
    *first = 0;
    *copy = 0;
    if (w->off)
        return 0;
    char *own = NULL;
    if (!src) {
        at_err e = {0};
        own = at_expand(r->p, &r->pts[i], AT_KERNEL_SYMBOL,
                        at_tune_prelude(r, &r->pts[i]), &e);
        if (!own)
            return 0;
        src = own;
    }
    uint64_t d[2], g = 0;
    char why[160];
    int ok = at_cpp_digest(src, d, why, sizeof why) &&
             at_tune_launches(r, &r->pts[i], &g);
    free(own);
    if (!ok) {
        /* An #include reached at one point is reached at (nearly) all:
         * the digest is not tried again. Other reasons are the point's
         * own (a division by zero in its #if). */
        w->off = !strncmp(why, "#include", 8);
        return 0;
    }
    *first = entry_of(w, d, g, copy);
    return 0;
}

void at_twin_done(run *r, long first, const cand *c, const char *status,
                  const char *why)
{
    if (first <= 0 || (size_t)first > r->twins.n)
        return;
    twin *t = &r->twins.t[first - 1];
    t->done = 1;
    t->status = at_eval_status_of(status);
    t->verified = c->verified;
    t->t = c->t;
    free(t->why);
    /* Only a failure's message is kept: it is told with each copy. */
    t->why = t->status != AT_EVAL_OK && why && *why ? strdup(why) : NULL;
}

const char *at_twin_why(const run *r, long first)
{
    const twin *t = &r->twins.t[first - 1];
    return t->why ? t->why : "";
}

void at_twins_free(run *r)
{
    for (size_t k = 0; k < r->twins.n; ++k)
        free(r->twins.t[k].why);
    free(r->twins.t);
    free(r->twins.index);
    memset(&r->twins, 0, sizeof r->twins);
}

int at_twin_take(run *r, long first, size_t idx, cand *c,
                 const char **status, at_err *e)
{
    const twin *t = &r->twins.t[first - 1];
    memset(c, 0, sizeof *c);
    c->idx = idx;
    c->pt = r->pts[idx];
    r->p->family->ops.point_name(r->p->family, &c->pt, c->name,
                                 sizeof c->name);
    if (!t->done) /* its first is evaluated before it, in proposal order */
        return at_fail(e, AUTOTUNE_EINVALID, "[variant %s] its twin was "
                       "not evaluated before it", c->name);
    c->t = t->t;
    c->verified = t->verified;
    *status = at_eval_status_name(t->status);
    /* Counted as if compiled: a source that failed to compile fails
     * again; one that compiled is machine code evaluated before. */
    if (t->status == AT_EVAL_COMPILE_FAILED) {
        r->out->compile_failed++;
    } else {
        r->out->same_code++;
        r->out->same_source++;
    }
    return 0;
}
