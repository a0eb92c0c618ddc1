/* The GPU `autotune bench tune` measures on, looked up in a child process,
 * so that the bench itself never holds the driver initialised while it
 * times its runs: with a process that has called cuInit alive, a hit by
 * hand took 0.06 s on an H100, without one 0.12-0.29 s. (Its hit rows
 * stayed at 0.06-0.08 s all the same: why is not known yet.) */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_tune.h"
#include "runtime/driver/driver.h"

typedef struct answer {
    int rc, sm;
    char name[256];
    at_err e;
} answer;

int at_bench_device(int device, char *name, size_t n, int *sm, at_err *e)
{
    int fd[2];
    if (pipe(fd))
        return at_fail(e, AUTOTUNE_EIO, "pipe: %s (bench tune)",
                       strerror(errno));
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(fd[0]);
        close(fd[1]);
        return at_fail(e, AUTOTUNE_EIO, "fork: %s (bench tune)",
                       strerror(err));
    }
    if (pid == 0) {
        answer a;
        memset(&a, 0, sizeof a);
        at_device d;
        a.rc = at_device_open(&d, device, &a.e);
        if (!a.rc) {
            a.sm = d.sm;
            snprintf(a.name, sizeof a.name, "%s", d.name);
        }
        ssize_t w = write(fd[1], &a, sizeof a);
        _exit(w == (ssize_t)sizeof a ? 0 : 1);
    }
    close(fd[1]);
    answer a;
    size_t got = 0;
    while (got < sizeof a) {
        ssize_t k = read(fd[0], (char *)&a + got, sizeof a - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got != sizeof a)
        return at_fail(e, AUTOTUNE_EIO, "bench tune: the process looking up "
                       "device %d ended without an answer (%s %d)", device,
                       WIFSIGNALED(status) ? "signal" : "exit status",
                       WIFSIGNALED(status) ? WTERMSIG(status)
                                           : WEXITSTATUS(status));
    if (a.rc) {
        *e = a.e;
        return a.rc;
    }
    snprintf(name, n, "%s", a.name);
    *sm = a.sm;
    return 0;
}
