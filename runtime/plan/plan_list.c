/* A list of problems on every device asked for (plan.h): a thread a
 * device, taking the next problem of its GPU model from the list (or,
 * with a PostgreSQL store, from the jobs every host of the list shares),
 * each answered as at_plan_get answers it. */
#include "runtime/plan/plan.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"

typedef struct list_run {
    const at_list_env *env;
    const at_tune_opts *o;
    const at_problem *ps;
    int n, n_models, share;
    at_list_result *res;   /* n x n_models */
    char *claimed;         /* the same: taken here (a local list) */
    int *running;          /* each device's problem now (-1: none) */
    int answered;
    pthread_mutex_t mu;
    char owner[64];        /* a shared list's jobs: this host and process */
    at_cache *cache;       /* opened first: what the devices open again */
    const char *source;    /* its source (a store's URI, or the file it
                            * fell back to) */
    int stop;              /* the lease keeper's */
    pthread_cond_t stopped;
} list_run;

typedef struct dev_run {
    list_run *r;
    int index;             /* in the list's devices */
    int ordinal, model, leader; /* leader: its model's first device */
    at_device dev;
    at_cache *cache;
    at_cubins *cubins;
    at_jobs *jobs;
    char (*ids)[17];       /* each problem's job on this model */
    int rc;
    at_err err;
} dev_run;

static double lease_of(const list_run *r)
{
    return r->env->lease_s > 0 ? r->env->lease_s : 60.0;
}

/* The device's connections, and its model's key of each problem. */
static int dev_open(dev_run *d, at_err *e)
{
    list_run *r = d->r;
    char cpath[1024];
    int rc = at_cache_open(&d->cache, r->source, e);
    if (!rc)
        rc = at_cubins_default_path(r->env->cache_path, cpath, sizeof cpath,
                                    e);
    if (!rc)
        rc = at_cubins_open(&d->cubins, cpath, e);
    if (!rc && !(d->ids = calloc((size_t)r->n, sizeof *d->ids)))
        rc = at_fail(e, AUTOTUNE_ENOMEM, "the list's keys");
    if (rc || !r->share)
        return rc;
    if ((rc = at_jobs_open(&d->jobs, d->cache, r->owner, lease_of(r), e)))
        return rc;
    at_limits l = at_device_limits(&d->dev);
    for (int i = 0; !rc && i < r->n; ++i) {
        at_key k;
        char prob[512];
        at_problem_str(&r->ps[i], prob, sizeof prob);
        if (!(rc = at_key_fill(&k, &d->dev, &r->ps[i], &l, e)))
            rc = at_jobs_add(d->jobs, &k, prob, d->ids[i], e);
    }
    return rc;
}

static void dev_close(dev_run *d)
{
    at_jobs_close(d->jobs);
    if (d->cubins)
        at_cubins_close(d->cubins, NULL);
    at_cache_close(d->cache);
    free(d->ids);
}

/* Whether another device is tuning a problem of p's family and type
 * now: its compiled variants will soon be in the cache, so p waits. */
static int kin_running(const list_run *r, const dev_run *d,
                       const at_problem *p)
{
    for (int k = 0; k < r->env->n_devices; ++k) {
        int i = r->running[k];
        if (k != d->index && i >= 0 && r->ps[i].family == p->family &&
            r->ps[i].type == p->type)
            return 1;
    }
    return 0;
}

/* The next problem for d's model: 1 (*i), 0 none now, < 0 error. A
 * local list's next is the first whose kin no other device is tuning
 * (else the first), so that two devices seldom compile one space. */
static int take(dev_run *d, int *i, at_err *e)
{
    list_run *r = d->r;
    if (r->share) {
        int tries;
        return at_jobs_take(d->jobs, d->ids, r->n, i, &tries, e);
    }
    pthread_mutex_lock(&r->mu);
    int first = -1;
    *i = -1;
    for (int k = 0; k < r->n && *i < 0; ++k) {
        if (r->claimed[k * r->n_models + d->model])
            continue;
        if (first < 0)
            first = k;
        if (!kin_running(r, d, &r->ps[k]))
            *i = k;
    }
    *i = *i >= 0 ? *i : first;
    if (*i >= 0)
        r->claimed[*i * r->n_models + d->model] = 1;
    r->running[d->index] = *i;
    pthread_mutex_unlock(&r->mu);
    return *i >= 0;
}

