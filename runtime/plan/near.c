#include "runtime/plan/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/distance.h"
#include "runtime/store/store.h"
#include "runtime/plan/near_pick.h"

/* The AT_NEAR_K nearest entries so far, nearest first (cubins owned). */
typedef struct walk {
    const at_problem *p;
    at_entry *en;
    at_problem q[AT_NEAR_K];
    double d[AT_NEAR_K];
    int n;
    at_err *e;
} walk;

static int consider(const at_entry *en, void *arg)
{
    walk *w = arg;
    at_problem q;
    at_err ignore = {0};
    /* An entry whose problem this build cannot read is no candidate. */
    if (at_problem_begin(&q, en->key.family, en->key.type, &ignore) ||
        q.family != w->p->family ||
        at_problem_set_text(&q, en->key.problem, &ignore) ||
        at_problem_finish(&q, &ignore) || at_problem_equal(&q, w->p))
        return 0;
    double d = at_problem_distance(w->p, &q);
    if (!isfinite(d) || (w->n == AT_NEAR_K && d >= w->d[AT_NEAR_K - 1]))
        return 0;
    void *cubin = malloc(en->cubin_size);
    if (!cubin)
        return at_fail(w->e, AUTOTUNE_ENOMEM, "cubin of %zu bytes",
                       en->cubin_size);
    memcpy(cubin, en->cubin, en->cubin_size);
    if (w->n == AT_NEAR_K)
        at_entry_free(&w->en[--w->n]);
    int i = w->n++;
    for (; i > 0 && w->d[i - 1] > d; --i) { /* ties: the first seen first */
        w->en[i] = w->en[i - 1];
        w->q[i] = w->q[i - 1];
        w->d[i] = w->d[i - 1];
    }
    w->en[i] = *en;
    w->en[i].cubin = cubin;
    w->q[i] = q;
    w->d[i] = d;
    return 0;
}

static int choose(walk *w, const at_limits *l, at_near *out)
{
    at_near_cand c[AT_NEAR_K];
    for (int i = 0; i < w->n; ++i)
        c[i] = (at_near_cand){&w->q[i], w->d[i], w->en[i].params,
                              w->en[i].profile};
    int from = at_near_pick(w->p, l, c, w->n, &out->pt, &out->score);
    if (from < 0)
        return from == -1 ? 0 : at_fail(w->e, from, "nearest tuned problems");
    char name[128];
    const at_family *f = w->p->family;
    f->ops.point_name(f, &out->pt, name, sizeof name);
    out->en = w->en[from];
    w->en[from].cubin = NULL; /* now out's */
    out->from = w->q[from];
    out->distance = w->d[from];
    out->own = strcmp(name, out->en.point) == 0;
    out->neighbours = w->n;
    return 1;
}

int at_near_find(at_cache *c, const at_key *key, int with_device,
                 const at_problem *p, const at_limits *l, at_near *out,
                 at_err *e)
{
    memset(out, 0, sizeof *out);
    /* Same build of the family (template), type and GPU; any problem. */
    at_key like = *key;
    like.problem[0] = like.space_hash[0] = '\0';
    if (!with_device) {
        like.gpu[0] = like.driver_build[0] = like.nvrtc[0] = '\0';
        like.sms = like.driver = 0;
    }
    walk w = {.p = p, .e = e};
    if (!(w.en = calloc(AT_NEAR_K, sizeof *w.en)))
        return at_fail(e, AUTOTUNE_ENOMEM, "nearest entries");
    int rc = at_cache_each(c, &like, consider, &w, NULL, e);
    if (rc >= 0)
        rc = choose(&w, l, out);
    for (int i = 0; i < w.n; ++i)
        at_entry_free(&w.en[i]);
    free(w.en);
    return rc;
}
