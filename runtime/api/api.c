#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/api.h"
#include "runtime/plan/plan.h"
#include "runtime/driver/driver.h"
#include "runtime/measure/measure.h"

/* autotune_create's failure, for autotune_last_error(NULL); and each
 * thread's last error on a context (several threads may use one). */
static _Thread_local at_err create_err;
static _Thread_local struct {
    const autotune_ctx *ctx;
    at_err err;
} last;

const char *autotune_version(void) { return AUTOTUNE_VERSION; }

int at_ctx_fail(autotune_ctx *c, at_err *e)
{
    if (!c) { /* autotune_last_error(NULL) says it */
        create_err = *e;
        return e->code;
    }
    last.ctx = c;
    last.err = *e;
    pthread_mutex_lock(&c->mu);
    c->err = *e;
    pthread_mutex_unlock(&c->mu);
    return e->code;
}

void at_ctx_clear(autotune_ctx *c)
{
    if (last.ctx == c)
        at_err_clear(&last.err);
}

static int conn_open(const char *path, at_conn *conn, at_err *e)
{
    char cpath[1024];
    int rc = at_cache_open(&conn->cache, path, e);
    if (!rc)
        rc = at_cubins_default_path(path, cpath, sizeof cpath, e);
    if (!rc)
        rc = at_cubins_open(&conn->cubins, cpath, e);
    return rc;
}

static void conn_close(at_conn *conn)
{
    at_cache_close(conn->cache);
    at_cubins_close(conn->cubins, NULL);
    conn->cache = NULL;
    conn->cubins = NULL;
}

int at_conn_take(autotune_ctx *c, at_conn **out, at_err *e)
{
    pthread_mutex_lock(&c->mu);
    at_conn *conn = c->idle;
    if (conn)
        c->idle = conn->next;
    pthread_mutex_unlock(&c->mu);
    if (conn) {
        *out = conn;
        return 0;
    }
    if (!(conn = calloc(1, sizeof *conn)))
        return at_fail(e, AUTOTUNE_ENOMEM, "a cache connection");
    int rc = conn_open(c->cache_path, conn, e);
    if (rc) {
        conn_close(conn);
        free(conn);
        return rc;
    }
    *out = conn;
    return 0;
}

void at_conn_give(autotune_ctx *c, at_conn *conn)
{
    pthread_mutex_lock(&c->mu);
    conn->next = c->idle;
    c->idle = conn;
    pthread_mutex_unlock(&c->mu);
}

int at_ctx_create(autotune_ctx **out, int device, const char *cache_path,
                  const char *device_memo, FILE *progress, at_err *e)
{
    *out = NULL;
    autotune_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return at_fail(e, AUTOTUNE_ENOMEM, "autotune_create");
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->bg_done, NULL);
    int rc = 0;
    if (cache_path && strlen(cache_path) >= sizeof c->cache_path)
        rc = at_fail(e, AUTOTUNE_EIO, "cache path too long (%zu bytes)",
                     strlen(cache_path));
    else if (cache_path)
        snprintf(c->cache_path, sizeof c->cache_path, "%s", cache_path);
    else
        rc = at_cache_default_path(c->cache_path, sizeof c->cache_path, e);
    if (!rc)
        rc = conn_open(c->cache_path, &c->first, e);
    c->cache = c->first.cache;
    c->cubins = c->first.cubins;
    c->idle = &c->first;
    /* The primary context is retained at its first use (at_device_push):
     * a cache hit never creates one; from the host's memo of its GPUs, it
     * never loads the driver either. */
    if (!rc)
        rc = at_device_open_remembered(&c->dev, device, device_memo, e);
    if (rc) {
        autotune_destroy(c);
        return rc;
    }
    c->progress = progress;
    *out = c;
    return 0;
}