static void say(list_run *r, const at_list_result *x, const char *prob)
{
    FILE *f = r->env->progress;
    if (!f)
        return;
    char gpu[16] = "store";
    if (x->device >= 0)
        snprintf(gpu, sizeof gpu, "gpu%d", x->device);
    fprintf(f, "autotune: [%d/%d] %s %s: ", r->answered, r->n * r->n_models,
            gpu, prob);
    if (x->rc)
        fprintf(f, "failed: %s\n", x->msg);
    else if (x->how == AUTOTUNE_HOW_TUNED)
        fprintf(f, "tuned in %.2f s (%zu points, %zu compiled; the tune "
                "%.2f s, %.2f s of it on the GPU), %s, %.1f%% of the "
                "copy\n", x->seconds, x->evaluated, x->compiled, x->tune_s,
                x->gpu_s, x->point, 100 * x->frac_copy);
    else
        fprintf(f, "from the cache%s, %s, %.1f%% of the copy\n",
                x->device < 0 ? " (tuned by another host)" : "", x->point,
                100 * x->frac_copy);
    fflush(f);
}

/* Answers problem i on d (from another host's entry when by_other),
 * into its result, and ends its job. */
static int answer(dev_run *d, int i, int by_other, at_err *e)
{
    list_run *r = d->r;
    /* The devices' tunes at once: no tune's progress (their lines would
     * interleave), a line a problem here instead. */
    at_plan_env env = {.cache = d->cache, .cubins = d->cubins,
                       .dev = &d->dev, .worker = at_worker_path()};
    at_tune_opts o = *r->o;
    o.progress = NULL;
    o.cubins = NULL;
    if (by_other)
        o.effort = AUTOTUNE_WISDOM_ONLY;
    at_plan pl;
    at_err why = {0};
    double t0 = at_now_s();
    int rc = at_plan_get(&env, &r->ps[i], &o, &pl, &why);
    at_list_result *x = &r->res[i * r->n_models + d->model];
    x->device = by_other ? -1 : d->ordinal;
    x->seconds = at_now_s() - t0;
    x->rc = rc;
    snprintf(x->msg, sizeof x->msg, "%s", rc ? why.msg : "");
    if (!rc) {
        x->how = by_other ? AUTOTUNE_HOW_CACHED : pl.how;
        snprintf(x->point, sizeof x->point, "%s", pl.name);
        x->frac_copy = pl.fig.frac_copy;
        x->median_ms = pl.fig.median_ms;
        if (pl.how == AUTOTUNE_HOW_TUNED) {
            x->evaluated = pl.tuned.evaluated;
            x->tune_s = pl.tuned.seconds;
            x->gpu_s = pl.tuned.gpu_s;
            x->compiled = pl.tuned.compiled - pl.tuned.cached;
        }
        at_plan_free(&pl);
    }
    char prob[512];
    at_problem_str(&r->ps[i], prob, sizeof prob);
    pthread_mutex_lock(&r->mu);
    ++r->answered;
    say(r, x, prob);
    pthread_mutex_unlock(&r->mu);
    if (r->share && !by_other)
        return at_jobs_finish(d->jobs, d->ids[i], rc ? why.msg : NULL, e);
    return 0;
}

/* A shared list: the other hosts' jobs of d's model waited for (one
 * whose host's lease runs out is taken here), then, by the model's
 * first device, their answers read from the store. */
