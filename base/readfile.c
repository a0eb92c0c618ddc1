/* Reading a whole file (base/readfile.h). */
#include "base/readfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int at_read_file(const char *path, char **out, size_t *len, at_err *e)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return at_fail(e, AUTOTUNE_EIO, "cannot read %s: %s", path,
                       strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            if (cap >= AT_READ_FILE_MAX) {
                free(buf);
                fclose(f);
                return at_fail(e, AUTOTUNE_EIO, "%s: larger than %u bytes",
                               path, AT_READ_FILE_MAX);
            }
            cap *= 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (!buf) {
        fclose(f);
        return at_fail(e, AUTOTUNE_ENOMEM, "reading %s: out of memory", path);
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return at_fail(e, AUTOTUNE_EIO, "reading %s failed", path);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}
