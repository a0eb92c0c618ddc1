/* Reading a whole file (base/readfile.h). */
#include "base/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int at_read_file_max(const char *path, size_t max, char **out, size_t *len,
                     at_err *e)
{
    *out = NULL;
    *len = 0;
    /* Not blocking: a FIFO or a device is refused, not waited on. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return at_fail(e, AUTOTUNE_EIO, "cannot read %s: %s", path,
                       strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return at_fail(e, AUTOTUNE_EIO, "cannot read %s: not a regular file",
                       path);
    }
    if ((unsigned long long)st.st_size > max) {
        close(fd);
        return at_fail(e, AUTOTUNE_EIO, "%s: larger than %zu bytes", path,
                       max);
    }
    size_t cap = (size_t)st.st_size, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        close(fd);
        return at_fail(e, AUTOTUNE_ENOMEM, "reading %s: out of memory", path);
    }
    /* The size fstat gave: a file that grows meanwhile is read that far. */
    while (n < cap) {
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int err = errno;
            free(buf);
            close(fd);
            return at_fail(e, AUTOTUNE_EIO, "reading %s: %s", path,
                           strerror(err));
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

int at_read_file(const char *path, char **out, size_t *len, at_err *e)
{
    return at_read_file_max(path, AT_READ_FILE_MAX, out, len, e);
}
