#include "runtime/plan/plan.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/sockio.h"
#include "runtime/plan/device_counts.h"
#include "runtime/plan/gpu_worker_wire.h"

extern char **environ;

#ifndef AT_WORKER_DEFAULT
#define AT_WORKER_DEFAULT ""
#endif

static char self_path[1024];

void at_worker_set_path(const char *path)
{
    snprintf(self_path, sizeof self_path, "%s", path ? path : "");
}

const char *at_worker_path(void)
{
    const char *env = getenv("AUTOTUNE_WORKER");
    if (env && *env)
        return strcmp(env, "none") == 0 ? NULL : env;
    if (self_path[0])
        return self_path;
    return AT_WORKER_DEFAULT[0] ? AT_WORKER_DEFAULT : NULL;
}

int at_wire_io(int fd, void *buf, size_t n, int out)
{
    return out ? at_sock_send(fd, buf, n) : at_sock_recv(fd, buf, n, 0);
}

static void fill_request(wire_request *q, const at_plan_env *env,
                         const at_problem *p, const at_tune_opts *o)
{
    memset(q, 0, sizeof *q);
    q->magic = WIRE_MAGIC;
    q->size = sizeof *q;
    snprintf(q->version, sizeof q->version, "%s", AUTOTUNE_VERSION);
    q->device = env->dev->ordinal;
    /* Where this process sees other GPUs, the worker sees its own alone
     * (by its UUID; not for MIG instances, named otherwise). */
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (env->dev->visible > 1 && env->dev->uuid[0] &&
        !(vis && strstr(vis, "MIG"))) {
        snprintf(q->uuid, sizeof q->uuid, "%s", env->dev->uuid);
        q->device = 0;
    }
    q->record = o->record != NULL;
    q->progress = env->progress != NULL;
    snprintf(q->cache, sizeof q->cache, "%s", at_cache_source(env->cache));
    if (env->cubins && !o->no_cubin_cache)
        snprintf(q->cubins, sizeof q->cubins, "%s",
                 at_cubins_path(env->cubins));
    snprintf(q->family, sizeof q->family, "%s", p->family->name);
    /* A family made at run time travels as what it was made from. */
    const at_family_origin *from = &p->family->origin;
    if (*from->text) {
        q->spec_len = strlen(from->text);
        q->source_len = strlen(from->source);
        q->family_hash = at_family_hash(p->family);
        snprintf(q->spec_dir, sizeof q->spec_dir, "%s", from->dir);
    }
    snprintf(q->type, sizeof q->type, "%s", p->type->name);
    at_problem_key_text(p, q->problem, sizeof q->problem);
    q->jobs = o->jobs;
    q->warm_l2 = o->warm_l2;
    q->verify_all = o->verify_all;
    q->no_cubin_cache = o->no_cubin_cache || !env->cubins;
    q->seed = o->seed;
    q->started_s = o->started_s ? o->started_s : at_now_s();
    q->budget_evals = o->budget_evals;
    q->budget_s = o->budget_s;
    q->budget_share = o->budget_share;
    q->effort = o->effort;
    q->compile_limit_s = o->compile_limit_s;
    q->kernel_limit_s = o->kernel_limit_s;
    snprintf(q->strategy, sizeof q->strategy, "%s",
             o->strategy ? o->strategy : "");
    snprintf(q->record_path, sizeof q->record_path, "%s",
             o->record_path ? o->record_path : "");
}

/* Forks and execs the worker with the socket, the record and the
 * progress stream on descriptors 3, 4 and 5, and the environment envp
 * (NULL: this one's). Between fork and exec only async-signal-safe calls:
 * the parent may have threads and CUDA. */
static pid_t start(const char *path, int sock, FILE *record, FILE *progress,
                   char *const *envp)
{
    int rec = record ? fileno(record) : -1;
    int prog = progress ? fileno(progress) : -1;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* Out of the way of the targets first, then onto them. */
    int s = fcntl(sock, F_DUPFD, 10), r = rec >= 0 ? fcntl(rec, F_DUPFD, 10)
                                                   : -1;
    int g = prog >= 0 ? fcntl(prog, F_DUPFD, 10) : -1;
    if (s < 0 || dup2(s, FD_SOCK) < 0 || (r >= 0 && dup2(r, FD_RECORD) < 0) ||
        (g >= 0 && dup2(g, FD_PROGRESS) < 0))
        _exit(126);
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives the tuner */
    if (getppid() != parent)
        _exit(126);
    char *const argv[] = {(char *)path, "__gpu-worker", NULL};
    execve(path, argv, envp ? envp : environ);
    _exit(127);
}

/* Waits for the worker to end (after its reply it only exits; a hung
 * kernel's teardown is the driver's), killing it after grace seconds. */
