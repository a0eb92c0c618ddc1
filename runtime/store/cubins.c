#include "runtime/store/store.h"

#include <limits.h>
#include <stddef.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hash.h"
#include "base/safefile.h"
#include "runtime/store/sqlite_file.h"

enum { BATCH = 256 }; /* puts per transaction */
/* Seconds a put waits in memory at most before its batch is written. */
#define BATCH_S 0.2

/* A put not yet written. Puts wait here, not in an open transaction: the
 * file's write lock is held only while a batch is written, so processes
 * that share the file (two devices' tunes of one list) never wait long
 * for each other. A lookup sees them as if written. */
typedef struct pending {
    struct pending *next;
    int n, sm;
    char **keys, **srcs, **kernels; /* n each; one allocation */
    char *nvrtc, *options;
    void *cubin;
    size_t size;
    int64_t id; /* negative until written: at_cubins_blob takes it */
} pending;

struct at_cubins {
    sqlite3 *db;
    sqlite3_stmt *find, *blob, *put, *put_blob, *del, *del_blob;
    int pending;  /* puts waiting in memory */
    int batching; /* at_cubins_batch_begin: puts wait for the batch */
    double begun; /* when the first of them came */
    pending *head, *tail;
    int64_t *written; /* a pending id -k's blob once written: written[k-1] */
    size_t n_written;
    char path[1024];
};

/* A cubin may hold several variants (one program of several points):
 * blobs holds each cubin once, variants says where each point's kernel
 * is. */
static const char *const tables[] = {"blobs", "variants", NULL};

static const char *schema =
    "CREATE TABLE IF NOT EXISTS blobs("
    " id INTEGER PRIMARY KEY, cubin BLOB NOT NULL,"
    " cubin_hash TEXT NOT NULL, created TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS variants("
    " key TEXT PRIMARY KEY,"
    " sm INTEGER NOT NULL, nvrtc TEXT NOT NULL, options TEXT NOT NULL,"
    " source BLOB NOT NULL, blob INTEGER NOT NULL, kernel TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS variants_blob ON variants(blob);";

int at_cubins_default_path(const char *wisdom_path, char *buf, size_t n,
                           at_err *e)
{
    const char *env = getenv("AUTOTUNE_CUBIN_CACHE");
    size_t len = strlen(wisdom_path);
    int k;
    if (env && *env)
        k = snprintf(buf, n, "%s", env);
    else if (at_cache_is_store(wisdom_path)) /* shared: cubins stay local */
        return at_cache_local_path(buf, n, "cache-cubins.db", e);
    else if (len > 3 && strcmp(wisdom_path + len - 3, ".db") == 0)
        k = snprintf(buf, n, "%.*s-cubins.db", (int)(len - 3), wisdom_path);
    else
        k = snprintf(buf, n, "%s-cubins.db", wisdom_path);
    if (k < 0 || (size_t)k >= n)
        return at_fail(e, AUTOTUNE_EIO, "compiled-variant cache path too "
                       "long");
    if (at_path_same(buf, wisdom_path))
        return at_fail(e, AUTOTUNE_EIO, "AUTOTUNE_CUBIN_CACHE is the cache "
                       "itself (%s): the compiled variants need a file of "
                       "their own", wisdom_path);
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
    const at_sqlite_spec spec = {
        "compiled-variant cache", schema, tables, "AUTOTUNE_CUBIN_CACHE",
        "SELECT count(*) = 5 FROM pragma_table_info('variants') WHERE name "
        "IN ('key', 'sm', 'nvrtc', 'source', 'blob')"};
    int rc = at_sqlite_open(path, &spec, &c->db, e);
    static const struct {
        size_t off;
        const char *sql;
    } stmts[] = {
        {offsetof(at_cubins, find),
         "SELECT source, blob, kernel FROM variants WHERE key = ?1"},
        {offsetof(at_cubins, blob),
         "SELECT cubin, cubin_hash FROM blobs WHERE id = ?1"},
        {offsetof(at_cubins, put),
         "INSERT OR REPLACE INTO variants(key, sm, nvrtc, options, source, "
         "blob, kernel) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)"},
        {offsetof(at_cubins, put_blob),
         "INSERT INTO blobs(cubin, cubin_hash, created) VALUES(?1, ?2, ?3)"},
        {offsetof(at_cubins, del), "DELETE FROM variants WHERE blob = ?1"},
        {offsetof(at_cubins, del_blob), "DELETE FROM blobs WHERE id = ?1"},
    };
    for (size_t i = 0; !rc && i < sizeof stmts / sizeof stmts[0]; ++i) {
        sqlite3_stmt **st = (sqlite3_stmt **)((char *)c + stmts[i].off);
        int r = sqlite3_prepare_v2(c->db, stmts[i].sql, -1, st, NULL);
        if (r != SQLITE_OK)
            rc = fail(c, r, "sqlite3_prepare_v2 (compiled-variant cache)", e);
    }
    if (rc) {
        at_cubins_close(c, NULL);
        return rc;
    }
    *out = c;
    return 0;
}

