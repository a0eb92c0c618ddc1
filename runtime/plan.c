#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "gpu_worker.h"
#include "key.h"

static void from_entry(at_plan *pl, const at_entry *en)
{
    snprintf(pl->name, sizeof pl->name, "%s", en->point);
    snprintf(pl->created, sizeof pl->created, "%s", en->created);
    snprintf(pl->gpu, sizeof pl->gpu, "%s", en->key.gpu);
    snprintf(pl->driver_build, sizeof pl->driver_build, "%s",
             en->key.driver_build);
    snprintf(pl->nvrtc, sizeof pl->nvrtc, "%s", en->key.nvrtc);
    pl->sm = en->key.cc;
    pl->sms = en->key.sms;
    pl->driver = en->key.driver;
    pl->seed = en->seed;
    pl->fig.median_ms = en->median_ms;
    pl->fig.gbps = en->gbps;
    pl->fig.copy_gbps = en->copy_gbps;
    pl->fig.frac_copy = en->frac_copy;
    pl->fig.registers = en->registers;
    pl->fig.shared_bytes = en->shared_bytes;
    pl->fig.local_bytes = en->local_bytes;
}

/* The cache's answer: 1 (pl filled, cubin taken), 0 none usable, < 0
 * error. With a device, its exact entry; without, the newest of any GPU
 * of the architecture. An entry whose point this build would not launch
 * is never used. */
static int lookup(const at_plan_env *env, const at_key *key,
                  const at_limits *l, at_plan *pl, at_err *e)
{
    at_entry en;
    at_err warn = {0};
    int rc = env->dev ? at_cache_get(env->cache, key, &en, &warn)
                      : at_cache_find_arch(env->cache, key, &en, &warn);
    if (rc < 0)
        return at_fail(e, rc, "%s", warn.msg);
    if (warn.msg[0] && env->progress)
        fprintf(env->progress, "autotune: cache: %s\n", warn.msg);
    if (rc == 0)
        return 0;
    if (!at_entry_point(&pl->p, l, &en, &pl->pt)) {
        if (env->progress)
            fprintf(env->progress, "autotune: cache: entry point '%s' (%s) "
                    "is not a valid point of this build; not used\n",
                    en.point, en.params);
        at_entry_free(&en);
        return 0;
    }
    from_entry(pl, &en);
    pl->cubin = en.cubin;
    pl->cubin_size = en.cubin_size;
    pl->how = pl->fig.how = AUTOTUNE_HOW_CACHED;
    pl->fig.from_cache = 1;
    return 1;
}

static int tune_and_store(const at_plan_env *env, const at_key *key,
                          const at_tune_opts *o, at_plan *pl, at_err *e)
{
    at_tune_opts with = *o;
    if (!with.cubins && !with.no_cubin_cache)
        with.cubins = env->cubins;
    at_tuned *t = &pl->tuned;
    int rc = at_tune(env->dev, &pl->p, &with, t, e);
    if (rc)
        return rc;
    at_entry en;
    memset(&en, 0, sizeof en);
    en.key = *key;
    pl->pt = t->point;
    snprintf(en.point, sizeof en.point, "%s", t->name);
    at_point_params(pl->p.family, &t->point, en.params, sizeof en.params);
    en.cubin = t->cubin;
    en.cubin_size = t->cubin_size;
    en.median_ms = t->kernel.median_ms;
    en.gbps = t->gbps;
    en.copy_gbps = t->copy_gbps;
    en.frac_copy = t->frac_copy;
    en.registers = t->registers;
    en.shared_bytes = t->shared_bytes;
    en.local_bytes = t->local_bytes;
    en.seed = t->seed;
    en.tune_seconds = t->seconds;
    en.points = (int)t->points;
    at_utc_now(en.created, sizeof en.created);
    /* The answer's figures are this run's, whatever another process may
     * store under the same key afterwards. */
    from_entry(pl, &en);
    pl->how = pl->fig.how = AUTOTUNE_HOW_TUNED;
    pl->cubin = t->cubin; /* owned by pl->tuned */
    pl->cubin_size = t->cubin_size;
    /* Only a search of the whole space is stored: a budgeted winner is
     * used, not remembered. */
    pl->stored = t->evaluated == t->points;
    return pl->stored ? at_cache_put(env->cache, &en, o->retune, e) : 0;
}

/* Leaves out the variants that failed here before; remembers one that
 * fails now (then the caller starts afresh without it). */
