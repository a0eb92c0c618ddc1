/* A problem's cache key, and whether a cache entry's point is one this
 * build would launch. */
#include "key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

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
    uint64_t th = at_family_hash(f); /* a spec's meaning included */
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
        f->point_name(f, &pts[i], name, sizeof name);
        h = at_hash(h, name, strlen(name) + 1);
    }
    free(pts);
    snprintf(k->space_hash, sizeof k->space_hash, "%016llx",
             (unsigned long long)h);
    snprintf(k->family, sizeof k->family, "%s", f->name);
    snprintf(k->type, sizeof k->type, "%s", p->type->name);
    at_problem_key_text(p, k->problem, sizeof k->problem);
    return 0;
}

int at_entry_point(const at_problem *p, const at_limits *l,
                   const at_entry *en, at_point *pt)
{
    const at_family *f = p->family;
    char name[128];
    if (at_point_parse(f, en->params, pt, NULL) != 0)
        return 0;
    f->point_name(f, pt, name, sizeof name);
    return strcmp(name, en->point) == 0 && f->valid(p, pt, l, NULL, 0);
}
