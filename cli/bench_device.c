/* The GPU `autotune bench tune` measures on, looked up in a child process,
 * so that the bench itself never holds the driver initialised while it
 * times its runs: with a process that has called cuInit alive, a hit by
 * hand took 0.06 s on an H100, without one 0.12-0.29 s. (Its hit rows
 * stayed at 0.06-0.08 s all the same: why is not known yet.) */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/sockio.h"
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
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fd))
        return at_fail(e, AUTOTUNE_EIO, "socketpair: %s (bench tune)",
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
        _exit(at_sock_send(fd[1], &a, sizeof a) ? 1 : 0);
    }
    close(fd[1]);
    answer a;
    int got = at_sock_recv(fd[0], &a, sizeof a, 0);
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got)
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
