/* Walking the tuning cache: every entry like a partial key, for the
 * nearest-problem search, `autotune cache list` and wisdom export. */
#include <stdlib.h>
#include <string.h>

#include "runtime/store/cache_impl.h"
#include "runtime/store/pg_cache.h"
#include "runtime/store/sqlite_file.h"

/* The WHERE clause for like's set fields, bound from ?1 on. */
typedef struct cond {
    const char *col;
    const char *text; /* or */
    int num;
} cond;

static int conds(const at_key *k, cond *c)
{
    int n = 0;
    if (!k)
        return 0;
    const cond all[] = {
        {"gpu", k->gpu, 0}, {"cc", NULL, k->cc}, {"sms", NULL, k->sms},
        {"driver", NULL, k->driver}, {"driver_build", k->driver_build, 0},
        {"nvrtc", k->nvrtc, 0}, {"template_hash", k->template_hash, 0},
        {"space_hash", k->space_hash, 0}, {"family", k->family, 0},
        {"type", k->type, 0}, {"problem", k->problem, 0},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (all[i].text ? all[i].text[0] != '\0' : all[i].num != 0)
            c[n++] = all[i];
    return n;
}

/* SELECT what FROM wisdom WHERE like's fields, then tail. */
static int prepare(at_cache *c, const at_key *like, const char *what,
                   const char *tail, sqlite3_stmt **st, at_err *e)
{
    cond cs[16];
    int n = conds(like, cs);
    char sql[2048];
    size_t k = (size_t)snprintf(sql, sizeof sql, "SELECT %s FROM wisdom",
                                what);
    for (int i = 0; i < n; ++i)
        k += (size_t)snprintf(sql + k, sizeof sql - k, "%s %s = ?%d",
                              i ? " AND" : " WHERE", cs[i].col, i + 1);
    snprintf(sql + k, sizeof sql - k, "%s", tail);
    int rc = sqlite3_prepare_v2(c->db, sql, -1, st, NULL);
    if (rc != SQLITE_OK)
        return at_sql_fail(e, c->db, rc, "sqlite3_prepare_v2(SELECT)",
                           c->path);
    for (int i = 0; i < n && rc == SQLITE_OK; ++i)
        rc = cs[i].text ? sqlite3_bind_text(*st, i + 1, cs[i].text, -1,
                                            SQLITE_TRANSIENT)
                        : sqlite3_bind_int(*st, i + 1, cs[i].num);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(*st);
        *st = NULL;
        return at_sql_fail(e, c->db, rc, "sqlite3_bind", c->path);
    }
    return 0;
}

/* Reads every matching row first (a corrupt one noted), then calls each:
 * each may itself use the cache. */
int at_cache_each(at_cache *c, const at_key *like,
                  int (*each)(const at_entry *en, void *arg), void *arg,
                  FILE *warn, at_err *e)
{
    if (c->pg)
        return at_pg_each(c, like, each, arg, warn, e);
    sqlite3_stmt *st = NULL;
    char what[1024];
    snprintf(what, sizeof what, "%s, rowid", at_cache_cols_sql());
    int rc = prepare(c, like, what, " ORDER BY created DESC, rowid DESC",
                     &st, e);
    if (rc)
        return rc;
    at_entry *all = NULL;
    sqlite3_int64 *bad = NULL;
    size_t n = 0, cap = 0, n_bad = 0;
    int step = SQLITE_DONE;
    while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
        if (n + n_bad == cap) {
            cap = cap ? 2 * cap : 16;
            at_entry *a = realloc(all, cap * sizeof *a);
            sqlite3_int64 *b = realloc(bad, cap * sizeof *b);
            if (a)
                all = a;
            if (b)
                bad = b;
            if (!a || !b) {
                rc = at_fail(e, AUTOTUNE_ENOMEM, "reading the cache");
                break;
            }
        }
        sqlite3_int64 rowid = 0;
        at_err why = {0};
        int ok = at_cache_read_row(st, &all[n], &rowid, &why);
        if (ok < 0)
            rc = at_fail(e, ok, "%s", why.msg);
        else if (ok)
            ++n;
        else {
            if (warn)
                fprintf(warn, "autotune: cache: %s\n", why.msg);
            bad[n_bad++] = rowid;
        }
    }
    if (!rc && step != SQLITE_DONE)
        rc = at_sql_fail(e, c->db, step, "SELECT FROM wisdom", c->path);
    sqlite3_finalize(st);
    for (size_t i = 0; !rc && i < n_bad; ++i)
        rc = at_cache_discard(c, bad[i], e);
    for (size_t i = 0; !rc && i < n; ++i)
        rc = each(&all[i], arg);
    for (size_t i = 0; i < n; ++i)
        at_entry_free(&all[i]);
    free(all);
    free(bad);
    return rc;
}

int at_cache_any(at_cache *c, const at_key *like, at_err *e)
{
    if (c->pg)
        return at_pg_any(c, like, e);
    sqlite3_stmt *st = NULL;
    int rc = prepare(c, like, "1", " LIMIT 1", &st, e);
    if (rc)
        return rc;
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    if (step == SQLITE_ROW)
        return 1;
    if (step == SQLITE_DONE)
        return 0;
    return at_sql_fail(e, c->db, step, "SELECT 1 FROM wisdom", c->path);
}