static void reap(pid_t pid, double grace, char *why, size_t n)
{
    double t0 = at_now_s();
    int status = 0;
    pid_t r;
    while ((r = waitpid(pid, &status, WNOHANG)) == 0) {
        if (at_now_s() - t0 > grace) {
            kill(pid, SIGKILL);
            r = waitpid(pid, &status, 0);
            break;
        }
        usleep(2000);
    }
    if (r != pid)
        snprintf(why, n, "could not be waited for");
    else if (WIFSIGNALED(status))
        snprintf(why, n, "was killed by signal %d", WTERMSIG(status));
    else
        snprintf(why, n, "exited with status %d", WEXITSTATUS(status));
}

/* A worker that has answered well only exits (its context's teardown
 * takes tens of ms): a thread of ours reaps it while the tuner goes on.
 * The next worker of its device starts only once it is gone, so that
 * two contexts of ours never meet on one GPU (an exclusive-process GPU
 * takes one); other devices' workers do not wait (tune-list's devices
 * tune at once). */
static at_device_counts ending = AT_DEVICE_COUNTS_INIT;

typedef struct ended {
    pid_t pid;
    int device;
} ended;

static void *reaper(void *arg)
{
    ended w = *(ended *)arg;
    free(arg);
    char why[96];
    reap(w.pid, 30, why, sizeof why);
    at_device_count_add(&ending, w.device, -1);
    return NULL;
}

static void reap_later(pid_t pid, int device)
{
    ended *w = malloc(sizeof *w);
    if (!w) { /* no memory for a thread's argument: reaped here */
        char why[96];
        reap(pid, 30, why, sizeof why);
        return;
    }
    *w = (ended){pid, device};
    at_device_count_add(&ending, device, 1);
    pthread_t t;
    pthread_attr_t a;
    int ok = pthread_attr_init(&a) == 0;
    if (ok) {
        ok = pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED) == 0 &&
             pthread_create(&t, &a, reaper, w) == 0;
        pthread_attr_destroy(&a);
    }
    if (!ok)
        reaper(w); /* here, as the thread would */
}

/* The worker's environment when it is to see only its GPU (q->uuid set):
 * this one's with CUDA_VISIBLE_DEVICES naming that GPU, *mine its one
 * string of ours (both malloc'd; NULL: no memory, or no need). A worker
 * that sees the host's other GPUs makes its context and tears it down
 * with theirs initialised too, while other devices' workers run on them. */
static char **worker_env(const wire_request *q, char **mine)
{
    *mine = NULL;
    if (!q->uuid[0])
        return NULL;
    size_t n = 0;
    while (environ[n])
        ++n;
    char **v = malloc((n + 2) * sizeof *v);
    if (!v || !(*mine = malloc(80))) {
        free(v);
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (strncmp(environ[i], "CUDA_VISIBLE_DEVICES=", 21) != 0)
            v[k++] = environ[i];
    snprintf(*mine, 80, "CUDA_VISIBLE_DEVICES=%s", q->uuid);
    v[k++] = *mine;
    v[k] = NULL;
    return v;
}

/* The points evaluated so far, over every worker of one tune. */
typedef struct evals {
    at_eval *v;
    size_t n, cap;
    double first_t; /* when this worker told its first outcome (0: not) */
} evals;

static int evals_add(evals *x, const at_eval *ev)
{
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 256;
        at_eval *v = realloc(x->v, cap * sizeof *v);
        if (!v)
            return -1;
        x->v = v;
        x->cap = cap;
    }
    x->v[x->n++] = *ev;
    return 0;
}

/* The worker's messages until its reply: each point's outcome into x,
 * then the reply into r. -1 if the socket ends first. */
static int read_answer(int fd, evals *x, wire_reply *r)
{
    for (;;) {
        uint32_t magic;
        if (at_wire_io(fd, &magic, sizeof magic, 0))
            return -1;
        if (magic == WIRE_EVAL) {
            wire_eval m;
            if (at_wire_io(fd, (char *)&m + sizeof magic,
                           sizeof m - sizeof magic, 0) ||
                evals_add(x, &m.ev))
                return -1;
            if (!x->first_t)
                x->first_t = at_now_s();
            continue;
        }
        r->magic = magic;
        return magic == WIRE_MAGIC
                   ? at_wire_io(fd, (char *)r + sizeof magic,
                                sizeof *r - sizeof magic, 0)
                   : -1;
    }
}

/* One worker, start to end: its reply in *r (cubin malloc'd), or an
 * error saying how it ended without one. The points of x are sent (a
 * resumed tune's), and those it evaluates added. */