static int wait_for_hosts(dev_run *d, at_err *e)
{
    list_run *r = d->r;
    int *st = calloc((size_t)r->n, sizeof *st), rc = 0, left = 1, i;
    char (*err)[320] = calloc((size_t)r->n, sizeof *err);
    char (*owner)[64] = calloc((size_t)r->n, sizeof *owner);
    if (!st || !err || !owner)
        rc = at_fail(e, AUTOTUNE_ENOMEM, "the list's jobs");
    while (!rc && left) {
        int got = take(d, &i, e);
        if (got > 0) {
            rc = answer(d, i, 0, e);
            continue;
        }
        if (got < 0 || (rc = at_jobs_states(d->jobs, d->ids, r->n, st, owner,
                                            err, e)))
            rc = got < 0 ? got : rc;
        left = 0;
        for (int k = 0; !rc && k < r->n; ++k)
            left += st[k] == AT_JOB_QUEUED || st[k] == AT_JOB_RUNNING;
        if (!rc && left)
            usleep(250 * 1000);
    }
    for (i = 0; !rc && d->leader && i < r->n; ++i) {
        at_list_result *x = &r->res[i * r->n_models + d->model];
        if (x->device != -2) /* answered here */
            continue;
        if (st[i] == AT_JOB_DONE) {
            rc = answer(d, i, 1, e);
            continue;
        }
        x->device = -1;
        x->rc = AUTOTUNE_ENOT_FOUND;
        snprintf(x->msg, sizeof x->msg, "failed on %s: %s", owner[i],
                 st[i] == AT_JOB_FAILED ? err[i] : "no job in the store");
    }
    free(st);
    free(err);
    free(owner);
    return rc;
}

static void *dev_main(void *arg)
{
    dev_run *d = arg;
    int rc = dev_open(d, &d->err), i;
    while (!rc) {
        int got = take(d, &i, &d->err);
        if (got <= 0) {
            rc = got;
            break;
        }
        rc = answer(d, i, 0, &d->err);
    }
    if (!rc && d->r->share)
        rc = wait_for_hosts(d, &d->err);
    d->rc = rc;
    dev_close(d);
    return NULL;
}

/* A shared list's leases, renewed while the devices work. */
static void *lease_keeper(void *arg)
{
    list_run *r = arg;
    at_cache *c = NULL;
    at_jobs *j = NULL;
    at_err e = {0};
    double every = lease_of(r) / 4;
    if (at_cache_open(&c, r->source, &e) ||
        at_jobs_open(&j, c, r->owner, lease_of(r), &e)) {
        if (r->env->progress)
            fprintf(r->env->progress, "autotune: the list's leases cannot "
                    "be renewed (%s); a job longer than %.0f s may be "
                    "taken again by another host\n", e.msg, lease_of(r));
    }
    pthread_mutex_lock(&r->mu);
    while (!r->stop) {
        uint64_t ns = at_wall_ns() + (uint64_t)(every * 1e9);
        struct timespec until = {(time_t)(ns / 1000000000u),
                                 (long)(ns % 1000000000u)};
        pthread_cond_timedwait(&r->stopped, &r->mu, &until);
        if (!r->stop && j) {
            pthread_mutex_unlock(&r->mu);
            at_jobs_renew(j, &e); /* a lost renewal: the next one tries */
            pthread_mutex_lock(&r->mu);
        }
    }
    pthread_mutex_unlock(&r->mu);
    at_jobs_close(j);
    at_cache_close(c);
    return NULL;
}

/* The devices opened (no context: their GPU workers make those) and
 * each one's model: devices of one name, SM count and architecture
 * share. */
static int open_devices(const at_list_env *env, dev_run *d, list_run *r,
                        at_err *e)
{
    for (int k = 0; k < env->n_devices; ++k) {
        for (int m = 0; m < k; ++m)
            if (env->devices[m] == env->devices[k])
                return at_fail(e, AUTOTUNE_EINVALID, "device %d is listed "
                               "twice", env->devices[k]);
        d[k].r = r;
        d[k].index = k;
        d[k].ordinal = env->devices[k];
        int rc = at_device_open(&d[k].dev, env->devices[k], e);
        if (rc)
            return rc;
        d[k].model = -1;
        for (int m = 0; m < k && d[k].model < 0; ++m)
            if (strcmp(d[m].dev.name, d[k].dev.name) == 0 &&
                d[m].dev.sms == d[k].dev.sms && d[m].dev.sm == d[k].dev.sm)
                d[k].model = d[m].model;
        if (d[k].model < 0) {
            d[k].model = r->n_models++;
            d[k].leader = 1;
        }
    }
    return 0;
}