int autotune_create(autotune_ctx **out, const autotune_options *o)
{
    at_err e = {0};
    if (!out)
        return AUTOTUNE_EINVALID;
    autotune_options def = {0, NULL, 0, 0};
    if (!o)
        o = &def;
    if (o->effort < 0 || o->effort > AUTOTUNE_WISDOM_ONLY) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_create: effort %d (0 to "
                "%d)", o->effort, AUTOTUNE_WISDOM_ONLY);
        create_err = e;
        return e.code;
    }
    int rc = at_ctx_create(out, o->device, o->cache_path, NULL,
                           o->verbose ? stderr : NULL, &e);
    if (!rc)
        (*out)->effort = o->effort;
    create_err = e;
    return rc;
}

void autotune_destroy(autotune_ctx *c)
{
    if (!c)
        return;
    at_bg_free_all(c);
    while (c->idle) {
        at_conn *conn = c->idle;
        c->idle = conn->next;
        conn_close(conn);
        if (conn != &c->first)
            free(conn);
    }
    /* The pooled host buffers of verifications (page-locked under this
     * context, perhaps): freed before the context may go. */
    at_host_pool_trim();
    at_device_close(&c->dev);
    pthread_cond_destroy(&c->bg_done);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

const char *autotune_last_error(const autotune_ctx *c)
{
    if (!c)
        return create_err.code ? create_err.msg
                               : "no context (autotune_create not called)";
    return last.ctx == c && last.err.code ? last.err.msg : "no error";
}

/* Loads a cubin into the device's context and finds the kernel. */
static int load(autotune_kernel *k, const void *cubin, size_t size,
                const char *kernel, at_err *e)
{
    int rc = at_device_push(&k->ctx->dev, e);
    if (rc)
        return rc;
    CUresult r = at_cu.cuModuleLoadData(&k->mod, cubin);
    if (r != CUDA_SUCCESS)
        rc = at_cu_fail(e, r, "cuModuleLoadData", k->name);
    if (!rc)
        rc = at_module_function(k->mod, cubin, size,
                                kernel[0] ? kernel : AT_KERNEL_SYMBOL,
                                &k->fn, k->name, e);
    if (!rc)
        rc = at_measure_prepare(&k->p, &k->pt, k->fn, k->name, e);
    k->p.family->ops.launch(&k->p, &k->pt, &k->g);
    k->ws_bytes = at_workspace_bytes(&k->p, &k->pt);
    if (!rc && k->ws_bytes) {
        char call[96];
        snprintf(call, sizeof call, "cuMemAlloc(%zu bytes of workspace)",
                 k->ws_bytes);
        rc = at_cu_fail(e, at_cu.cuMemAlloc(&k->ws, k->ws_bytes), call,
                        k->name);
        if (!rc)
            rc = at_cu_fail(e, at_cu.cuMemsetD32(k->ws, 0, k->ws_bytes / 4),
                            "cuMemsetD32(workspace)", k->name);
    }
    at_device_pop();
    return rc;
}

int at_ctx_get(autotune_ctx *c, const at_problem *p, const at_tune_opts *o,
               autotune_kernel **out)
{
    at_err e = {0};
    if (!c || !out)
        return AUTOTUNE_EINVALID;
    at_ctx_clear(c);
    *out = NULL;
    autotune_kernel *k = calloc(1, sizeof *k);
    at_conn *conn = NULL;
    if (!k) {
        at_fail(&e, AUTOTUNE_ENOMEM, "autotune_get");
        return at_ctx_fail(c, &e);
    }
    k->ctx = c;
    k->p = *p;
    k->p.sms = c->dev.sms; /* the launches' device */
    int rc = at_conn_take(c, &conn, &e);
    /* With a device the planner always has a cubin: cached, tuned, or a
     * reused or default point checked here. */
    at_plan pl;
    memset(&pl, 0, sizeof pl);
    if (!rc) {
        at_plan_env env = {.cache = conn->cache, .cubins = conn->cubins,
                           .dev = &c->dev, .progress = c->progress,
                           .worker = at_worker_path()};
        rc = at_plan_get(&env, p, o, &pl, &e);
        at_conn_give(c, conn);
    }
    if (!rc) {
        k->pt = pl.pt;
        k->fig = pl.fig;
        snprintf(k->name, sizeof k->name, "%s", pl.name);
        rc = load(k, pl.cubin, pl.cubin_size, pl.kernel, &e);
    }
    at_plan_free(&pl);
    if (rc) {
        autotune_kernel_destroy(k);
        return at_ctx_fail(c, &e);
    }
    *out = k;
    return 0;
}

/* The effort a background tune searches at: the context's, if it
 * searches, else the whole space. */
static int background_effort(const autotune_ctx *c)
{
    return c->effort == AUTOTUNE_MEASURE ? AUTOTUNE_MEASURE
                                          : AUTOTUNE_EXHAUSTIVE;
}

int autotune_get_with(autotune_ctx *c, const autotune_problem *p,
                      int effort, autotune_kernel **out)
{
    if (!c || !out)
        return AUTOTUNE_EINVALID;
    *out = NULL;
    at_err e = {0};
    int base = effort & ~AUTOTUNE_BACKGROUND;
    int bg = (effort & AUTOTUNE_BACKGROUND) != 0;
    if (base == AUTOTUNE_EFFORT_DEFAULT)
        base = bg ? AUTOTUNE_ESTIMATE : c->effort;
    if (base < 0 || base > AUTOTUNE_WISDOM_ONLY ||
        (bg && base != AUTOTUNE_ESTIMATE)) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_get_with: effort 0x%x (an "
                "AUTOTUNE_EFFORT_*; AUTOTUNE_BACKGROUND goes with "
                "AUTOTUNE_ESTIMATE)", (unsigned)effort);
        return at_ctx_fail(c, &e);
    }
    if (!p) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_get: problem is NULL");
        return at_ctx_fail(c, &e);
    }
    at_problem prob = p->p;
    if (at_problem_finish(&prob, &e))
        return at_ctx_fail(c, &e);
    at_tune_opts o = {.progress = c->progress, .effort = base};
    int rc = at_ctx_get(c, &prob, &o, out);
    if (rc || !bg)
        return rc;
    /* An entry found at the background's effort is its answer already. */
    if ((*out)->fig.how == AUTOTUNE_HOW_CACHED &&
        (*out)->fig.effort >= background_effort(c))
        return 0;
    if ((rc = at_bg_start(c, *out, background_effort(c), &e)) != 0) {
        autotune_kernel_destroy(*out);
        *out = NULL;
        return at_ctx_fail(c, &e);
    }
    return 0;
}

