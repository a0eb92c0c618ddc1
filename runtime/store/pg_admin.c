/* A PostgreSQL store's failed variants, its per-key tune lock (a
 * session advisory lock on a connection of the lock's own) and the
 * transaction and deletes of the `autotune cache` tools. */
#include "runtime/store/pg_cache.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hash.h"
#include "runtime/store/cache_impl.h"
#include "runtime/store/pq.h"

int at_pg_failed_put(at_cache *c, const at_key *k, const char *point,
                     const char *error, at_err *e)
{
    char key[2048], created[32];
    at_key_text(k, key, sizeof key);
    at_utc_now(created, sizeof created);
    const char *v[] = {key, point, error, created};
    return at_pq_run(c->pg, c->path, "INSERT INTO autotune.failed",
                     "INSERT INTO autotune.failed VALUES($1, $2, $3, $4)"
                     " ON CONFLICT (key, point) DO UPDATE SET error ="
                     " EXCLUDED.error, created = EXCLUDED.created", 4, v, e);
}

int at_pg_failed_list(at_cache *c, const at_key *k, at_failed **out,
                      size_t *n, at_err *e)
{
    char key[2048];
    at_key_text(k, key, sizeof key);
    *out = NULL;
    *n = 0;
    PGresult *r = NULL;
    const char *v[] = {key};
    int rc = at_pq_exec(c->pg, c->path, "SELECT FROM autotune.failed",
                        "SELECT point, error FROM autotune.failed WHERE "
                        "key = $1 ORDER BY point", 1, v, NULL, NULL, &r, e);
    if (rc)
        return rc;
    int rows = at_pq.PQntuples(r);
    if (rows > 0 && !(*out = calloc((size_t)rows, sizeof **out))) {
        at_pq.PQclear(r);
        return at_fail(e, AUTOTUNE_ENOMEM, "failed variants");
    }
    for (int i = 0; i < rows; ++i) {
        snprintf((*out)[i].point, sizeof(*out)[i].point, "%s",
                 at_pq.PQgetvalue(r, i, 0));
        snprintf((*out)[i].error, sizeof(*out)[i].error, "%s",
                 at_pq.PQgetvalue(r, i, 1));
    }
    *n = (size_t)rows;
    at_pq.PQclear(r);
    return 0;
}

int at_pg_failed_clear(at_cache *c, const at_key *k, at_err *e)
{
    char key[2048];
    at_key_text(k, key, sizeof key);
    const char *v[] = {key};
    return at_pq_run(c->pg, c->path, "DELETE FROM autotune.failed",
                     "DELETE FROM autotune.failed WHERE key = $1", 1, v, e);
}

int at_pg_lock(at_cache *c, const at_key *k, FILE *progress,
               at_cache_held *h, at_err *e)
{
    char key[2048], id[16];
    at_key_text(k, key, sizeof key);
    h->fd = -1;
    h->pg = NULL;
    /* A connection of the lock's own: the lock lives as long as it, and
     * the server drops both when a process dies. Object 0 is setup's. */
    uint64_t h64 = at_hash(AT_HASH_INIT, key, strlen(key));
    snprintf(id, sizeof id, "%ld", (long)(h64 % 0x7ffffffe) + 1);
    PGconn *conn = NULL;
    int rc = at_pq_connect(c->uri, &conn, e);
    if (rc)
        return rc;
    const char *v[] = {id};
    PGresult *r = NULL;
    rc = at_pq_exec(conn, c->path, "pg_try_advisory_lock (the key's tune)",
                    "SELECT pg_try_advisory_lock(" AT_PG_CLASS ", $1::int)",
                    1, v, NULL, NULL, &r, e);
    int got = !rc && strcmp(at_pq.PQgetvalue(r, 0, 0), "t") == 0;
    if (!rc)
        at_pq.PQclear(r);
    if (!rc && !got) {
        if (progress)
            fprintf(progress, "autotune: another process is tuning this "
                    "problem; waiting for its answer\n");
        rc = at_pq_run(conn, c->path, "pg_advisory_lock (the key's tune)",
                       "SELECT pg_advisory_lock(" AT_PG_CLASS ", $1::int)", 1,
                       v, e);
    }
    if (rc) {
        at_pq.PQfinish(conn);
        return rc;
    }
    h->pg = conn;
    return 0;
}

void at_pg_unlock(at_cache_held *h)
{
    if (h->pg)
        at_pq.PQfinish(h->pg); /* the lock goes with its connection */
    h->pg = NULL;
}

int at_pg_begin(at_cache *c, at_err *e)
{
    return at_pg_run(c, "BEGIN", "BEGIN", e);
}

int at_pg_end(at_cache *c, int rc, at_err *e)
{
    at_err ignore = {0};
    const char *sql = rc ? "ROLLBACK" : "COMMIT";
    int end = at_pg_run(c, sql, sql, rc ? &ignore : e);
    return rc ? rc : end;
}

int at_pg_delete(at_cache *c, const char *table, const char *key,
                 size_t *count, at_err *e)
{
    char sql[128];
    snprintf(sql, sizeof sql, "WITH gone AS (DELETE FROM autotune.%s%s "
             "RETURNING 1) SELECT count(*) FROM gone", table,
             key ? " WHERE key = $1" : "");
    const char *v[] = {key};
    char n[32];
    int rc = at_pq_value(c->pg, c->path, "DELETE FROM the store", sql,
                         key ? 1 : 0, v, n, sizeof n, e);
    if (rc < 0)
        return rc;
    *count += (size_t)atoll(n);
    return 0;
}
