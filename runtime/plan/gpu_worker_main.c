/* The GPU worker's side (runtime/plan/plan.h): one request on descriptor 3, one
 * tune, one reply, exit. After a fault or a hang nothing more is asked of
 * CUDA: the failure is recorded, the reply sent, and the process ends,
 * which is what frees the GPU of a kernel that never finishes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/plan/plan.h"
#include "runtime/plan/gpu_worker_wire.h"
#include "spec/spec.h"

/* A family made at run time is made again here from the definition
 * that followed the request, and must be the tuner's. */
static int definition(const wire_request *q, at_err *e)
{
    char *text = malloc(q->spec_len + 1), *src = malloc(q->source_len + 1);
    int rc = 0;
    const at_family *f;
    if (!text || !src || at_wire_io(FD_SOCK, text, q->spec_len, 0) ||
        at_wire_io(FD_SOCK, src, q->source_len, 0))
        rc = at_fail(e, AUTOTUNE_EIO, "GPU worker: the family's definition "
                     "did not arrive");
    if (!rc) {
        text[q->spec_len] = src[q->source_len] = '\0';
        rc = at_spec_family_load_mem(text, q->family,
                                     q->spec_dir[0] ? q->spec_dir : NULL,
                                     src, &f, e);
    }
    if (!rc && at_family_hash(f) != q->family_hash)
        rc = at_fail(e, AUTOTUNE_EINVALID, "GPU worker: family %s is not "
                     "the tuner's", q->family);
    free(text);
    free(src);
    return rc;
}

static int problem(const wire_request *q, at_problem *p, at_err *e)
{
    return at_problem_make(p, q->family, q->type, q->problem, e);
}

/* What a request opened: closed after the reply has gone, so that the
 * tuner does not wait for the context's teardown (tens of ms). */
typedef struct served {
    at_device dev;
    int dev_open;
    at_cache *cache;
    at_cubins *cubins;
} served;

/* Each point's outcome to the tuner as it is known: what a restarted
 * worker resumes from. A failed send is the tuner's end: nothing to do. */
static void send_eval(void *ctx, const at_eval *ev)
{
    (void)ctx;
    wire_eval m;
    memset(&m, 0, sizeof m);
    m.magic = WIRE_EVAL;
    m.ev = *ev;
    at_wire_io(FD_SOCK, &m, sizeof m, 1);
}

/* The points earlier workers of this tune evaluated (q->n_prior of them
 * follow the definition). */
static int read_prior(const wire_request *q, at_eval **prior, at_err *e)
{
    *prior = NULL;
    if (!q->n_prior)
        return 0;
    if (q->n_prior > (1u << 24))
        return at_fail(e, AUTOTUNE_EINVALID, "GPU worker: %llu earlier "
                       "outcomes", (unsigned long long)q->n_prior);
    *prior = malloc(q->n_prior * sizeof **prior);
    if (!*prior ||
        at_wire_io(FD_SOCK, *prior, q->n_prior * sizeof **prior, 0))
        return at_fail(e, AUTOTUNE_EIO, "GPU worker: the earlier outcomes "
                       "did not arrive");
    return 0;
}

