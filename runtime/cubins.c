#include "cubins.h"

#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../gen/hash.h"
#include "cache.h"

enum { BATCH = 256 }; /* puts per transaction */

struct at_cubins {
    sqlite3 *db;
    sqlite3_stmt *get, *put, *del;
    int pending; /* puts in the open transaction */
    char path[1024];
};

static const char *schema =
    "PRAGMA journal_mode=WAL;"
    "CREATE TABLE IF NOT EXISTS cubins("
    " key TEXT PRIMARY KEY,"
    " sm INTEGER NOT NULL, nvrtc TEXT NOT NULL, options TEXT NOT NULL,"
    " source BLOB NOT NULL, cubin BLOB NOT NULL, cubin_hash TEXT NOT NULL,"
    " created TEXT NOT NULL);";

int at_cubins_default_path(const char *wisdom_path, char *buf, size_t n,
                           at_err *e)
{
    const char *env = getenv("AUTOTUNE_CUBIN_CACHE");
    size_t len = strlen(wisdom_path);
    int k;
    if (env && *env)
        k = snprintf(buf, n, "%s", env);
    else if (len > 3 && strcmp(wisdom_path + len - 3, ".db") == 0)
        k = snprintf(buf, n, "%.*s-cubins.db", (int)(len - 3), wisdom_path);
    else
        k = snprintf(buf, n, "%s-cubins.db", wisdom_path);
    if (k < 0 || (size_t)k >= n)
        return at_fail(e, AUTOTUNE_EIO, "compiled-variant cache path too "
                       "long");
    return 0;
}

static int fail(at_cubins *c, int rc, const char *call, at_err *e)
{
    return at_sql_fail(e, c->db, rc, call, c->path);
}

int at_cubins_open(at_cubins **out, const char *path, at_err *e)
{
    *out = NULL;
    at_cubins *c = calloc(1, sizeof *c);
    if (!c)
        return at_fail(e, AUTOTUNE_ENOMEM, "compiled-variant cache");
    if (strlen(path) >= sizeof c->path) {
        free(c);
        return at_fail(e, AUTOTUNE_EIO, "compiled-variant cache path too "
                       "long (%zu bytes)", strlen(path));
    }
    snprintf(c->path, sizeof c->path, "%s", path);
    int rc = at_sqlite_open(path, schema, &c->db, e);
    if (!rc &&
        (rc = sqlite3_prepare_v2(c->db, "SELECT source, cubin, cubin_hash "
                                 "FROM cubins WHERE key = ?1", -1, &c->get,
                                 NULL)) != SQLITE_OK)
        rc = fail(c, rc, "sqlite3_prepare_v2(SELECT FROM cubins)", e);
    if (!rc &&
        (rc = sqlite3_prepare_v2(c->db, "INSERT OR REPLACE INTO cubins(key, "
                                 "sm, nvrtc, options, source, cubin, "
                                 "cubin_hash, created) VALUES(?1, ?2, ?3, "
                                 "?4, ?5, ?6, ?7, ?8)", -1, &c->put,
                                 NULL)) != SQLITE_OK)
        rc = fail(c, rc, "sqlite3_prepare_v2(INSERT INTO cubins)", e);
    if (!rc &&
        (rc = sqlite3_prepare_v2(c->db, "DELETE FROM cubins WHERE key = ?1",
                                 -1, &c->del, NULL)) != SQLITE_OK)
        rc = fail(c, rc, "sqlite3_prepare_v2(DELETE FROM cubins)", e);
    if (rc) {
        at_cubins_close(c, NULL);
        return rc;
    }
    *out = c;
    return 0;
}

const char *at_cubins_path(const at_cubins *c) { return c->path; }

int at_cubins_flush(at_cubins *c, at_err *e)
{
    if (!c->pending)
        return 0;
    c->pending = 0;
    int rc = sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : fail(c, rc, "COMMIT", e);
}

int at_cubins_close(at_cubins *c, at_err *e)
{
    if (!c)
        return 0;
    int rc = c->db ? at_cubins_flush(c, e) : 0;
    sqlite3_finalize(c->get);
    sqlite3_finalize(c->put);
    sqlite3_finalize(c->del);
    sqlite3_close(c->db);
    free(c);
    return rc;
}

static void key_text(const at_cubin_key *k, const char *src, char *buf,
                     size_t n)
{
    uint64_t h = at_hash(AT_HASH_INIT, src, strlen(src));
    snprintf(buf, n, "%016llx;sm_%d;nvrtc %s;%s", (unsigned long long)h,
             k->sm, k->nvrtc, k->options);
}