const char *at_cubins_path(const at_cubins *c) { return c->path; }

static void pending_free(pending *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n; ++i) {
        free(p->keys[i]);
        free(p->srcs[i]);
        free(p->kernels[i]);
    }
    free(p->keys);
    free(p->nvrtc);
    free(p->options);
    free(p->cubin);
    free(p);
}

static int write_one(at_cubins *c, pending *p, at_err *e);

/* Writes the puts waiting in memory, in one transaction; on a failure
 * they are dropped (compiled again when next asked for). */
static int flush(at_cubins *c, at_err *e)
{
    if (!c->pending)
        return 0;
    int rc = sqlite3_exec(c->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        rc = fail(c, rc, "BEGIN IMMEDIATE", e);
    for (pending *p = c->head; !rc && p; p = p->next)
        rc = write_one(c, p, e);
    if (!rc && (rc = sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL)) !=
                   SQLITE_OK)
        rc = fail(c, rc, "COMMIT", e);
    if (rc) {
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
        for (pending *p = c->head; p; p = p->next)
            if (p->id < 0 && (size_t)-p->id <= c->n_written)
                c->written[-p->id - 1] = 0; /* none: a miss */
    }
    while (c->head) {
        pending *p = c->head;
        c->head = p->next;
        pending_free(p);
    }
    c->tail = NULL;
    c->pending = 0;
    return rc;
}

