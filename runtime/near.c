#include "near.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/distance.h"
#include "key.h"

typedef struct walk {
    const at_problem *p;
    const at_limits *l;
    at_near *best;
    int found;
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
    if (!isfinite(d) || (w->found && d >= w->best->distance))
        return 0;
    at_point pt;
    if (!at_entry_point(w->p, w->l, en, &pt))
        return 0;
    void *cubin = malloc(en->cubin_size);
    if (!cubin)
        return at_fail(w->e, AUTOTUNE_ENOMEM, "cubin of %zu bytes",
                       en->cubin_size);
    memcpy(cubin, en->cubin, en->cubin_size);
    if (w->found)
        at_entry_free(&w->best->en);
    w->best->en = *en;
    w->best->en.cubin = cubin;
    w->best->from = q;
    w->best->pt = pt;
    w->best->distance = d;
    w->found = 1;
    return 0;
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
    walk w = {p, l, out, 0, e};
    int rc = at_cache_each(c, &like, consider, &w, NULL, e);
    if (rc && w.found)
        at_entry_free(&out->en);
    return rc < 0 ? rc : w.found;
}
