#include "runtime/plan/plan.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "gen/occupancy.h"
#include "runtime/plan/device_counts.h"
#include "runtime/store/store.h"

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
    pl->fig.effort = en->effort;
}

/* The effort asked: the caller's, else EXHAUSTIVE. */
static int effort_of(const at_tune_opts *o)
{
    return o->effort ? o->effort : AUTOTUNE_EXHAUSTIVE;
}

/* The least effort of an entry that answers a request at effort: any
 * for ESTIMATE and WISDOM_ONLY. */
static int entry_effort_needed(int effort)
{
    return effort == AUTOTUNE_MEASURE || effort == AUTOTUNE_EXHAUSTIVE
               ? effort : 0;
}

/* The cache's answer: 1 (pl filled, cubin taken), 0 none usable, < 0
 * error. With a device, its exact entry; without, the newest of any GPU
 * of the architecture. An entry whose point this build would not launch
 * is never used. */
static int lookup(const at_plan_env *env, const at_key *key,
                  const at_limits *l, int min_effort, at_plan *pl,
                  at_err *e)
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
    if (en.effort < min_effort) { /* a budgeted search's: tune further */
        at_entry_free(&en);
        return 0;
    }
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
    at_profile_text(t, en.profile, sizeof en.profile);
    en.effort = t->evaluated == t->points ? AUTOTUNE_EXHAUSTIVE
                                          : AUTOTUNE_MEASURE;
    at_utc_now(en.created, sizeof en.created);
    /* The answer's figures are this run's, whatever another process may
     * store under the same key afterwards. */
    from_entry(pl, &en);
    pl->how = pl->fig.how = AUTOTUNE_HOW_TUNED;
    pl->cubin = t->cubin; /* owned by pl->tuned */
    pl->cubin_size = t->cubin_size;
    /* A search of the whole space is stored, and AUTOTUNE_MEASURE's
     * (as such: an EXHAUSTIVE request tunes again); another budgeted
     * winner is used, not remembered. */
    pl->stored = t->evaluated == t->points ||
                 o->effort == AUTOTUNE_MEASURE;
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

/* One tune at a time on a device in a process: threads (background
 * tunes among them) would time their variants against each other on its
 * GPU. Tunes on other devices go on (tune-list's devices at once). */
static at_device_counts tuning = AT_DEVICE_COUNTS_INIT;

/* Tunes under the key's lock: a process (or thread) that waited for
 * another's tune takes its answer from the cache instead of tuning
 * again. */
