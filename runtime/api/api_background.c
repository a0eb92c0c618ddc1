/* Tuning in the background (AUTOTUNE_BACKGROUND): autotune_get_with
 * answers at once with AUTOTUNE_ESTIMATE's kernel and starts a thread
 * that tunes the problem and stores the answer in the cache, as a
 * foreground tune would (through the GPU worker, under the planner's
 * locks: one tune at a time in a process, one per problem across them).
 * autotune_kernel_refresh then swaps the tuned kernel into the handle;
 * any later autotune_get finds it in the cache. */
#include <stdlib.h>
#include <string.h>

#include "runtime/api/api.h"
#include "runtime/plan/plan.h"

struct at_bg {
    autotune_ctx *c;
    at_problem p;
    int effort;
    pthread_t thread;
    int done, rc;
    at_err err;
    at_bg *next;
};

static void *tune(void *arg)
{
    at_bg *b = arg;
    autotune_ctx *c = b->c;
    at_conn *conn = NULL;
    at_err e = {0};
    int rc = at_conn_take(c, &conn, &e);
    if (!rc) {
        at_plan_env env = {.cache = conn->cache, .cubins = conn->cubins,
                           .dev = &c->dev, .progress = c->progress,
                           .worker = at_worker_path()};
        at_tune_opts o = {.progress = c->progress, .effort = b->effort};
        at_plan pl;
        rc = at_plan_get(&env, &b->p, &o, &pl, &e);
        at_plan_free(&pl);
        at_conn_give(c, conn);
    }
    pthread_mutex_lock(&c->mu);
    b->rc = rc;
    b->err = e;
    b->done = 1;
    pthread_cond_broadcast(&c->bg_done);
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

int at_bg_start(autotune_ctx *c, autotune_kernel *k, int effort, at_err *e)
{
    pthread_mutex_lock(&c->mu);
    at_bg *b = c->bg;
    /* One tune per problem: a second ask shares the first's, unless that
     * one failed (then it is tried again). */
    while (b && !(at_problem_equal(&b->p, &k->p) && b->effort >= effort &&
                  !(b->done && b->rc)))
        b = b->next;
    int rc = 0;
    if (!b && (b = calloc(1, sizeof *b)) != NULL) {
        b->c = c;
        b->p = k->p;
        b->effort = effort;
        int err = pthread_create(&b->thread, NULL, tune, b);
        if (err) {
            free(b);
            b = NULL;
            rc = at_fail(e, AUTOTUNE_ENOMEM, "pthread_create (a background "
                         "tune): %s", strerror(err));
        } else {
            b->next = c->bg;
            c->bg = b;
        }
    } else if (!b) {
        rc = at_fail(e, AUTOTUNE_ENOMEM, "a background tune");
    }
    k->bg = b;
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int at_bg_wait_all(autotune_ctx *c, at_err *e)
{
    pthread_mutex_lock(&c->mu);
    at_bg *list = c->bg;
    c->bg = NULL;
    pthread_mutex_unlock(&c->mu);
    int rc = 0;
    for (at_bg *b = list; b; b = b->next) {
        pthread_join(b->thread, NULL);
        if (b->rc && !rc) {
            rc = b->rc;
            *e = b->err;
        }
    }
    /* Put back for the kernels that point at them; freed with c. */
    pthread_mutex_lock(&c->mu);
    if (list) {
        at_bg *tail = list;
        while (tail->next)
            tail = tail->next;
        tail->next = c->bg;
        c->bg = list;
    }
    pthread_mutex_unlock(&c->mu);
    return rc;
}

void at_bg_free_all(autotune_ctx *c)
{
    at_err ignore = {0};
    at_bg_wait_all(c, &ignore);
    while (c->bg) {
        at_bg *b = c->bg;
        c->bg = b->next;
        free(b);
    }
}

int autotune_wait(autotune_ctx *c)
{
    if (!c)
        return AUTOTUNE_EINVALID;
    at_ctx_clear(c);
    at_err e = {0};
    int rc = at_bg_wait_all(c, &e);
    return rc ? at_ctx_fail(c, &e) : 0;
}

/* k takes over n's module, function, workspace, point and figures; its
 * own (and its kernel with every path) go to its list of old ones (freed
 * with k). */
static void take_over(autotune_kernel *k, autotune_kernel *n)
{
    k->old[k->n_old] = k->mod;
    k->old_any[k->n_old] = k->any_mod;
    k->old_ws[k->n_old++] = k->ws;
    k->any_mod = NULL; /* compiled again for the new point if needed */
    k->any_fn = NULL;
    k->mod = n->mod;
    k->fn = n->fn;
    k->ws = n->ws;
    k->ws_bytes = n->ws_bytes;
    k->pt = n->pt;
    k->g = n->g;
    k->args_valid = 0;
    k->fig = n->fig;
    memcpy(k->name, n->name, sizeof k->name);
    n->mod = NULL;
    n->ws = 0;
}

int autotune_kernel_refresh(autotune_kernel *k)
{
    if (!k)
        return AUTOTUNE_EINVALID;
    autotune_ctx *c = k->ctx;
    at_ctx_clear(c);
    pthread_mutex_lock(&c->mu);
    at_bg *b = k->bg;
    int done = b && b->done, rc = b ? b->rc : 0;
    at_err e = b ? b->err : (at_err){0};
    pthread_mutex_unlock(&c->mu);
    if (!done)
        return 0;
    k->bg = NULL;
    if (rc)
        return at_ctx_fail(c, &e);
    if (k->n_old == (int)(sizeof k->old / sizeof k->old[0]))
        return 0; /* refreshed as often as it can be */
    /* The tune stored its answer: the cache has it. */
    autotune_kernel *n = NULL;
    at_tune_opts only = {.progress = c->progress,
                         .effort = AUTOTUNE_WISDOM_ONLY};
    if ((rc = at_ctx_get(c, &k->p, &only, &n)) != 0)
        return rc;
    take_over(k, n);
    autotune_kernel_destroy(n);
    return 1;
}
