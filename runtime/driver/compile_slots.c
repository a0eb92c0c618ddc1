/* Compile slots shared by the GPU workers of one host (driver.h): when
 * several devices tune at once, each GPU worker's pool has a process per
 * core, and without a common limit NVRTC would run on twice the cores
 * there are. The slots are the bytes of one memory file the list's
 * process makes (inherited by its GPU workers through exec): a compile
 * holds a byte's open-file-description lock, which the kernel drops with
 * the thread's descriptor or its process, however it ends. */
#include "runtime/driver/driver.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SLOTS_ENV "AUTOTUNE_COMPILE_SLOTS"
#define SLOTS_NAME "autotune-compile-slots"

int at_slots_share(int n, at_err *e)
{
    int fd = memfd_create(SLOTS_NAME, 0); /* kept by exec */
    if (fd < 0)
        return at_fail(e, AUTOTUNE_EIO, "memfd_create: %s (compile slots)",
                       strerror(errno));
    char v[32];
    snprintf(v, sizeof v, "%d:%d", fd, n > 0 ? n : 1);
    if (setenv(SLOTS_ENV, v, 1) != 0) {
        close(fd);
        return at_fail(e, AUTOTUNE_ENOMEM, "setenv(%s)", SLOTS_ENV);
    }
    return 0;
}

int at_slot_open(at_slot *s)
{
    s->fd = -1;
    s->n = 0;
    s->held = -1;
    const char *v = getenv(SLOTS_ENV);
    int fd, n;
    char end;
    if (!v || sscanf(v, "%d:%d%c", &fd, &n, &end) != 2 || fd < 0 || n < 1)
        return 0; /* no slots: compile freely */
    char path[64], target[128] = "";
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    /* Only the list's memory file: a descriptor of that number that is
     * something else (an environment inherited without it) is left be. */
    ssize_t k = readlink(path, target, sizeof target - 1);
    if (k <= 0 || strncmp(target, "/memfd:" SLOTS_NAME, 7 +
                          strlen(SLOTS_NAME)) != 0)
        return 0;
    /* A description of this thread's own: OFD locks belong to it. */
    s->fd = open(path, O_RDWR | O_CLOEXEC);
    s->n = s->fd >= 0 ? n : 0;
    return s->fd >= 0;
}

static int lock(int fd, int slot, short type, int wait)
{
    struct flock l = {.l_type = type, .l_whence = SEEK_SET,
                      .l_start = slot, .l_len = 1};
    int rc;
    while ((rc = fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &l)) != 0 &&
           errno == EINTR)
        ;
    return rc;
}

void at_slot_take(at_slot *s, int hint)
{
    if (s->fd < 0)
        return;
    for (int k = 0; k < s->n; ++k) {
        int slot = (hint + k) % s->n;
        if (lock(s->fd, slot, F_WRLCK, 0) == 0) {
            s->held = slot;
            return;
        }
    }
    int slot = hint % s->n; /* all busy: wait for ours */
    s->held = lock(s->fd, slot, F_WRLCK, 1) == 0 ? slot : -1;
}

void at_slot_give(at_slot *s)
{
    if (s->held >= 0)
        lock(s->fd, s->held, F_UNLCK, 0);
    s->held = -1;
}

void at_slot_close(at_slot *s)
{
    at_slot_give(s);
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}
