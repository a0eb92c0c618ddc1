/* One tune per key at a time across processes and threads: an
 * open-file-description record lock on one byte of CACHE.lock, chosen by
 * the key's hash (not a classic POSIX lock: closing one thread's
 * descriptor would drop every lock of the process, another device's
 * thread's among them). The kernel drops it when the process ends,
 * however it ends. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/hash.h"
#include "runtime/store/cache_impl.h"
#include "runtime/store/pg_cache.h"

static int lock_byte(int fd, off_t at, int cmd, short type)
{
    struct flock l = {.l_type = type, .l_whence = SEEK_SET, .l_start = at,
                      .l_len = 1};
    int r;
    while ((r = fcntl(fd, cmd, &l)) != 0 && errno == EINTR)
        ;
    return r;
}

int at_cache_lock(at_cache *c, const at_key *k, FILE *progress,
                  at_cache_held *h, at_err *e)
{
    if (c->pg)
        return at_pg_lock(c, k, progress, h, e);
    h->pg = NULL;
    char path[1100], key[2048];
    snprintf(path, sizeof path, "%s.lock", c->path);
    at_key_text(k, key, sizeof key);
    h->fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (h->fd < 0)
        return at_fail(e, AUTOTUNE_EIO, "cannot open the tuning lock %s: %s",
                       path, strerror(errno));
    h->at = (off_t)(at_hash(AT_HASH_INIT, key, strlen(key)) & 0x3fffffff);
    if (lock_byte(h->fd, h->at, F_OFD_SETLK, F_WRLCK) == 0)
        return 0;
    if (progress)
        fprintf(progress, "autotune: another process is tuning this "
                "problem; waiting for its answer\n");
    if (lock_byte(h->fd, h->at, F_OFD_SETLKW, F_WRLCK) == 0)
        return 0;
    int err = errno;
    close(h->fd);
    h->fd = -1;
    return at_fail(e, AUTOTUNE_EIO, "fcntl(F_OFD_SETLKW) on %s: %s", path,
                   strerror(err));
}

void at_cache_unlock(at_cache_held *h)
{
    if (h->pg)
        at_pg_unlock(h);
    if (h->fd < 0)
        return;
    lock_byte(h->fd, h->at, F_OFD_SETLK, F_UNLCK);
    close(h->fd);
    h->fd = -1;
}
