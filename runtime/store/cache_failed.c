/* Variants that failed on a GPU (a fault, a trap, a hang, a load that the
 * driver refused): remembered under the entry's key, so that a rerun
 * leaves them out of the space instead of dying on them again. */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "runtime/store/cache_impl.h"
#include "runtime/store/pg_cache.h"
#include "runtime/store/sqlite_file.h"

static int prepare_key(at_cache *c, const char *sql, const at_key *k,
                       sqlite3_stmt **st, at_err *e)
{
    char key[2048];
    at_key_text(k, key, sizeof key);
    int rc = sqlite3_prepare_v2(c->db, sql, -1, st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(*st, 1, key, -1, SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(*st);
        *st = NULL;
        return at_sql_fail(e, c->db, rc, "sqlite3_prepare_v2(failed)",
                           c->path);
    }
    return 0;
}

int at_cache_failed_put(at_cache *c, const at_key *k, const char *point,
                        const char *error, at_err *e)
{
    if (c->pg)
        return at_pg_failed_put(c, k, point, error, e);
    sqlite3_stmt *st = NULL;
    char now[32];
    at_utc_now(now, sizeof now);
    int rc = prepare_key(c, "INSERT OR REPLACE INTO failed(key, point, "
                         "error, created) VALUES(?1, ?2, ?3, ?4)", k, &st, e);
    if (rc)
        return rc;
    rc = sqlite3_bind_text(st, 2, point, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 3, error, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 4, now, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE
               ? 0
               : at_sql_fail(e, c->db, rc, "INSERT INTO failed", c->path);
}

int at_cache_failed_list(at_cache *c, const at_key *k, at_failed **out,
                         size_t *n, at_err *e)
{
    if (c->pg)
        return at_pg_failed_list(c, k, out, n, e);
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st = NULL;
    int rc = prepare_key(c, "SELECT point, error FROM failed WHERE key = ?1 "
                         "ORDER BY point", k, &st, e);
    if (rc)
        return rc;
    size_t cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            at_failed *m = realloc(*out, cap * sizeof **out);
            if (!m) {
                sqlite3_finalize(st);
                return at_fail(e, AUTOTUNE_ENOMEM, "failed variants");
            }
            *out = m;
        }
        const char *p = (const char *)sqlite3_column_text(st, 0);
        const char *m = (const char *)sqlite3_column_text(st, 1);
        snprintf((*out)[*n].point, sizeof (*out)[*n].point, "%s",
                 p ? p : "");
        snprintf((*out)[*n].error, sizeof (*out)[*n].error, "%s",
                 m ? m : "");
        ++*n;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE
               ? 0
               : at_sql_fail(e, c->db, rc, "SELECT FROM failed", c->path);
}

int at_cache_failed_clear(at_cache *c, const at_key *k, at_err *e)
{
    if (c->pg)
        return at_pg_failed_clear(c, k, e);
    sqlite3_stmt *st = NULL;
    int rc = prepare_key(c, "DELETE FROM failed WHERE key = ?1", k, &st, e);
    if (rc)
        return rc;
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE
               ? 0
               : at_sql_fail(e, c->db, rc, "DELETE FROM failed", c->path);
}