static int one_pass(const char *path, const wire_request *q, int ordinal,
                    const at_family *f, FILE *record, FILE *progress,
                    evals *x, wire_reply *r, void **cubin, at_err *e)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return at_fail(e, AUTOTUNE_EIO, "socketpair: %s (GPU worker)",
                       strerror(errno));
    if (record)
        fflush(record);
    if (progress)
        fflush(progress);
    at_device_count_wait(&ending, ordinal, 0);
    char *mine, **envp = worker_env(q, &mine);
    if (q->uuid[0] && !envp) {
        close(sv[0]);
        close(sv[1]);
        return at_fail(e, AUTOTUNE_ENOMEM, "the GPU worker's environment");
    }
    pid_t pid = start(path, sv[1], record, progress, envp);
    free(mine); /* the rest of envp is environ's */
    free(envp);
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        return at_fail(e, AUTOTUNE_EIO, "fork: %s (GPU worker)",
                       strerror(errno));
    }
    *cubin = NULL;
    int bad = at_wire_io(sv[0], (void *)q, sizeof *q, 1) ||
              (q->spec_len &&
               (at_wire_io(sv[0], (void *)f->origin.text, q->spec_len, 1) ||
                at_wire_io(sv[0], (void *)f->origin.source,
                           q->source_len, 1))) ||
              (q->n_prior &&
               at_wire_io(sv[0], x->v, q->n_prior * sizeof *x->v, 1)) ||
              read_answer(sv[0], x, r) || r->magic != WIRE_MAGIC;
    if (!bad && r->cubin_size) {
        *cubin = malloc(r->cubin_size);
        bad = !*cubin || at_wire_io(sv[0], *cubin, r->cubin_size, 0);
    }
    close(sv[0]);
    /* A worker that answered well is reaped on a thread; after a fault
     * the next worker must not meet this one's context (a hung kernel's
     * teardown is the driver's), so wait for it here. */
    if (!bad && r->rc == 0) {
        reap_later(pid, ordinal);
        return 0;
    }
    char why[96];
    /* Without an answer it is ending: a moment to see how. */
    reap(pid, bad ? 2 : 30, why, sizeof why);
    if (!bad)
        return r->rc;
    free(*cubin);
    *cubin = NULL;
    return at_fail(e, AUTOTUNE_EIO, "GPU worker %s (%s) %s without an "
                   "answer%s", path, "autotune __gpu-worker", why,
                   strstr(why, "127") ? ": not an executable autotune; set "
                   "AUTOTUNE_WORKER to the autotune binary" : "");
}

int at_worker_tune(const at_plan_env *env, const at_problem *p,
                   const at_tune_opts *o, at_plan *pl, at_err *e)
{
    wire_request q;
    /* A device opened from the memo: its UUID, to pin the worker to it,
     * and a check that it is as remembered, before anything is tuned. */
    int rc0 = at_device_resolve((at_device *)env->dev, e);
    if (rc0)
        return rc0;
    fill_request(&q, env, p, o);
    wire_reply *r = malloc(sizeof *r);
    if (!r)
        return at_fail(e, AUTOTUNE_ENOMEM, "GPU worker reply");
    int restarts = 0, rc;
    evals x = {0};
    /* A restart's cost: from the fault to the next worker's first new
     * outcome (its process, context, inputs, reference, and one point). */
    double fault_t = 0, worst = 0;
    for (;;) {
        double t0 = at_now_s();
        void *cubin = NULL;
        memset(r, 0, sizeof *r);
        x.first_t = 0;
        /* A restart resumes: every point evaluated so far goes with it
         * (the one that faulted among them), and none is evaluated again;
         * their record rows stay as written. */
        q.n_prior = x.n;
        rc = one_pass(env->worker, &q, env->dev->ordinal, p->family,
                      o->record, env->progress, &x, r, &cubin, e);
        if (fault_t && x.first_t && x.first_t - fault_t > worst)
            worst = x.first_t - fault_t;
        fault_t = rc == AUTOTUNE_EFAULT ? at_now_s() : 0;
        if (rc == AUTOTUNE_EFAULT && restarts < AT_WORKER_RESTARTS) {
            ++restarts;
            if (env->progress)
                fprintf(env->progress, "autotune: %s\nautotune: that "
                        "variant is remembered as failed; a new GPU worker "
                        "goes on from the %zu points evaluated so far "
                        "(restart %d, after %.1f s)\n", r->msg, x.n,
                        restarts, at_now_s() - t0);
            continue;
        }
        if (rc == AUTOTUNE_EFAULT)
            at_fail(e, rc, "%s (and %d variants before it: giving up)",
                    r->msg, restarts);
        else if (rc && r->magic == WIRE_MAGIC)
            at_fail(e, rc, "%s", r->msg);
        if (!rc) {
            *pl = r->plan;
            pl->p = *p;
            pl->cubin = pl->tuned.cubin = cubin;
            pl->cubin_size = pl->tuned.cubin_size = r->cubin_size;
        } else {
            free(cubin);
        }
        break;
    }
    if (restarts && env->progress)
        fprintf(env->progress, "autotune: %d restart%s, each worker's first "
                "new point at most %.2f s after the fault before it\n",
                restarts, restarts > 1 ? "s" : "", worst);
    free(x.v);
    free(r);
    return rc;
}
