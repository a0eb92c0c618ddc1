/* Where the caches are: $AUTOTUNE_CACHE (a file, or a PostgreSQL store's
 * URI), else the user's own folder under XDG_CACHE_HOME or HOME; and the
 * local file a store that cannot be reached gives way to, where the user
 * allows it. */
#include "runtime/store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/store/cache_impl.h"
#include "runtime/store/sqlite_file.h"

static int xdg_path(char *buf, size_t n, const char *name, at_err *e);

int at_cache_default_path(char *buf, size_t n, at_err *e)
{
    int rc = at_cache_path_named(buf, n, e);
    const char *env = getenv("AUTOTUNE_CACHE");
    if (rc || (env && *env))
        return rc; /* a path the user names: its folder is theirs to make */
    return at_mkdirs(buf, e);
}

int at_cache_path_named(char *buf, size_t n, at_err *e)
{
    const char *env = getenv("AUTOTUNE_CACHE");
    if (env && *env) {
        if (strlen(env) >= n)
            return at_fail(e, AUTOTUNE_EIO, "AUTOTUNE_CACHE too long (%zu "
                           "bytes, at most %zu)", strlen(env), n - 1);
        snprintf(buf, n, "%s", env);
        return 0;
    }
    return xdg_path(buf, n, "cache.db", e);
}

int at_cache_local_path(char *buf, size_t n, const char *name, at_err *e)
{
    int rc = xdg_path(buf, n, name, e);
    return rc ? rc : at_mkdirs(buf, e);
}

/* ${XDG_CACHE_HOME:-$HOME/.cache}/autotune/NAME */
static int xdg_path(char *buf, size_t n, const char *name, at_err *e)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int k;
    if (xdg && *xdg)
        k = snprintf(buf, n, "%s/autotune/%s", xdg, name);
    else if (home && *home)
        k = snprintf(buf, n, "%s/.cache/autotune/%s", home, name);
    else
        return at_fail(e, AUTOTUNE_EIO,
                       "no cache path: set AUTOTUNE_CACHE, XDG_CACHE_HOME or "
                       "HOME");
    if (k < 0 || (size_t)k >= n)
        return at_fail(e, AUTOTUNE_EIO, "cache path too long");
    return 0;
}

/* A PostgreSQL store that cannot be reached: the local SQLite cache
 * where the user allows it ($AUTOTUNE_STORE_FALLBACK: 1 for the default
 * file, or a path), said on stderr; else the connection's error. */
int at_cache_fall_back(at_cache **out, at_err *e)
{
    const char *to = getenv("AUTOTUNE_STORE_FALLBACK");
    if (!to || !*to || strcmp(to, "0") == 0) {
        size_t used = strlen(e->msg);
        snprintf(e->msg + used, sizeof e->msg - used, " (set "
                 "AUTOTUNE_STORE_FALLBACK=1 to go on with the local cache)");
        return e->code;
    }
    if (at_cache_is_store(to))
        return at_fail(e, AUTOTUNE_EINVALID, "AUTOTUNE_STORE_FALLBACK names "
                       "a store (%.40s...): it takes 1 or a local file",
                       to);
    char path[1024];
    at_err why = *e;
    int rc = strcmp(to, "1") == 0
                 ? at_cache_local_path(path, sizeof path, "cache.db", e)
                 : (snprintf(path, sizeof path, "%s", to), 0);
    if (!rc)
        rc = at_cache_open(out, path, e);
    if (!rc)
        fprintf(stderr, "autotune: %s; going on with the local cache %s "
                "(AUTOTUNE_STORE_FALLBACK)\n", why.msg, path);
    return rc;
}
