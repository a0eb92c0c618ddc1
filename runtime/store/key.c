/* A problem's cache key, and whether a cache entry's point is one this
 * build would launch. */
#include "runtime/store/store.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

/* The space's hash for a problem, remembered: listing a space under its
 * constraints takes milliseconds (transpose: 1.1 million candidates),
 * and a cache hit should take microseconds. Keyed by everything the
 * listing reads: the family (and its hash: a spec's meaning), the
 * problem, the limits. */
enum { MEMO = 64 };
static struct memo {
    const at_family *f;
    uint64_t family_hash;
    at_problem p;
    at_limits l;
    char hash[17];
} memo[MEMO];
static int memo_next;
static pthread_mutex_t memo_mu = PTHREAD_MUTEX_INITIALIZER;

static int memo_find(const at_family *f, uint64_t fh, const at_problem *p,
                     const at_limits *l, char out[17])
{
    int found = 0;
    pthread_mutex_lock(&memo_mu);
    for (int i = 0; i < MEMO && !found; ++i)
        if (memo[i].f == f && memo[i].family_hash == fh &&
            at_problem_equal(&memo[i].p, p) &&
            memcmp(&memo[i].l, l, sizeof *l) == 0) {
            memcpy(out, memo[i].hash, 17);
            found = 1;
        }
    pthread_mutex_unlock(&memo_mu);
    return found;
}

static int space_hash(const at_family *f, uint64_t fh, const at_problem *p,
                      const at_limits *l, char out[17], at_err *e)
{
    if (memo_find(f, fh, p, l, out))
        return 0;
    at_point *pts = NULL;
    size_t n = 0;
    int rc = at_space_points(f, p, l, &pts, &n, e);
    if (rc)
        return rc;
    uint64_t h = AT_HASH_INIT;
    for (size_t i = 0; i < n; ++i) {
        char name[128];
        f->ops.point_name(f, &pts[i], name, sizeof name);
        h = at_hash(h, name, strlen(name) + 1);
    }
    free(pts);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
    pthread_mutex_lock(&memo_mu);
    struct memo *m = &memo[memo_next];
    memo_next = (memo_next + 1) % MEMO;
    *m = (struct memo){f, fh, *p, *l, ""};
    memcpy(m->hash, out, 17);
    pthread_mutex_unlock(&memo_mu);
    return 0;
}

int at_key_space(at_key *k, const at_problem *p, const at_limits *l,
                 at_err *e)
{
    /* The space's hash covers the names of the points the constraints
     * keep: a change of axes or constraints is a different key. */
    return space_hash(p->family, at_family_hash(p->family), p, l,
                      k->space_hash, e);
}

int at_key_fill(at_key *k, const at_device *d, const at_problem *p,
                const at_limits *l, at_err *e)
{
    at_key_fill_partial(k, d, p, l);
    return at_key_space(k, p, l, e);
}

void at_key_fill_partial(at_key *k, const at_device *d, const at_problem *p,
                         const at_limits *l)
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
    uint64_t th = at_family_hash(f); /* a spec's meaning included */
    snprintf(k->template_hash, sizeof k->template_hash, "%016llx",
             (unsigned long long)at_hash(th, abi, strlen(abi)));
    snprintf(k->family, sizeof k->family, "%s", f->name);
    snprintf(k->type, sizeof k->type, "%s", p->type->name);
    at_problem_key_text(p, k->problem, sizeof k->problem);
}

int at_entry_point(const at_problem *p, const at_limits *l,
                   const at_entry *en, at_point *pt)
{
    const at_family *f = p->family;
    char name[128];
    if (at_point_parse(f, en->params, pt, NULL) != 0)
        return 0;
    f->ops.point_name(f, pt, name, sizeof name);
    return strcmp(name, en->point) == 0 && f->ops.valid(p, pt, l, NULL, 0);
}
