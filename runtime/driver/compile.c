#include "runtime/driver/driver.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "runtime/driver/compile_proc.h"
#include "gen/family.h"

static int nvrtc_fail(at_err *e, nvrtcResult r, const char *call,
                      const char *variant)
{
    return at_fail(e, AUTOTUNE_ENVRTC, "%s: %s (%d) [variant %s]", call,
                   at_nvrtc.nvrtcGetErrorString(r), (int)r, variant);
}

/* First lines of a compile log, on one line, for an error message. */
static void log_head(const char *log, char *out, size_t n)
{
    size_t k = 0;
    int lines = 0;
    for (const char *c = log; *c && k + 1 < n && lines < 4; ++c) {
        if (*c == '\n') {
            ++lines;
            if (k && out[k - 1] != ' ' && k + 3 < n) {
                out[k++] = ' ';
                out[k++] = '|';
                out[k++] = ' ';
            }
        } else {
            out[k++] = *c;
        }
    }
    out[k] = '\0';
}

void at_compile_family_extra(const at_family *f, char *buf, size_t n)
{
    const char *own = f->nvrtc_options;
    const int toolkit = (f->caps & AT_CAP_TOOLKIT_HEADERS) != 0;
    snprintf(buf, n, "%s%s%s", own, toolkit && *own ? " " : "",
             toolkit ? AT_TOOLKIT_OPTION : "");
}

void at_compile_options_text(const at_compile_opts *o, char *buf, size_t n)
{
    snprintf(buf, n, "--gpu-architecture=sm_%d --std=c++17%s%s", o->sm,
             o->extra[0] ? " " : "", o->extra);
}

/* NVRTC's flow callback: 1 cancels the compilation once past the
 * deadline (and stays 1, as NVRTC requires). */
static int past_deadline(void *deadline, void *reserved)
{
    (void)reserved;
    return at_now_s() > *(const double *)deadline;
}

/* <cub/cub.cuh> under NVRTC: CUB's device-side headers (its block, warp
 * and thread primitives and iterators), as CUB supports NVRTC; the rest
 * of cub.cuh is host code (device-wide dispatch) that NVRTC refuses. The
 * emitted .cu, built with nvcc, includes the real one. */
static const char cub_shim[] =
    "#pragma once\n"
    "#include <cub/config.cuh>\n"
    "#include <cub/block/block_adjacent_difference.cuh>\n"
    "#include <cub/block/block_discontinuity.cuh>\n"
    "#include <cub/block/block_exchange.cuh>\n"
    "#include <cub/block/block_histogram.cuh>\n"
    "#include <cub/block/block_load.cuh>\n"
    "#include <cub/block/block_merge_sort.cuh>\n"
    "#include <cub/block/block_radix_rank.cuh>\n"
    "#include <cub/block/block_radix_sort.cuh>\n"
    "#include <cub/block/block_reduce.cuh>\n"
    "#include <cub/block/block_scan.cuh>\n"
    "#include <cub/block/block_store.cuh>\n"
    "#include <cub/thread/thread_load.cuh>\n"
    "#include <cub/thread/thread_operators.cuh>\n"
    "#include <cub/thread/thread_reduce.cuh>\n"
    "#include <cub/thread/thread_scan.cuh>\n"
    "#include <cub/thread/thread_store.cuh>\n"
    "#include <cub/warp/warp_exchange.cuh>\n"
    "#include <cub/warp/warp_load.cuh>\n"
    "#include <cub/warp/warp_merge_sort.cuh>\n"
    "#include <cub/warp/warp_reduce.cuh>\n"
    "#include <cub/warp/warp_scan.cuh>\n"
    "#include <cub/warp/warp_store.cuh>\n"
    "#include <cub/util_ptx.cuh>\n"
    "#include <cub/util_type.cuh>\n";

/* Options asked of the toolkit's headers (AT_TOOLKIT_OPTION): its include
 * folders, after the caller's own. */
static int toolkit_options(const char **opts, int *n, char inc[][4200],
                           const char *variant, at_err *e)
{
    const char *dir = at_nvrtc_include_dir();
    if (!dir)
        return at_fail(e, AUTOTUNE_ENVRTC, "the CUDA toolkit's headers were "
                       "not found beside NVRTC, in $CUDA_HOME/include or "
                       "/usr/local/cuda/include [variant %s]", variant);
    snprintf(inc[0], sizeof inc[0], "--include-path=%s/cccl", dir);
    snprintf(inc[1], sizeof inc[1], "--include-path=%s", dir);
    opts[(*n)++] = inc[0];
    opts[(*n)++] = inc[1];
    return 0;
}