int autotune_get(autotune_ctx *c, const autotune_problem *p,
                 autotune_kernel **out)
{
    return autotune_get_with(c, p, AUTOTUNE_EFFORT_DEFAULT, out);
}

size_t autotune_kernel_workspace_bytes(const autotune_kernel *k)
{
    return k ? k->ws_bytes : 0;
}

const char *autotune_kernel_point(const autotune_kernel *k)
{
    return k ? k->name : "";
}

int autotune_kernel_figures(const autotune_kernel *k, autotune_figures *f)
{
    if (!k || !f)
        return AUTOTUNE_EINVALID;
    *f = k->fig;
    return 0;
}

void autotune_kernel_destroy(autotune_kernel *k)
{
    if (!k)
        return;
    if ((k->mod || k->ws || k->n_old || k->any_mod) &&
        at_device_push(&k->ctx->dev, NULL) == 0) {
        if (k->ws)
            at_cu.cuMemFree(k->ws);
        if (k->mod)
            at_cu.cuModuleUnload(k->mod);
        if (k->any_mod)
            at_cu.cuModuleUnload(k->any_mod);
        for (int i = 0; i < k->n_old; ++i) {
            if (k->old_ws[i])
                at_cu.cuMemFree(k->old_ws[i]);
            if (k->old_any[i])
                at_cu.cuModuleUnload(k->old_any[i]);
            at_cu.cuModuleUnload(k->old[i]);
        }
        at_device_pop();
    }
    free(k);
}