int at_cubins_close(at_cubins *c, at_err *e)
{
    if (!c)
        return 0;
    int rc = c->db ? flush(c, e) : 0;
    free(c->written);
    sqlite3_finalize(c->find);
    sqlite3_finalize(c->blob);
    sqlite3_finalize(c->put);
    sqlite3_finalize(c->put_blob);
    sqlite3_finalize(c->del);
    sqlite3_finalize(c->del_blob);
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

/* Runs a one-parameter statement to completion. */
static int exec1(at_cubins *c, sqlite3_stmt *st, int64_t v, const char *what,
                 at_err *e)
{
    int rc = sqlite3_bind_int64(st, 1, v);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : fail(c, rc, what, e);
}

/* A put waiting in memory for key and src: its blob id, else 0. */
static int64_t pending_find(const at_cubins *c, const char *key,
                            const char *src, char kernel[AT_KERNEL_NAME])
{
    for (const pending *p = c->head; p; p = p->next)
        for (int i = 0; i < p->n; ++i)
            if (strcmp(p->keys[i], key) == 0 &&
                strcmp(p->srcs[i], src) == 0) {
                snprintf(kernel, AT_KERNEL_NAME, "%s", p->kernels[i]);
                return p->id;
            }
    return 0;
}

int at_cubins_find(at_cubins *c, const at_cubin_key *k, const char *src,
                   int64_t *blob, char kernel[AT_KERNEL_NAME], at_err *e)
{
    char key[512];
    key_text(k, src, key, sizeof key);
    int rc = c->pending && at_now_s() - c->begun >= BATCH_S ? flush(c, e)
                                                           : 0;
    if (rc)
        return rc;
    if ((*blob = pending_find(c, key, src, kernel)) != 0)
        return 1;
    rc = sqlite3_bind_text(c->find, 1, key, -1, SQLITE_TRANSIENT);
    if (rc != SQLITE_OK)
        return fail(c, rc, "sqlite3_bind_text", e);
    rc = sqlite3_step(c->find);
    if (rc == SQLITE_DONE) {
        sqlite3_reset(c->find);
        return 0;
    }
    if (rc != SQLITE_ROW) {
        sqlite3_reset(c->find);
        return fail(c, rc, "SELECT FROM variants", e);
    }
    const void *s = sqlite3_column_blob(c->find, 0);
    size_t slen = (size_t)sqlite3_column_bytes(c->find, 0);
    const unsigned char *kn = sqlite3_column_text(c->find, 2);
    /* Another source under the same hash is a miss, and its row stays. */
    int hit = s && slen == strlen(src) && memcmp(s, src, slen) == 0 && kn &&
              strlen((const char *)kn) < AT_KERNEL_NAME;
    if (hit) {
        *blob = sqlite3_column_int64(c->find, 1);
        snprintf(kernel, AT_KERNEL_NAME, "%s", (const char *)kn);
    }
    sqlite3_reset(c->find);
    return hit;
}

int at_cubins_blob(at_cubins *c, int64_t blob, void **cubin, size_t *size,
                   at_err *e)
{
    *cubin = NULL;
    for (const pending *p = c->head; blob < 0 && p; p = p->next)
        if (p->id == blob) {
            if (!(*cubin = malloc(p->size)))
                return at_fail(e, AUTOTUNE_ENOMEM, "cubin of %zu bytes",
                               p->size);
            memcpy(*cubin, p->cubin, p->size);
            *size = p->size;
            return 1;
        }
    if (blob < 0) /* written since it was found (0: it failed to be) */
        blob = (size_t)-blob <= c->n_written ? c->written[-blob - 1] : 0;
    int rc = sqlite3_bind_int64(c->blob, 1, blob);
    if (rc != SQLITE_OK)
        return fail(c, rc, "sqlite3_bind_int64", e);
    rc = sqlite3_step(c->blob);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        sqlite3_reset(c->blob);
        return fail(c, rc, "SELECT FROM blobs", e);
    }
    const void *data = rc == SQLITE_ROW ? sqlite3_column_blob(c->blob, 0)
                                        : NULL;
    int n = data ? sqlite3_column_bytes(c->blob, 0) : 0;
    const unsigned char *want = data ? sqlite3_column_text(c->blob, 1)
                                     : NULL;
    char got[17] = "";
    if (data && n > 0)
        cubin_hash(data, (size_t)n, got);
    if (data && n > 0 && want && strcmp(got, (const char *)want) == 0) {
        *cubin = malloc((size_t)n);
        if (*cubin) {
            memcpy(*cubin, data, (size_t)n);
            *size = (size_t)n;
        }
        sqlite3_reset(c->blob);
        return *cubin ? 1 : at_fail(e, AUTOTUNE_ENOMEM, "cubin of %d bytes",
                                    n);
    }
    at_err warn; /* before the reset, which frees want */
    at_fail(&warn, 0, "compiled-variant cache: cubin %lld %s (corrupt; "
            "discarded with its variants, compiling again)", (long long)blob,
            data ? "fails its hash" : "is missing");
    if (data)
        snprintf(warn.msg + strlen(warn.msg), sizeof warn.msg - strlen(warn.msg),
                 ": %d bytes, hash %s, recorded %.20s", n, got,
                 want ? (const char *)want : "(none)");
    sqlite3_reset(c->blob);
    if ((rc = exec1(c, c->del, blob, "DELETE FROM variants", e)) ||
        (rc = exec1(c, c->del_blob, blob, "DELETE FROM blobs", e)))
        return rc;
    if (e)
        *e = warn;
    return 0;
}

int at_cubins_get(at_cubins *c, const at_cubin_key *k, const char *src,
                  void **cubin, size_t *size, char kernel[AT_KERNEL_NAME],
                  at_err *e)
{
    int64_t blob;
    *cubin = NULL;
    int rc = at_cubins_find(c, k, src, &blob, kernel, e);
    return rc <= 0 ? rc : at_cubins_blob(c, blob, cubin, size, e);
}