/* Opens what the request names (into s) and tunes; *pl the answer. */
static int serve(const wire_request *q, const at_eval *prior, served *s,
                 at_plan *pl, at_err *e)
{
    at_problem p;
    FILE *record = NULL, *progress = NULL;
    int rc = problem(q, &p, e);
    if (!rc)
        rc = at_device_open(&s->dev, q->device, e);
    if (!rc && q->uuid[0] && strcmp(s->dev.uuid, q->uuid) != 0)
        rc = at_fail(e, AUTOTUNE_ENO_DEVICE, "GPU worker: with "
                     "CUDA_VISIBLE_DEVICES=%s it sees device 0 as %s (%s), "
                     "not that GPU", q->uuid, s->dev.name, s->dev.uuid);
    if (rc)
        return rc;
    s->dev_open = 1;
    at_cache *cache = NULL;
    at_cubins *cubins = NULL;
    if (!(rc = at_cache_open(&cache, q->cache, e)) && q->cubins[0])
        rc = at_cubins_open(&cubins, q->cubins, e);
    if (!rc && q->record && !(record = fdopen(FD_RECORD, "w")))
        rc = at_fail(e, AUTOTUNE_EIO, "GPU worker: the record's descriptor");
    if (!rc && q->progress && !(progress = fdopen(FD_PROGRESS, "w")))
        rc = at_fail(e, AUTOTUNE_EIO, "GPU worker: the progress descriptor");
    if (!rc) {
        if (progress)
            setvbuf(progress, NULL, _IOLBF, 0);
        at_plan_env env = {.cache = cache, .cubins = cubins,
                           .dev = &s->dev, .progress = progress};
        at_tune_opts o = {
            .jobs = q->jobs, .seed = q->seed, .progress = progress,
            .strategy = q->strategy[0] ? q->strategy : NULL,
            .budget_evals = q->budget_evals, .budget_s = q->budget_s,
            .budget_share = q->budget_share, .effort = q->effort,
            .compile_limit_s = q->compile_limit_s,
            .kernel_limit_s = q->kernel_limit_s, .warm_l2 = q->warm_l2,
            .verify_all = q->verify_all,
            .no_cubin_cache = q->no_cubin_cache, .record = record,
            .record_path = q->record_path[0] ? q->record_path : NULL,
            .prior = prior, .n_prior = prior ? q->n_prior : 0,
            .started_s = q->started_s,
            .on_eval = send_eval};
        rc = at_plan_tune_here(&env, &p, &o, pl, e);
    }
    if (record)
        fflush(record);
    if (progress)
        fflush(progress);
    s->cache = cache;
    s->cubins = cubins;
    return rc;
}

static void unserve(served *s)
{
    at_cubins_close(s->cubins, NULL);
    at_cache_close(s->cache);
    if (s->dev_open)
        at_device_close(&s->dev);
}

int at_worker_main(void)
{
    wire_request q;
    if (at_wire_io(FD_SOCK, &q, sizeof q, 0) || q.magic != WIRE_MAGIC) {
        fprintf(stderr, "autotune __gpu-worker: no request on descriptor 3 "
                "(this command is the tuner's own, not for use by hand)\n");
        return 2;
    }
    static wire_reply r; /* large: not on the stack */
    memset(&r, 0, sizeof r);
    r.magic = WIRE_MAGIC;
    at_err e = {0};
    served s = {0};
    at_eval *prior = NULL;
    if (q.size != sizeof q || strcmp(q.version, AUTOTUNE_VERSION) != 0) {
        r.rc = at_fail(&e, AUTOTUNE_EINVALID, "GPU worker is autotune %s, "
                       "the tuner %.15s: set AUTOTUNE_WORKER to the autotune "
                       "binary of the same build", AUTOTUNE_VERSION,
                       q.version);
    } else if (q.spec_len >= (64u << 20) || q.source_len >= (64u << 20)) {
        r.rc = at_fail(&e, AUTOTUNE_EINVALID, "GPU worker: a definition of "
                       "more than 64 MiB");
    } else if ((!q.spec_len || !(r.rc = definition(&q, &e))) &&
               !(r.rc = read_prior(&q, &prior, &e))) {
        r.rc = serve(&q, prior, &s, &r.plan, &e);
    }
    free(prior);
    snprintf(r.msg, sizeof r.msg, "%s", e.msg);
    void *cubin = r.plan.cubin;
    r.cubin_size = r.rc || !cubin ? 0 : r.plan.cubin_size;
    r.plan.cubin = r.plan.tuned.cubin = NULL;
    memset(&r.plan.p, 0, sizeof r.plan.p); /* pointers: the parent's own */
    int bad = at_wire_io(FD_SOCK, &r, sizeof r, 1) ||
              (r.cubin_size && at_wire_io(FD_SOCK, cubin, r.cubin_size, 1));
    /* After a fault (the context gone, or busy forever with a hung
     * kernel), end without unwinding anything that might call into the
     * driver. */
    if (r.rc == AUTOTUNE_EFAULT)
        _exit(3);
    at_plan_free(&r.plan);
    free(cubin);
    unserve(&s);
    return bad ? 1 : r.rc ? 1 : 0;
}
