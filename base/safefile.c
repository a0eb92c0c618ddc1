#include "safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int at_safefile_open(at_safefile *s, const char *path, at_err *e)
{
    memset(s, 0, sizeof *s);
    if (!path[0])
        return at_fail(e, AUTOTUNE_EIO, "%s", "an empty path: nothing "
                       "written");
    if (strlen(path) >= sizeof s->path)
        return at_fail(e, AUTOTUNE_EIO, "path too long (%zu bytes, at most "
                       "%zu): %.64s...", strlen(path), sizeof s->path - 1,
                       path);
    snprintf(s->path, sizeof s->path, "%s", path);
    if (strcmp(path, "-") == 0) {
        s->f = stdout;
        return 0;
    }
    struct stat st, lst;
    int exists = stat(path, &st) == 0;
    if (!exists && lstat(path, &lst) == 0) {
        if (S_ISLNK(lst.st_mode))
            return at_fail(e, AUTOTUNE_EIO, "%s is a symbolic link to "
                           "nothing; not followed", path);
        /* Made between the two calls (another writer's rename landing:
         * test_hostile's eight writers of one file saw it once in CI):
         * look again, so the checks below see it. */
        exists = stat(path, &st) == 0;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        /* A device or a pipe: written through, never created. */
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0 || !(s->f = fdopen(fd, "w"))) {
            int err = errno;
            if (fd >= 0)
                close(fd);
            return at_fail(e, AUTOTUNE_EIO, "cannot write %s: %s", path,
                           strerror(err));
        }
        return 0;
    }
    if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        /* The user's link stays; the file it names is replaced. */
        char *real = realpath(path, NULL);
        if (!real || strlen(real) >= sizeof s->path) {
            free(real);
            return at_fail(e, AUTOTUNE_EIO, "cannot resolve the link %s",
                           path);
        }
        snprintf(s->path, sizeof s->path, "%s", real);
        free(real);
    }
    /* The mode bits too: root passes access(), and a read-only file is
     * the user saying "keep this". */
    if (exists && (access(s->path, W_OK) != 0 || !(st.st_mode & 0222)))
        return at_fail(e, AUTOTUNE_EIO, "%s exists and is read-only; not "
                       "replaced", path);
    if (exists && st.st_nlink > 1)
        return at_fail(e, AUTOTUNE_EIO, "%s has %ju hard links; replacing "
                       "it would break them: remove it first or write "
                       "elsewhere", path, (uintmax_t)st.st_nlink);
    snprintf(s->tmp, sizeof s->tmp, "%s.XXXXXX", s->path);
    int fd = mkostemp(s->tmp, O_CLOEXEC); /* O_EXCL: never follows */
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

void at_safefile_discard(at_safefile *s)
{
    at_safefile_keep(s);
    if (s->tmp[0])
        unlink(s->tmp);
    s->tmp[0] = '\0';
}

void at_path_dir(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else
        snprintf(dir, n, "%.*s", slash == path ? 1 : (int)(slash - path),
                 path);
}

/* path with its folder resolved (the file itself need not exist). */
static int canonical(const char *path, char *out, size_t n)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    at_path_dir(path, dir, sizeof dir);
    if (!realpath(dir, real))
        return -1;
    int k = snprintf(out, n, "%s/%s", real, base);
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

int at_path_same(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || !a[0] || !b[0] || !strcmp(a, "-") || !strcmp(b, "-"))
        return 0;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb)
        return 0; /* one exists, the other not: different files */
    char ca[PATH_MAX + 256], cb[PATH_MAX + 256];
    if (canonical(a, ca, sizeof ca) || canonical(b, cb, sizeof cb))
        return strcmp(a, b) == 0;
    return strcmp(ca, cb) == 0;
}

int at_stat_mine_alone(const struct stat *st)
{
    return st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH));
}