/* One waiting put into the open transaction. */
static int write_one(at_cubins *c, pending *p, at_err *e)
{
    char hash[17], created[32];
    cubin_hash(p->cubin, p->size, hash);
    at_utc_now(created, sizeof created);
    sqlite3_stmt *st = c->put_blob;
    int rc;
    if ((rc = sqlite3_bind_blob(st, 1, p->cubin, (int)p->size,
                                SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_text(st, 2, hash, -1, SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_text(st, 3, created, -1, SQLITE_TRANSIENT)) ||
        (rc = sqlite3_step(st)) != SQLITE_DONE) {
        sqlite3_reset(st);
        return fail(c, rc, "INSERT INTO blobs", e);
    }
    sqlite3_reset(st);
    sqlite3_int64 blob = sqlite3_last_insert_rowid(c->db);
    c->written[-p->id - 1] = blob;
    st = c->put;
    for (int i = 0; i < p->n; ++i) {
        if ((rc = sqlite3_bind_text(st, 1, p->keys[i], -1, SQLITE_STATIC)) ||
            (rc = sqlite3_bind_int(st, 2, p->sm)) ||
            (rc = sqlite3_bind_text(st, 3, p->nvrtc, -1, SQLITE_STATIC)) ||
            (rc = sqlite3_bind_text(st, 4, p->options, -1, SQLITE_STATIC)) ||
            (rc = sqlite3_bind_blob(st, 5, p->srcs[i],
                                    (int)strlen(p->srcs[i]), SQLITE_STATIC)) ||
            (rc = sqlite3_bind_int64(st, 6, blob)) ||
            (rc = sqlite3_bind_text(st, 7, p->kernels[i], -1,
                                    SQLITE_STATIC)) ||
            (rc = sqlite3_step(st)) != SQLITE_DONE) {
            sqlite3_reset(st);
            return fail(c, rc, "INSERT INTO variants", e);
        }
        sqlite3_reset(st);
    }
    return 0;
}

int at_cubins_put(at_cubins *c, const at_cubin_key *k, int n,
                  const char *const *srcs, const char *const *kernels,
                  const void *cubin, size_t size, at_err *e)
{
    if (!cubin || size == 0 || size > INT_MAX || n < 1)
        return at_fail(e, AUTOTUNE_EINVALID, "compiled-variant cache: a "
                       "cubin of %zu bytes for %d variants cannot be stored",
                       size, n);
    pending *p = calloc(1, sizeof *p);
    int64_t *w = realloc(c->written, (c->n_written + 1) * sizeof *w);
    if (w)
        c->written = w;
    int ok = p && w && (p->keys = calloc(3 * (size_t)n, sizeof *p->keys)) &&
             (p->nvrtc = strdup(k->nvrtc)) &&
             (p->options = strdup(k->options)) && (p->cubin = malloc(size));
    if (ok) {
        p->srcs = p->keys + n;
        p->kernels = p->srcs + n;
        p->sm = k->sm;
        p->size = size;
        memcpy(p->cubin, cubin, size);
        for (int i = 0; i < n; ++i, ++p->n) {
            char key[512];
            key_text(k, srcs[i], key, sizeof key);
            if (!(p->keys[i] = strdup(key)) ||
                !(p->srcs[i] = strdup(srcs[i])) ||
                !(p->kernels[i] = strdup(kernels[i]))) {
                ++p->n; /* what this one got is freed with it */
                ok = 0;
                break;
            }
        }
    }
    if (!ok) {
        pending_free(p);
        return at_fail(e, AUTOTUNE_ENOMEM, "compiled-variant cache: a put");
    }
    p->id = -(int64_t)++c->n_written;
    c->written[-p->id - 1] = 0;
    if (!c->pending++)
        c->begun = at_now_s();
    if (c->tail)
        c->tail->next = p;
    else
        c->head = p;
    c->tail = p;
    return c->batching && c->pending < BATCH &&
                   at_now_s() - c->begun < BATCH_S
               ? 0
               : flush(c, e);
}

void at_cubins_batch_begin(at_cubins *c)
{
    c->batching = 1;
}

int at_cubins_batch_end(at_cubins *c, at_err *e)
{
    c->batching = 0;
    return flush(c, e);
}