static void cubin_hash(const void *cubin, size_t n, char out[17])
{
    snprintf(out, 17, "%016llx",
             (unsigned long long)at_hash(AT_HASH_INIT, cubin, n));
}

static int discard(at_cubins *c, const char *key, at_err *e)
{
    int rc = sqlite3_bind_text(c->del, 1, key, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(c->del);
    sqlite3_reset(c->del);
    return rc == SQLITE_DONE ? 0 : fail(c, rc, "DELETE FROM cubins", e);
}

int at_cubins_get(at_cubins *c, const at_cubin_key *k, const char *src,
                  void **cubin, size_t *size, at_err *e)
{
    char key[512];
    key_text(k, src, key, sizeof key);
    *cubin = NULL;
    int rc = sqlite3_bind_text(c->get, 1, key, -1, SQLITE_TRANSIENT);
    if (rc != SQLITE_OK)
        return fail(c, rc, "sqlite3_bind_text", e);
    rc = sqlite3_step(c->get);
    if (rc == SQLITE_DONE) {
        sqlite3_reset(c->get);
        return 0;
    }
    if (rc != SQLITE_ROW) {
        sqlite3_reset(c->get);
        return fail(c, rc, "SELECT FROM cubins", e);
    }
    const void *s = sqlite3_column_blob(c->get, 0);
    size_t slen = (size_t)sqlite3_column_bytes(c->get, 0);
    const void *blob = sqlite3_column_blob(c->get, 1);
    int n = sqlite3_column_bytes(c->get, 1);
    const unsigned char *want = sqlite3_column_text(c->get, 2);
    char got[17] = "";
    if (blob && n > 0)
        cubin_hash(blob, (size_t)n, got);
    if (!s || slen != strlen(src) || memcmp(s, src, slen) != 0) {
        /* Another source under the same hash: a miss, the row stays. */
        sqlite3_reset(c->get);
        return 0;
    }
    if (!blob || n <= 0 || !want || strcmp(got, (const char *)want) != 0) {
        at_err warn; /* before the reset, which frees want */
        at_fail(&warn, 0, "compiled-variant cache: cubin of %d bytes with "
                "hash %s, recorded %.20s (corrupt; discarded, compiling "
                "again)", n, got, want ? (const char *)want : "(none)");
        sqlite3_reset(c->get);
        rc = discard(c, key, e);
        if (!rc && e)
            *e = warn;
        return rc;
    }
    *cubin = malloc((size_t)n);
    if (!*cubin) {
        sqlite3_reset(c->get);
        return at_fail(e, AUTOTUNE_ENOMEM, "cubin of %d bytes", n);
    }
    memcpy(*cubin, blob, (size_t)n);
    *size = (size_t)n;
    sqlite3_reset(c->get);
    return 1;
}

int at_cubins_put(at_cubins *c, const at_cubin_key *k, const char *src,
                  const void *cubin, size_t size, at_err *e)
{
    if (!cubin || size == 0 || size > INT_MAX)
        return at_fail(e, AUTOTUNE_EINVALID, "compiled-variant cache: a "
                       "cubin of %zu bytes cannot be stored", size);
    int rc;
    if (!c->pending &&
        (rc = sqlite3_exec(c->db, "BEGIN IMMEDIATE", NULL, NULL, NULL)) !=
            SQLITE_OK)
        return fail(c, rc, "BEGIN IMMEDIATE", e);
    c->pending++;
    char key[512], hash[17], created[32];
    key_text(k, src, key, sizeof key);
    cubin_hash(cubin, size, hash);
    at_utc_now(created, sizeof created);
    sqlite3_stmt *st = c->put;
    if ((rc = sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_int(st, 2, k->sm)) ||
        (rc = sqlite3_bind_text(st, 3, k->nvrtc, -1, SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_text(st, 4, k->options, -1, SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_blob(st, 5, src, (int)strlen(src),
                                SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_blob(st, 6, cubin, (int)size, SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_text(st, 7, hash, -1, SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_text(st, 8, created, -1, SQLITE_TRANSIENT))) {
        sqlite3_reset(st);
        return fail(c, rc, "sqlite3_bind (cubins)", e);
    }
    rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return fail(c, rc, "INSERT INTO cubins", e);
    return c->pending >= BATCH ? at_cubins_flush(c, e) : 0;
}