int at_compile(const char *src, const char *variant, const at_compile_opts *o,
               void **cubin, size_t *size, at_err *e)
{
    int rc = at_nvrtc_load(e);
    if (rc)
        return rc;
    nvrtcProgram prog;
    const int toolkit = strstr(o->extra, AT_TOOLKIT_OPTION) != NULL;
    const char *hdr = cub_shim, *hdr_name = "cub/cub.cuh";
    nvrtcResult r = at_nvrtc.nvrtcCreateProgram(&prog, src, "variant.cu",
                                                toolkit, &hdr, &hdr_name);
    if (r != NVRTC_SUCCESS)
        return nvrtc_fail(e, r, "nvrtcCreateProgram", variant);
    double deadline = at_now_s() + o->limit_s;
    if (o->limit_s > 0 && !at_nvrtc.nvrtcSetFlowCallback) {
        at_nvrtc.nvrtcDestroyProgram(&prog);
        return at_fail(e, AUTOTUNE_ENVRTC, "NVRTC %s lacks "
                       "nvrtcSetFlowCallback, which a compile time limit "
                       "needs (NVRTC 12.8 or later) [variant %s]",
                       at_nvrtc_version_str(), variant);
    }
    if (o->limit_s > 0 &&
        (r = at_nvrtc.nvrtcSetFlowCallback(prog, past_deadline,
                                           &deadline)) != NVRTC_SUCCESS) {
        at_nvrtc.nvrtcDestroyProgram(&prog);
        return nvrtc_fail(e, r, "nvrtcSetFlowCallback", variant);
    }
    char arch[48], extra[AT_EXTRA_OPTIONS], inc[2][4200];
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d", o->sm);
    snprintf(extra, sizeof extra, "%s", o->extra);
    const char *opts[4 + AT_MAX_EXTRA_ARGS] = {arch, "--std=c++17"};
    int n_opts = 2;
    char *save = NULL;
    for (char *t = strtok_r(extra, " ", &save);
         t && n_opts < 2 + AT_MAX_EXTRA_ARGS; t = strtok_r(NULL, " ", &save))
        if (strcmp(t, AT_TOOLKIT_OPTION) != 0)
            opts[n_opts++] = t;
    if (toolkit && (rc = toolkit_options(opts, &n_opts, inc, variant, e))) {
        at_nvrtc.nvrtcDestroyProgram(&prog);
        return rc;
    }
    r = at_nvrtc.nvrtcCompileProgram(prog, n_opts, opts);
    if (r == NVRTC_ERROR_CANCELLED) {
        at_nvrtc.nvrtcDestroyProgram(&prog);
        return at_fail(e, AUTOTUNE_ECOMPILE,
                       "nvrtcCompileProgram: NVRTC_ERROR_CANCELLED (%d) "
                       "[variant %s]: past the compile time limit of %g s",
                       (int)r, variant, o->limit_s);
    }
    if (r == NVRTC_ERROR_COMPILATION) {
        size_t n = 0;
        char head[600] = "(no log)";
        if (at_nvrtc.nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS &&
            n > 1) {
            char *log = malloc(n);
            if (log && at_nvrtc.nvrtcGetProgramLog(prog, log) ==
                           NVRTC_SUCCESS)
                log_head(log, head, sizeof head);
            free(log);
        }
        at_nvrtc.nvrtcDestroyProgram(&prog);
        return at_fail(e, AUTOTUNE_ECOMPILE,
                       "nvrtcCompileProgram: NVRTC_ERROR_COMPILATION (%d) "
                       "[variant %s]: %s",
                       (int)r, variant, head);
    }
    if (r != NVRTC_SUCCESS) {
        at_nvrtc.nvrtcDestroyProgram(&prog);
        return nvrtc_fail(e, r, "nvrtcCompileProgram", variant);
    }
    r = at_nvrtc.nvrtcGetCUBINSize(prog, size);
    if (r != NVRTC_SUCCESS) {
        at_nvrtc.nvrtcDestroyProgram(&prog);
        return nvrtc_fail(e, r, "nvrtcGetCUBINSize", variant);
    }
    *cubin = malloc(*size);
    if (!*cubin) {
        at_nvrtc.nvrtcDestroyProgram(&prog);
        return at_fail(e, AUTOTUNE_ENOMEM, "cubin of %zu bytes [variant %s]",
                       *size, variant);
    }
    r = at_nvrtc.nvrtcGetCUBIN(prog, *cubin);
    at_nvrtc.nvrtcDestroyProgram(&prog);
    if (r != NVRTC_SUCCESS) {
        free(*cubin);
        *cubin = NULL;
        return nvrtc_fail(e, r, "nvrtcGetCUBIN", variant);
    }
    return 0;
}

enum { MAX_THREADS = 256 };

typedef struct slot {
    struct at_pool *pool;
    at_cproc proc; /* its worker process; pid 0: to be forked again */
    int running;   /* a job is being compiled (under the pool's lock) */
} slot;

struct at_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    at_job *head, *tail;
    int stop, n;
    pthread_t threads[MAX_THREADS];
    slot slots[MAX_THREADS];
};