static int tune_remembering(const at_plan_env *env, const at_key *key,
                            const at_tune_opts *o, at_plan *pl, at_err *e)
{
    at_tune_opts with = *o;
    at_failed *skip = NULL;
    int rc = at_cache_failed_list(env->cache, key, &skip, &with.n_skip, e);
    with.skip = skip;
    if (!rc)
        rc = tune_and_store(env, key, &with, pl, e);
    free(skip);
    if (rc == AUTOTUNE_EFAULT && pl->tuned.faulted[0]) {
        at_err w = {0};
        if (at_cache_failed_put(env->cache, key, pl->tuned.faulted, e->msg,
                                &w))
            at_err_prefix(e, "%s; remembering it failed too: ", w.msg);
    }
    return rc;
}

/* Tunes under the key's lock: a process that waited for another's tune
 * takes its answer from the cache instead of tuning again. */
static int tune_locked(const at_plan_env *env, const at_key *key,
                       const at_limits *l, const at_tune_opts *o,
                       at_plan *pl, at_err *e)
{
    at_cache_held held;
    int rc = at_cache_lock(env->cache, key, env->progress, &held, e);
    if (rc)
        return rc;
    if (!o->retune)
        rc = lookup(env, key, l, pl, e);
    else
        rc = at_cache_failed_clear(env->cache, key, e);
    at_problem p = pl->p; /* pl is overwritten by the worker's answer */
    if (rc == 0 && env->worker)
        rc = at_worker_tune(env, &p, o, pl, e);
    else if (rc == 0)
        rc = tune_remembering(env, key, o, pl, e);
    at_cache_unlock(&held);
    return rc < 0 ? rc : 0;
}

int at_plan_tune_here(const at_plan_env *env, const at_problem *p,
                      const at_tune_opts *o, at_plan *pl, at_err *e)
{
    memset(pl, 0, sizeof *pl);
    pl->p = *p;
    at_limits l = at_device_limits(env->dev);
    at_key key;
    int rc = at_key_fill(&key, env->dev, p, &l, e);
    return rc ? rc : tune_remembering(env, &key, o, pl, e);
}

int at_plan_get(const at_plan_env *env, const at_problem *p,
                const at_tune_opts *o, at_plan *pl, at_err *e)
{
    memset(pl, 0, sizeof *pl);
    pl->p = *p;
    const at_device *dev = env->dev;
    if (dev && env->sm && env->sm != dev->sm)
        dev = NULL; /* this GPU is another architecture */
    at_plan_env here = *env;
    here.dev = dev;
    at_limits l;
    if (dev)
        l = at_device_limits(dev);
    else if (!at_limits_for_arch(env->sm, &l))
        return at_fail(e, AUTOTUNE_EINVALID, "unknown architecture sm_%d "
                       "(known: %s)", env->sm, AT_KNOWN_ARCHS);
    at_key key;
    int rc = at_key_fill(&key, dev, p, &l, e);
    if (rc)
        return rc;
    /* Retuning needs a device: without one the cache is all there is. */
    if ((!o->retune || !dev) && (rc = lookup(&here, &key, &l, pl, e)) != 0)
        return rc < 0 ? rc : 0;
    if (dev)
        return tune_locked(&here, &key, &l, o, pl, e);
    p->family->default_point(p, l.sm, &pl->pt);
    p->family->point_name(p->family, &pl->pt, pl->name, sizeof pl->name);
    pl->how = pl->fig.how = AUTOTUNE_HOW_DEFAULT;
    pl->sm = l.sm;
    snprintf(pl->why, sizeof pl->why, "%s",
             env->no_device ? env->no_device : "no GPU of this architecture");
    return 0;
}

void at_plan_free(at_plan *pl)
{
    if (!pl)
        return;
    if (pl->how == AUTOTUNE_HOW_CACHED)
        free(pl->cubin);
    at_tuned_free(&pl->tuned);
    pl->cubin = NULL;
}

void at_plan_provenance(const at_plan *pl, const char *command,
                        at_provenance *pv)
{
    memset(pv, 0, sizeof *pv);
    pv->command = command;
    pv->sm = pl->sm;
    if (pl->how == AUTOTUNE_HOW_DEFAULT) {
        pv->why = pl->why;
        return;
    }
    pv->tuned = 1;
    pv->gpu = pl->gpu;
    pv->sms = pl->sms;
    pv->driver = pl->driver;
    pv->driver_build = pl->driver_build;
    pv->nvrtc = pl->nvrtc;
    pv->tuned_at = pl->created;
    pv->median_ms = pl->fig.median_ms;
    pv->gbps = pl->fig.gbps;
    pv->copy_gbps = pl->fig.copy_gbps;
    pv->frac_copy = pl->fig.frac_copy;
}
