#include "safefile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int at_safefile_open(at_safefile *s, const char *path, at_err *e)
{
    memset(s, 0, sizeof *s);
    if (strlen(path) >= sizeof s->path)
        return at_fail(e, AUTOTUNE_EIO, "path too long (%zu bytes, at most "
                       "%zu): %.64s...", strlen(path), sizeof s->path - 1,
                       path);
    snprintf(s->path, sizeof s->path, "%s", path);
    if (strcmp(path, "-") == 0) {
        s->f = stdout;
        return 0;
    }
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (!(s->f = fopen(path, "w")))
            return at_fail(e, AUTOTUNE_EIO, "cannot write %s: %s", path,
                           strerror(errno));
        return 0;
    }
    snprintf(s->tmp, sizeof s->tmp, "%s.XXXXXX", path);
    int fd = mkstemp(s->tmp);
    if (fd < 0) {
        int err = errno;
        s->tmp[0] = '\0';
        return at_fail(e, AUTOTUNE_EIO, "cannot write %s (temporary file "
                       "beside it): %s", path, strerror(err));
    }
    /* mkstemp makes 0600; a result file gets the usual mode. */
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
    if (!(s->f = fdopen(fd, "w"))) {
        int err = errno;
        close(fd);
        unlink(s->tmp);
        return at_fail(e, AUTOTUNE_EIO, "fdopen %s: %s", s->tmp,
                       strerror(err));
    }
    return 0;
}

int at_safefile_commit(at_safefile *s, at_err *e)
{
    int bad = ferror(s->f) || fflush(s->f) != 0;
    int err = errno ? errno : EIO;
    if (s->f != stdout && fclose(s->f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    s->f = NULL;
    if (bad) {
        if (s->tmp[0])
            unlink(s->tmp);
        return at_fail(e, AUTOTUNE_EIO, "writing %s: %s", s->path,
                       strerror(err));
    }
    if (s->tmp[0] && rename(s->tmp, s->path) != 0) {
        err = errno;
        unlink(s->tmp);
        return at_fail(e, AUTOTUNE_EIO, "rename %s -> %s: %s", s->tmp,
                       s->path, strerror(err));
    }
    return 0;
}

void at_safefile_keep(at_safefile *s)
{
    if (s->f && s->f != stdout)
        fclose(s->f);
    s->f = NULL;
}