static void *worker(void *arg)
{
    slot *me = arg;
    at_pool *p = me->pool;
    at_slot shared;
    at_slot_open(&shared);
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->head && !p->stop)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->stop)
            break;
        at_job *j = p->head;
        p->head = j->next;
        if (!p->head)
            p->tail = NULL;
        me->running = 1;
        pthread_mutex_unlock(&p->mu);

        at_slot_take(&shared, (int)(me - p->slots) + getpid());
        double t0 = at_now_s();
        at_err_clear(&j->err);
        if (!me->proc.pid && at_cproc_spawn(&me->proc, &j->err))
            j->rc = j->err.code; /* says why, naming no variant */
        else
            j->rc = at_cproc_compile(&me->proc, j->src, j->variant,
                                     &j->opts, &j->cubin, &j->size, &j->err);
        j->ms = (at_now_s() - t0) * 1e3;
        at_slot_give(&shared);

        pthread_mutex_lock(&p->mu);
        me->running = 0;
        j->done = 1;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    at_slot_close(&shared);
    return NULL;
}

int at_pool_default_workers(void)
{
    /* Every core: the thread that times on the GPU mostly waits on
     * events, and a sample's launches are queued before it is timed. */
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n <= 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

int at_pool_create(at_pool **out, int threads, at_err *e)
{
    int rc = at_nvrtc_load(e); /* loaded once, before the workers fork */
    if (rc)
        return rc;
    if (threads <= 0)
        threads = at_pool_default_workers();
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    at_pool *p = calloc(1, sizeof *p);
    if (!p)
        return at_fail(e, AUTOTUNE_ENOMEM, "compile pool");
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    /* The processes first, while this process has no compile threads. */
    for (int i = 0; i < threads; ++i) {
        p->slots[i].pool = p;
        if ((rc = at_cproc_spawn(&p->slots[i].proc, e))) {
            for (int k = 0; k < i; ++k)
                at_cproc_stop(&p->slots[k].proc);
            free(p);
            return rc;
        }
    }
    for (int i = 0; i < threads; ++i) {
        p->slots[i].pool = p;
        rc = pthread_create(&p->threads[i], NULL, worker, &p->slots[i]);
        if (rc) {
            at_pool_destroy(p);
            return at_fail(e, AUTOTUNE_ENOMEM,
                           "pthread_create: error %d starting compile thread "
                           "%d of %d",
                           rc, i + 1, threads);
        }
        p->n = i + 1;
    }
    *out = p;
    return 0;
}

int at_pool_workers(const at_pool *p) { return p->n; }

int at_pool_idle(at_pool *p)
{
    pthread_mutex_lock(&p->mu);
    int idle = 0;
    for (int i = 0; i < p->n && !p->head; ++i)
        idle += !p->slots[i].running;
    pthread_mutex_unlock(&p->mu);
    return idle;
}

int at_pool_worker_pid(at_pool *p, int i)
{
    pthread_mutex_lock(&p->mu);
    int pid = i >= 0 && i < p->n ? (int)p->slots[i].proc.pid : 0;
    pthread_mutex_unlock(&p->mu);
    return pid;
}

void at_pool_submit(at_pool *p, at_job *j)
{
    pthread_mutex_lock(&p->mu);
    j->done = 0;
    j->next = NULL;
    if (p->tail)
        p->tail->next = j;
    else
        p->head = j;
    p->tail = j;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

void at_pool_wait(at_pool *p, at_job *j)
{
    pthread_mutex_lock(&p->mu);
    while (!j->done)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static void drop_queued(at_pool *p)
{
    for (at_job *j = p->head; j; j = j->next) {
        j->done = 1;
        j->rc = at_fail(&j->err, AUTOTUNE_EINVALID, "compile pool stopped "
                        "before [variant %s] was compiled", j->variant);
    }
    p->head = p->tail = NULL;
    pthread_cond_broadcast(&p->done);
}

void at_pool_cancel(at_pool *p)
{
    pthread_mutex_lock(&p->mu);
    drop_queued(p);
    pthread_mutex_unlock(&p->mu);
}

void at_pool_destroy(at_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    drop_queued(p);
    /* Nobody waits for what still compiles (a leader compiled alone
     * ahead, tune_alone.c): its worker process is killed, so the job
     * fails at once instead of holding up the end. */
    for (int i = 0; i < p->n; ++i)
        if (p->slots[i].running && p->slots[i].proc.pid > 0)
            kill(p->slots[i].proc.pid, SIGKILL);
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n; ++i)
        pthread_join(p->threads[i], NULL);
    for (int i = 0; i < MAX_THREADS; ++i)
        at_cproc_stop(&p->slots[i].proc);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p);
}

void at_job_release(at_job *j)
{
    free(j->src);
    free(j->cubin);
    j->src = NULL;
    j->cubin = NULL;
}