static int tune_locked(const at_plan_env *env, const at_key *key,
                       const at_limits *l, const at_tune_opts *o,
                       at_plan *pl, at_err *e)
{
    at_cache_held held;
    at_device_count_wait(&tuning, env->dev->ordinal, 1);
    int rc = at_cache_lock(env->cache, key, env->progress, &held, e);
    if (rc) {
        at_device_count_add(&tuning, env->dev->ordinal, -1);
        return rc;
    }
    if (!o->retune)
        rc = lookup(env, key, l, entry_effort_needed(effort_of(o)), pl, e);
    else
        rc = at_cache_failed_clear(env->cache, key, e);
    at_problem p = pl->p; /* pl is overwritten by the worker's answer */
    if (rc == 0 && env->worker)
        rc = at_worker_tune(env, &p, o, pl, e);
    else if (rc == 0)
        rc = tune_remembering(env, key, o, pl, e);
    at_cache_unlock(&held);
    at_device_count_add(&tuning, env->dev->ordinal, -1);
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

/* The family's default point for the architecture; checked here when
 * there is a device (AUTOTUNE_ESTIMATE), else said not tuned. */
static int default_point(const at_plan_env *env, const at_limits *l,
                         const at_tune_opts *o, const char *why, at_plan *pl,
                         at_err *e)
{
    const at_family *f = pl->p.family;
    at_point first;
    int rc = 0;
    if (!at_space_first(f, &pl->p, l, &first)) {
        /* None: at_space_points's error names what emptied the space. */
        at_point *pts = NULL;
        size_t n = 0;
        rc = at_space_points(f, &pl->p, l, &pts, &n, e);
        free(pts);
        return rc ? rc : at_fail(e, AUTOTUNE_ENO_VARIANT, "an empty space");
    }
    f->ops.default_point(&pl->p, l->sm, &pl->pt);
    f->ops.point_name(f, &pl->pt, pl->name, sizeof pl->name);
    pl->how = pl->fig.how = AUTOTUNE_HOW_DEFAULT;
    pl->sm = l->sm;
    snprintf(pl->why, sizeof pl->why, "%s", why);
    if (!env->dev)
        return 0;
    rc = at_estimate_check(env->dev, &pl->p, &pl->pt, o, NULL, NULL, 0,
                           &pl->cubin, &pl->cubin_size, pl->kernel, e);
    if (rc)
        at_err_prefix(e, "the default point %s: ", pl->name);
    pl->verified = !rc;
    return rc;
}

/* AUTOTUNE_ESTIMATE on a miss: the point weighed best over the nearest
 * tuned problems (runtime/plan/plan.h), checked on this problem (a device here), else
 * the default point. */
static int estimate(const at_plan_env *env, const at_key *key,
                    const at_limits *l, const at_tune_opts *o, at_plan *pl,
                    at_err *e)
{
    at_near nr;
    int rc = at_near_find(env->cache, key, env->dev != NULL, &pl->p, l, &nr,
                          e);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return default_point(env, l, o, env->dev ? "AUTOTUNE_ESTIMATE: "
                             "no tuned problem of this family and type to "
                             "reuse" : env->no_device ? env->no_device
                             : "no GPU of this architecture", pl, e);
    rc = 0;
    from_entry(pl, &nr.en);
    /* Its figures were another problem's: none are claimed here. */
    pl->fig.median_ms = pl->fig.gbps = pl->fig.copy_gbps = 0;
    pl->fig.frac_copy = 0;
    pl->fig.effort = 0;
    pl->pt = nr.pt;
    if (!nr.own) { /* another point of its profile than its best */
        pl->p.family->ops.point_name(pl->p.family, &nr.pt, pl->name,
                                 sizeof pl->name);
        pl->fig.registers = pl->fig.shared_bytes = pl->fig.local_bytes = 0;
    }
    pl->how = pl->fig.how = AUTOTUNE_HOW_REUSED;
    snprintf(pl->from, sizeof pl->from, "%s", nr.en.key.problem);
    snprintf(pl->fig.from, sizeof pl->fig.from, "%s", nr.en.key.problem);
    if (env->dev) {
        /* The entry's cubin is its best point's: of use if that is
         * the point chosen and its source the same here. */
        rc = at_estimate_check(env->dev, &pl->p, &nr.pt, o, &nr.from,
                               nr.own ? nr.en.cubin : NULL,
                               nr.own ? nr.en.cubin_size : 0, &pl->cubin,
                               &pl->cubin_size, pl->kernel, e);
        pl->verified = !rc;
    } else {
        snprintf(pl->why, sizeof pl->why, "%s; not verified for this "
                 "problem", env->no_device ? env->no_device
                                           : "no GPU of this architecture");
    }
    at_entry_free(&nr.en);
    if (rc == AUTOTUNE_EWRONG && env->progress)
        fprintf(env->progress, "autotune: the point of %s, reused, failed "
                "here (%s); the default point instead\n", pl->from, e->msg);
    if (rc == AUTOTUNE_EWRONG) {
        at_err_clear(e);
        pl->from[0] = pl->fig.from[0] = '\0';
        return default_point(env, l, o, "AUTOTUNE_ESTIMATE: the nearest "
                             "tuned problem's point failed here", pl, e);
    }
    return rc;
}

/* What a search at the effort asked is: MEASURE's strategy and share
 * unless the caller chose. */
static at_tune_opts search_opts(const at_tune_opts *o)
{
    at_tune_opts with = *o;
    with.effort = effort_of(o);
    if (with.effort == AUTOTUNE_MEASURE) {
        if (!with.strategy)
            with.strategy = AT_MEASURE_STRATEGY;
        if (!with.budget_evals && !with.budget_s && !with.budget_share)
            with.budget_share = AT_MEASURE_SHARE;
    }
    return with;
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
    at_key_fill_partial(&key, dev, p, &l);
    int effort = effort_of(o);
    /* The space's hash only where an entry of the problem exists or a
     * tune will store one: an estimate's miss lists no space. */
    int rc = 0;
    if (effort != AUTOTUNE_ESTIMATE && effort != AUTOTUNE_WISDOM_ONLY)
        rc = 1;
    else if ((rc = at_cache_any(env->cache, &key, e)) < 0)
        return rc;
    if (rc && (rc = at_key_space(&key, p, &l, e)) != 0)
        return rc;
    /* Retuning needs a device: without one the cache is all there is,
     * whatever effort found it. */
    int need = dev ? entry_effort_needed(effort) : 0;
    if (key.space_hash[0] && (!o->retune || !dev) &&
        (rc = lookup(&here, &key, &l, need, pl, e)) != 0)
        return rc < 0 ? rc : 0;
    if (effort == AUTOTUNE_WISDOM_ONLY) {
        char prob[256];
        at_problem_str(p, prob, sizeof prob);
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "AUTOTUNE_WISDOM_ONLY: the "
                       "cache %s holds no entry for %s on %s", at_cache_path(
                       env->cache), prob, dev ? dev->name : "this "
                       "architecture");
    }
    if (effort == AUTOTUNE_ESTIMATE) {
        at_tune_opts with = *o;
        if (!with.cubins && !with.no_cubin_cache)
            with.cubins = env->cubins;
        return estimate(&here, &key, &l, &with, pl, e);
    }
    if (dev) {
        at_tune_opts with = search_opts(o);
        return tune_locked(&here, &key, &l, &with, pl, e);
    }
    return default_point(&here, &l, o, env->no_device ? env->no_device
                         : "no GPU of this architecture", pl, e);
}

