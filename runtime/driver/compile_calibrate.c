/* A host's NVRTC speed (`autotune bench tune`, issue 36): one fixed program
 * compiled by procs processes at once, each compiling it `each` times; the
 * children's CPU time (getrusage) and the wall. NVRTC's CPU time for the
 * same compiles differs between leases of one GPU model by up to 1.6x, and
 * grows when every core compiles at once (cores that share a physical
 * one): one at a time and all at once tell those apart. */
#include "runtime/driver/driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"

static double children_cpu_s(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_CHILDREN, &u) != 0)
        return 0;
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 +
           (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
}

/* A child: `each` compiles, exit status 0 if all succeeded. */
static void compile_child(const char *src, const at_compile_opts *o, int each)
{
    for (int k = 0; k < each; ++k) {
        void *cubin = NULL;
        size_t size = 0;
        at_err e = {0};
        if (at_compile(src, "calibration", o, &cubin, &size, &e))
            _exit(1);
        free(cubin);
    }
    _exit(0);
}

int at_compile_calibrate(const char *src, int sm, int procs, int each,
                         at_calibration *c, at_err *e)
{
    memset(c, 0, sizeof *c);
    if (procs < 1 || each < 1)
        return at_fail(e, AUTOTUNE_EINVALID, "calibration: %d processes of "
                       "%d compiles", procs, each);
    /* In this process first: an error is said here, with NVRTC's log, and
     * the library is loaded before the children fork. */
    at_compile_opts o = {.sm = sm};
    void *cubin = NULL;
    size_t size = 0;
    int rc = at_compile(src, "calibration", &o, &cubin, &size, e);
    if (rc)
        return rc;
    free(cubin);
    pid_t *pids = calloc((size_t)procs, sizeof *pids);
    if (!pids)
        return at_fail(e, AUTOTUNE_ENOMEM, "calibration: %d processes",
                       procs);
    double cpu0 = children_cpu_s(), t0 = at_now_s();
    int started = 0, failed = 0;
    fflush(NULL); /* nothing buffered is written twice */
    for (; started < procs; ++started) {
        pid_t pid = fork();
        if (pid < 0) {
            rc = at_fail(e, AUTOTUNE_EIO, "fork: %s (calibration)",
                         strerror(errno));
            break;
        }
        if (pid == 0)
            compile_child(src, &o, each);
        pids[started] = pid;
    }
    /* Its own children only: the caller may have others. */
    for (int k = 0; k < started; ++k) {
        int status = 0;
        pid_t w;
        while ((w = waitpid(pids[k], &status, 0)) < 0 && errno == EINTR)
            ;
        failed += w != pids[k] || !WIFEXITED(status) ||
                  WEXITSTATUS(status) != 0;
    }
    free(pids);
    if (rc)
        return rc;
    if (failed)
        return at_fail(e, AUTOTUNE_ECOMPILE, "calibration: %d of %d "
                       "processes failed a compile that passed alone",
                       failed, procs);
    c->procs = procs;
    c->compiles = procs * each;
    c->wall_s = at_now_s() - t0;
    c->cpu_s = children_cpu_s() - cpu0;
    return 0;
}
