#include "runtime/plan/near_pick.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "runtime/store/store.h"

/* One point a neighbour kept: its params, a hash to compare fast, and
 * its time over that neighbour's best. */
typedef struct kept {
    char params[256];
    uint64_t hash;
    double ratio;
} kept;

typedef struct side {
    kept *pts;
    int n;
    double missing, weight;
} side;

/* The neighbour's kept points: its profile's, else its best alone. */
static int read_side(const at_near_cand *c, side *s)
{
    s->pts = calloc(AT_PROFILE, sizeof *s->pts);
    if (!s->pts)
        return AUTOTUNE_ENOMEM;
    const char *at = c->profile ? c->profile : "";
    double ms, best = 0, worst = 1;
    int r;
    while (s->n < AT_PROFILE &&
           (r = at_profile_next(&at, &ms, s->pts[s->n].params,
                                sizeof s->pts[s->n].params)) != 0) {
        if (r < 0)
            continue;
        best = best > 0 && best < ms ? best : ms;
        s->pts[s->n++].ratio = ms;
    }
    /* Its best point leads at the best time: the tune chose it over the
     * others after timing its leaders again, which its profile's single
     * walk times may not show. */
    int pos = 0;
    while (pos < s->n && strcmp(s->pts[pos].params, c->params) != 0)
        ++pos;
    if (pos == s->n)
        pos = s->n < AT_PROFILE ? s->n++ : AT_PROFILE - 1;
    if (best <= 0) /* no profile: its best point alone */
        best = 1;
    memmove(&s->pts[1], &s->pts[0], (size_t)pos * sizeof s->pts[0]);
    snprintf(s->pts[0].params, sizeof s->pts[0].params, "%s", c->params);
    s->pts[0].ratio = best;
    for (int i = 0; i < s->n; ++i) {
        s->pts[i].ratio /= best;
        s->pts[i].hash = at_hash(AT_HASH_INIT, s->pts[i].params,
                                 strlen(s->pts[i].params));
        worst = s->pts[i].ratio > worst ? s->pts[i].ratio : worst;
    }
    s->missing = worst > AT_NEAR_MISSING ? worst : AT_NEAR_MISSING;
    s->weight = 1.0 / (0.25 + c->distance);
    return 0;
}

static const kept *find(const side *s, const kept *k)
{
    for (int i = 0; i < s->n; ++i)
        if (s->pts[i].hash == k->hash &&
            strcmp(s->pts[i].params, k->params) == 0)
            return &s->pts[i];
    return NULL;
}

static double score_of(const side *sides, int n, const kept *k)
{
    double sum = 0, w = 0;
    for (int j = 0; j < n; ++j) {
        const kept *h = find(&sides[j], k);
        sum += sides[j].weight * (h ? h->ratio : sides[j].missing);
        w += sides[j].weight;
    }
    return sum / w;
}

int at_near_pick(const at_problem *p, const at_limits *l,
                 const at_near_cand *c, int n, at_point *pt, double *score)
{
    side sides[AT_NEAR_K] = {{0}};
    const at_family *f = p->family;
    int rc = 0, from = -1;
    n = n < AT_NEAR_K ? n : AT_NEAR_K;
    for (int i = 0; i < n && !rc; ++i)
        rc = read_side(&c[i], &sides[i]);
    double best = 0;
    /* Each candidate once: where it first appears, nearest first. */
    for (int i = 0; i < n && !rc; ++i)
        for (int k = 0; k < sides[i].n; ++k) {
            const kept *cand = &sides[i].pts[k];
            int seen = 0;
            for (int j = 0; j < i && !seen; ++j)
                seen = find(&sides[j], cand) != NULL;
            at_point q;
            if (seen || at_point_parse(f, cand->params, &q, NULL) != 0 ||
                !f->ops.valid(p, &q, l, NULL, 0))
                continue;
            double s = score_of(sides, n, cand);
            if (from < 0 || s < best) {
                best = s;
                from = i;
                *pt = q;
            }
        }
    for (int i = 0; i < n; ++i)
        free(sides[i].pts);
    if (rc)
        return rc;
    *score = best;
    return from;
}