void at_plan_free(at_plan *pl)
{
    if (!pl)
        return;
    if (pl->how != AUTOTUNE_HOW_TUNED) /* else the tune's */
        free(pl->cubin);
    at_tuned_free(&pl->tuned);
    pl->cubin = NULL;
}

/* The answer's kernel's name in its cubin (before C++ lowering). */
static const char *cubin_kernel(const at_plan *pl)
{
    return pl->kernel[0] ? pl->kernel : AT_KERNEL_SYMBOL;
}

/* The blocks per SM the answer's cubin fits (its registers and static
 * shared memory, the launch's threads and dynamic shared memory), for the
 * emitted kernel's __launch_bounds__: 0 where the cubin does not say, or
 * the family's template takes no AT_MIN_BLOCKS. */
static int min_blocks(const at_plan *pl, int *regs)
{
    const at_family *f = pl->p.family;
    *regs = 0;
    if (!pl->cubin || !f->template_src ||
        !strstr(f->template_src, "AT_MIN_BLOCKS"))
        return 0;
    const char *k = cubin_kernel(pl);
    *regs = at_elf_kernel_regs(pl->cubin, pl->cubin_size, k);
    if (*regs <= 0)
        return 0;
    char sec[AT_KERNEL_NAME + 16];
    snprintf(sec, sizeof sec, ".nv.shared.%s", k);
    const unsigned char *d;
    size_t smem = 0;
    uint32_t info;
    if (at_elf_section(pl->cubin, pl->cubin_size, sec, &d, &smem, &info) != 1)
        smem = 0;
    at_launch l;
    f->ops.launch(&pl->p, &pl->pt, &l);
    const int threads = (int)(l.block[0] * l.block[1] * l.block[2]);
    const int b = at_occupancy_blocks(pl->sm, threads, *regs, smem + l.smem);
    return b > 1 ? b : 0;
}

void at_plan_provenance(const at_plan *pl, const char *command,
                        at_provenance *pv)
{
    memset(pv, 0, sizeof *pv);
    pv->command = command;
    pv->sm = pl->sm;
    pv->how = pl->how;
    pv->from = pl->from[0] ? pl->from : NULL;
    pv->unchecked = (pl->how == AUTOTUNE_HOW_DEFAULT ||
                     pl->how == AUTOTUNE_HOW_REUSED) && !pl->verified;
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
    pv->min_blocks = min_blocks(pl, &pv->regs);
    /* The build the tune timed, for the file to run (gen/emit_tuned.c),
     * unless its launcher writes state the cubin would not see; by its
     * symbol there, as the file loads it by name (a C++ kernel's is
     * mangled). */
    if (pl->cubin && pl->cubin_size && pl->sm > 0 &&
        !(pl->p.family->caps & AT_CAP_MODULE_STATE) &&
        at_elf_kernel_symbol(pl->cubin, pl->cubin_size, cubin_kernel(pl),
                             pv->cubin_kernel,
                             sizeof pv->cubin_kernel) == 1) {
        pv->cubin = pl->cubin;
        pv->cubin_size = pl->cubin_size;
        pv->cubin_sm = pl->sm;
    } else {
        pv->cubin_kernel[0] = '\0';
    }
}