static int start_run(const at_list_env *env, list_run *r, dev_run *d,
                     at_err *e)
{
    /* The cache once here: a store that falls back to the local file
     * says so once, and the devices open that file. */
    int rc = at_cache_open(&r->cache, env->cache_path, e);
    if (!rc) {
        r->source = at_cache_source(r->cache);
        r->share = at_cache_is_store(r->source);
        rc = open_devices(env, d, r, e);
    }
    size_t cells = (size_t)r->n * (size_t)(r->n_models ? r->n_models : 1);
    if (!rc && (!(r->res = calloc(cells, sizeof *r->res)) ||
                !(r->claimed = calloc(cells, 1)) ||
                !(r->running = malloc((size_t)env->n_devices *
                                      sizeof *r->running))))
        rc = at_fail(e, AUTOTUNE_ENOMEM, "the list's answers");
    for (int k = 0; !rc && k < env->n_devices; ++k)
        r->running[k] = -1;
    for (size_t c = 0; !rc && c < cells; ++c) {
        at_list_result *x = &r->res[c];
        x->item = (int)(c / (size_t)r->n_models);
        x->model = (int)(c % (size_t)r->n_models);
        x->device = -2; /* not answered */
        for (int k = 0; k < env->n_devices; ++k)
            if (d[k].leader && d[k].model == x->model)
                snprintf(x->gpu, sizeof x->gpu, "%s", d[k].dev.name);
    }
    /* One compile slot a core for every GPU worker of the list. */
    if (!rc && env->n_devices > 1) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        rc = at_slots_share(r->o->jobs > 0 ? r->o->jobs
                                           : cores > 0 ? (int)cores : 1, e);
    }
    if (!rc && r->share) {
        char host[48] = "";
        gethostname(host, sizeof host - 1);
        snprintf(r->owner, sizeof r->owner, "%s:%ld", host, (long)getpid());
    }
    return rc;
}

int at_plan_list(const at_list_env *env, const at_problem *ps, int n,
                 const at_tune_opts *o, at_list_result **out, int *n_models,
                 at_err *e)
{
    *out = NULL;
    *n_models = 0;
    list_run r = {.env = env, .o = o, .ps = ps, .n = n};
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.stopped, NULL);
    dev_run *d = calloc((size_t)env->n_devices, sizeof *d);
    int rc = d ? start_run(env, &r, d, e)
               : at_fail(e, AUTOTUNE_ENOMEM, "the list's devices");
    pthread_t keeper, *th = d ? calloc((size_t)env->n_devices, sizeof *th)
                              : NULL;
    int started = 0, keeping = 0;
    if (!rc && !th)
        rc = at_fail(e, AUTOTUNE_ENOMEM, "the list's threads");
    if (!rc && r.share)
        keeping = pthread_create(&keeper, NULL, lease_keeper, &r) == 0;
    for (; !rc && started < env->n_devices; ++started)
        if (pthread_create(&th[started], NULL, dev_main, &d[started]) != 0)
            rc = at_fail(e, AUTOTUNE_ENOMEM, "pthread_create: device %d's "
                         "thread", d[started].ordinal);
    for (int k = 0; k < started; ++k) {
        pthread_join(th[k], NULL);
        if (!rc && d[k].rc) { /* the first device's failure */
            *e = d[k].err;
            rc = d[k].rc;
        }
    }
    if (keeping) {
        pthread_mutex_lock(&r.mu);
        r.stop = 1;
        pthread_cond_signal(&r.stopped);
        pthread_mutex_unlock(&r.mu);
        pthread_join(keeper, NULL);
    }
    for (int k = 0; d && k < env->n_devices; ++k)
        at_device_close(&d[k].dev);
    free(th);
    free(d);
    free(r.claimed);
    free(r.running);
    at_cache_close(r.cache);
    pthread_cond_destroy(&r.stopped);
    pthread_mutex_destroy(&r.mu);
    *out = r.res;
    *n_models = r.n_models;
    return rc;
}
