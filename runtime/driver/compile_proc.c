#include "runtime/driver/compile_proc.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/sockio.h"
#include "runtime/driver/driver.h"

enum { MAGIC = 0x61746370 }; /* "atcp" */

typedef struct request {
    uint32_t magic;
    int32_t sm;
    double limit_s;
    uint32_t variant_len;
    uint64_t src_len;
    char extra[AT_EXTRA_OPTIONS];
} request;

typedef struct response {
    int32_t rc, err_code;
    uint32_t msg_len;
    uint64_t size;
} response;

/* The worker: requests in, cubins or errors out, until end of file. */
static void serve(int fd)
{
    for (;;) {
        request q;
        if (at_sock_recv(fd, &q, sizeof q, 0) || q.magic != MAGIC)
            return;
        char *variant = malloc(q.variant_len + 1);
        char *src = malloc(q.src_len + 1);
        if (!variant || !src || at_sock_recv(fd, variant, q.variant_len, 0) ||
            at_sock_recv(fd, src, q.src_len, 0))
            return;
        variant[q.variant_len] = src[q.src_len] = '\0';
        at_compile_opts o = {q.sm, q.limit_s, ""};
        q.extra[sizeof q.extra - 1] = '\0';
        memcpy(o.extra, q.extra, sizeof o.extra);
        at_err e = {0};
        void *cubin = NULL;
        size_t size = 0;
        response r = {0};
        r.rc = at_compile(src, variant, &o, &cubin, &size, &e);
        r.err_code = e.code;
        r.msg_len = r.rc ? (uint32_t)strlen(e.msg) : 0;
        r.size = r.rc ? 0 : size;
        int bad = at_sock_send(fd, &r, sizeof r) ||
                  at_sock_send(fd, e.msg, r.msg_len) ||
                  (r.size && at_sock_send(fd, cubin, size));
        free(cubin);
        free(variant);
        free(src);
        if (bad)
            return;
    }
}

int at_cproc_spawn(at_cproc *w, at_err *e)
{
    w->pid = 0;
    w->fd = -1;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return at_fail(e, AUTOTUNE_EIO, "socketpair: %s (compile worker)",
                       strerror(errno));
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(sv[0]);
        close(sv[1]);
        return at_fail(e, AUTOTUNE_EIO, "fork: %s (compile worker)",
                       strerror(err));
    }
    if (pid == 0) {
        /* Only its own socket: the other workers' must reach end of file
         * when the pool closes them. */
        int fd = sv[1] == 3 ? 3 : dup2(sv[1], 3);
        if (fd != 3)
            _exit(1);
        close_range(4, ~0U, 0);
        signal(SIGINT, SIG_IGN); /* the parent decides; EOF ends us */
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives the tuner */
        serve(3);
        _exit(0);
    }
    close(sv[1]);
    w->pid = pid;
    w->fd = sv[0];
    return 0;
}

static void reap(at_cproc *w, int kill_it, char *why, size_t n)
{
    int status = 0;
    if (kill_it)
        kill(w->pid, SIGKILL);
    close(w->fd);
    if (waitpid(w->pid, &status, 0) == w->pid && why) {
        if (WIFSIGNALED(status))
            snprintf(why, n, "killed by signal %d", WTERMSIG(status));
        else if (WIFEXITED(status))
            snprintf(why, n, "exited with status %d", WEXITSTATUS(status));
    }
    w->pid = 0;
    w->fd = -1;
}

int at_cproc_compile(at_cproc *w, const char *src, const char *variant,
                     const at_compile_opts *o, void **cubin, size_t *size,
                     at_err *e)
{
    *cubin = NULL;
    request q = {MAGIC, o->sm, o->limit_s, (uint32_t)strlen(variant),
                 strlen(src), ""};
    memcpy(q.extra, o->extra, sizeof q.extra);
    double deadline = o->limit_s > 0 ? at_now_s() + o->limit_s + 5 : 0;
    response r;
    char why[64] = "closed its socket";
    int io = at_sock_send(w->fd, &q, sizeof q) ||
             at_sock_send(w->fd, variant, q.variant_len) ||
             at_sock_send(w->fd, src, q.src_len);
    if (!io)
        io = at_sock_recv(w->fd, &r, sizeof r, deadline);
    char *msg = NULL;
    if (!io && r.rc) {
        msg = calloc(1, (size_t)r.msg_len + 1);
        io = msg ? at_sock_recv(w->fd, msg, r.msg_len, deadline) : -1;
        if (!io) {
            /* The worker's message, as at_compile gave it. */
            at_fail(e, r.rc, "%s", msg);
            free(msg);
            return r.rc;
        }
        free(msg);
    } else if (!io) {
        *cubin = malloc(r.size ? r.size : 1);
        io = *cubin ? at_sock_recv(w->fd, *cubin, r.size, deadline) : -1;
        if (!io) {
            *size = r.size;
            return 0;
        }
        free(*cubin);
        *cubin = NULL;
    }
    pid_t pid = w->pid;
    if (io == -2)
        snprintf(why, sizeof why, "passed the time limit of %g s by 5 s",
                 o->limit_s);
    reap(w, 1, io == -2 ? NULL : why, sizeof why);
    return at_fail(e, AUTOTUNE_ECOMPILE,
                   "compile worker process %d %s [variant %s]; a new worker "
                   "takes the next job", (int)pid, why, variant);
}

void at_cproc_stop(at_cproc *w)
{
    if (w->pid)
        reap(w, 1, NULL, 0); /* a compile in progress is not waited for */
}
