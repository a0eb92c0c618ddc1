#include "runtime/store/store.h"

#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/hash.h"
#include "base/text.h"
#include "runtime/store/cache_impl.h"
#include "runtime/store/pg_cache.h"
#include "runtime/store/pq.h"
#include "runtime/store/sqlite_file.h"


static const char *const tables[] = {"wisdom", "failed", NULL};

static const char *schema =
    "CREATE TABLE IF NOT EXISTS wisdom("
    " key TEXT PRIMARY KEY,"
    " gpu TEXT NOT NULL, cc INTEGER NOT NULL, sms INTEGER NOT NULL,"
    " driver INTEGER NOT NULL, driver_build TEXT NOT NULL,"
    " nvrtc TEXT NOT NULL,"
    " template_hash TEXT NOT NULL, space_hash TEXT NOT NULL,"
    " family TEXT NOT NULL, type TEXT NOT NULL, problem TEXT NOT NULL,"
    " point TEXT NOT NULL, params TEXT NOT NULL,"
    " cubin BLOB NOT NULL, entry_hash TEXT NOT NULL,"
    " median_ms REAL, gbps REAL, copy_gbps REAL, frac_copy REAL,"
    " registers INTEGER, shared_bytes INTEGER, local_bytes INTEGER,"
    " seed INTEGER, tune_seconds REAL, points INTEGER,"
    " created TEXT NOT NULL, effort INTEGER NOT NULL DEFAULT 3,"
    " profile TEXT NOT NULL DEFAULT '');"
    /* Variants that faulted, hung or failed to load on a GPU: skipped
     * by later tunes of the same key (runtime/store/cache_failed.c). */
    "CREATE TABLE IF NOT EXISTS failed("
    " key TEXT NOT NULL, point TEXT NOT NULL, error TEXT NOT NULL,"
    " created TEXT NOT NULL, PRIMARY KEY(key, point));";

static const at_sqlite_spec spec = {
    "cache", NULL, tables, "AUTOTUNE_CACHE",
    "SELECT count(*) = 4 FROM pragma_table_info('wisdom') WHERE name IN "
    "('key', 'cubin', 'entry_hash', 'created')"};

/* autotune 0.1 keyed transpose problems by columns of their own (rows,
 * cols, ...); its rows are refused, not migrated: every one of them is
 * keyed to 0.1's template hash, so none could be a hit. */
static int refuse_old_layout(at_cache *c, at_err *e)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(c->db, "SELECT rows FROM wisdom LIMIT 0", -1,
                                &st, NULL);
    sqlite3_finalize(st);
    if (rc != SQLITE_OK)
        return 0;
    return at_fail(e, AUTOTUNE_ESQLITE, "cache %s was written by autotune "
                   "0.1 (transpose columns); its entries cannot be used by "
                   "%s: remove the file, or set AUTOTUNE_CACHE to another "
                   "path", c->path, AUTOTUNE_VERSION);
}

/* A column older files lack: autotune 0.2's effort (its entries were
 * all searches of the whole space, 3) and 0.3.0's profile (none). */
static int add_column(at_cache *c, const char *name, const char *decl,
                      at_err *e)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT %s FROM wisdom LIMIT 0", name);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
    sqlite3_finalize(st);
    if (rc == SQLITE_OK)
        return 0;
    char *msg = NULL;
    snprintf(sql, sizeof sql, "ALTER TABLE wisdom ADD COLUMN %s %s", name,
             decl);
    rc = at_sql_exec_retry(c->db, sql, &msg);
    /* Another process may have added it meanwhile. */
    if (rc != SQLITE_OK && !(msg && strstr(msg, "duplicate column"))) {
        at_fail(e, AUTOTUNE_ESQLITE, "%s: %s (%d): %s [cache %s]", sql,
                sqlite3_errstr(rc), rc, msg ? msg : "", c->path);
        sqlite3_free(msg);
        return AUTOTUNE_ESQLITE;
    }
    sqlite3_free(msg);
    return 0;
}

int at_cache_open(at_cache **out, const char *path, at_err *e)
{
    *out = NULL;
    if (strlen(path) >= sizeof((at_cache *)0)->path)
        return at_fail(e, AUTOTUNE_EIO, "cache path too long (%zu bytes)",
                       strlen(path));
    at_cache *c = calloc(1, sizeof *c);
    if (!c)
        return at_fail(e, AUTOTUNE_ENOMEM, "cache");
    if (at_pq_is_uri(path)) {
        int rc = at_pg_open(c, path, e);
        if (!rc) {
            *out = c;
            return 0;
        }
        int unreachable = !c->pg; /* not a refusal: no connection */
        at_cache_close(c);
        return unreachable && e ? at_cache_fall_back(out, e) : rc;
    }
    snprintf(c->path, sizeof c->path, "%s", path);
    at_sqlite_spec sp = spec;
    sp.schema = schema;
    int rc = at_sqlite_open(path, &sp, &c->db, e);
    if (!rc && ((rc = refuse_old_layout(c, e)) != 0 ||
                (rc = add_column(c, "effort", "INTEGER NOT NULL DEFAULT 3",
                                 e)) != 0 ||
                (rc = add_column(c, "profile", "TEXT NOT NULL DEFAULT ''",
                                 e)) != 0))
        sqlite3_close(c->db);
    if (rc) {
        free(c);
        return rc;
    }
    *out = c;
    return 0;
}

void at_cache_close(at_cache *c)
{
    if (!c)
        return;
    at_pg_close(c);
    sqlite3_close(c->db);
    free(c);
}

const char *at_cache_path(const at_cache *c) { return c->path; }

int at_cache_is_store(const char *path) { return at_pq_is_uri(path); }

const char *at_cache_source(const at_cache *c)
{
    return c->uri ? c->uri : c->path;
}

void at_key_text(const at_key *k, char *buf, size_t n)
{
    snprintf(buf, n,
             "gpu=%s;cc=%d;sms=%d;driver=%d;driver_build=%s;nvrtc=%s;"
             "template=%s;space=%s;family=%s;type=%s;problem=%s",
             k->gpu, k->cc, k->sms, k->driver, k->driver_build, k->nvrtc,
             k->template_hash, k->space_hash, k->family, k->type,
             k->problem);
}

static const char *cols_sql =
    "gpu, cc, sms, driver, driver_build, nvrtc, template_hash, space_hash,"
    " family, type, problem, point, params, cubin, entry_hash,"
    " median_ms, gbps, copy_gbps, frac_copy, registers, shared_bytes,"
    " local_bytes, seed, tune_seconds, points, created, effort, profile";

static void copy_text(char *dst, size_t n, sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, n, "%s", t ? (const char *)t : "");
}

const char *at_cache_cols_sql(void) { return cols_sql; }

int at_cache_read_row(sqlite3_stmt *st, at_entry *en, sqlite3_int64 *rowid,
                    at_err *e)
{
    memset(en, 0, sizeof *en);
    at_key *k = &en->key;
    copy_text(k->gpu, sizeof k->gpu, st, 0);
    k->cc = sqlite3_column_int(st, 1);
    k->sms = sqlite3_column_int(st, 2);
    k->driver = sqlite3_column_int(st, 3);
    copy_text(k->driver_build, sizeof k->driver_build, st, 4);
    copy_text(k->nvrtc, sizeof k->nvrtc, st, 5);
    copy_text(k->template_hash, sizeof k->template_hash, st, 6);
    copy_text(k->space_hash, sizeof k->space_hash, st, 7);
    copy_text(k->family, sizeof k->family, st, 8);
    copy_text(k->type, sizeof k->type, st, 9);
    copy_text(k->problem, sizeof k->problem, st, 10);
    copy_text(en->point, sizeof en->point, st, 11);
    copy_text(en->params, sizeof en->params, st, 12);
    *rowid = sqlite3_column_int64(st, 28);
    const void *blob = sqlite3_column_blob(st, 13);
    int size = sqlite3_column_bytes(st, 13);
    char want[80], got[17];
    copy_text(want, sizeof want, st, 14);
    if (!blob || size <= 0) {
        at_fail(e, 0, "cache entry for %s has no cubin (corrupt; discarded)",
                en->point);
        return 0;
    }
    const char *texts[] = {k->gpu, k->driver_build, k->nvrtc, k->problem,
                           en->point, en->params};
    for (int i = 0; i < 6; ++i)
        if (!at_text_is_ascii(texts[i])) {
            at_fail(e, 0, "cache entry with a control character or "
                    "non-ASCII byte in a name (corrupt or forged; "
                    "discarded)");
            return 0;
        }
    at_cache_entry_hash(en->point, en->params, blob, (size_t)size, got);
    if (strcmp(got, want) != 0) {
        at_fail(e, 0, "cache entry for %s: hash %s, recorded %.40s "
                "(corrupt; discarded)", en->point, got, want);
        return 0;
    }
    en->cubin = malloc((size_t)size);
    if (!en->cubin)
        return at_fail(e, AUTOTUNE_ENOMEM, "cubin of %d bytes", size);
    memcpy(en->cubin, blob, (size_t)size);
    en->cubin_size = (size_t)size;
    en->median_ms = sqlite3_column_double(st, 15);
    en->gbps = sqlite3_column_double(st, 16);
    en->copy_gbps = sqlite3_column_double(st, 17);
    en->frac_copy = sqlite3_column_double(st, 18);
    en->registers = sqlite3_column_int(st, 19);
    en->shared_bytes = sqlite3_column_int(st, 20);
    en->local_bytes = sqlite3_column_int(st, 21);
    en->seed = (uint64_t)sqlite3_column_int64(st, 22);
    en->tune_seconds = sqlite3_column_double(st, 23);
    en->points = sqlite3_column_int(st, 24);
    copy_text(en->created, sizeof en->created, st, 25);
    if (!at_text_is_ascii(en->created))
        snprintf(en->created, sizeof en->created, "?");
    en->effort = sqlite3_column_int(st, 26);
    copy_text(en->profile, sizeof en->profile, st, 27);
    char why[80];
    if (!at_profile_valid(en->profile, why, sizeof why))
        en->profile[0] = '\0'; /* a hint only: estimate verifies */
    return 1;
}

/* Removes one row: by rowid, so a healthy row that happens to hold the same
 * cubin (same architecture, another GPU) stays. */
int at_cache_discard(at_cache *c, sqlite3_int64 rowid, at_err *e)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(c->db, "DELETE FROM wisdom WHERE rowid = ?1",
                                -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 1, rowid);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return at_sql_fail(e, c->db, rc, "DELETE FROM wisdom", c->path);
    return 0;
}

/* Runs a prepared lookup: 1 hit, 0 miss, < 0 error. */
static int lookup(at_cache *c, sqlite3_stmt *st, at_entry *out, at_err *e,
                  const char *what)
{
    for (;;) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_DONE)
            return 0;
        if (rc != SQLITE_ROW)
            return at_sql_fail(e, c->db, rc, what, c->path);
        sqlite3_int64 rowid = 0;
        at_err warn = {0};
        int ok = at_cache_read_row(st, out, &rowid, &warn);
        if (ok < 0)
            return at_fail(e, ok, "%s", warn.msg);
        if (ok)
            return 1;
        /* Corrupt row: remove it, keep the warning, look further. */
        sqlite3_reset(st);
        int drc = at_cache_discard(c, rowid, e);
        if (drc)
            return drc;
        if (e) {
            e->code = 0;
            snprintf(e->msg, sizeof e->msg, "%s", warn.msg);
        }
    }
}

int at_cache_get(at_cache *c, const at_key *k, at_entry *out, at_err *e)
{
    if (c->pg)
        return at_pg_get(c, k, out, e);
    char key[2048], sql[1024];
    at_key_text(k, key, sizeof key);
    snprintf(sql, sizeof sql, "SELECT %s, rowid FROM wisdom WHERE key = ?1",
             cols_sql);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return at_sql_fail(e, c->db, rc, "sqlite3_prepare_v2(SELECT)", c->path);
    rc = sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(st);
        return at_sql_fail(e, c->db, rc, "sqlite3_bind_text", c->path);
    }
    rc = lookup(c, st, out, e, "SELECT FROM wisdom");
    sqlite3_finalize(st);
    return rc;
}

int at_cache_find_arch(at_cache *c, const at_key *k, at_entry *out,
                       at_err *e)
{
    if (c->pg)
        return at_pg_find_arch(c, k, out, e);
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT %s, rowid FROM wisdom WHERE cc = ?1 AND"
             " template_hash = ?2 AND family = ?3 AND type = ?4 AND"
             " problem = ?5 AND space_hash = ?6"
             " ORDER BY created DESC, rowid DESC",
             cols_sql);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return at_sql_fail(e, c->db, rc, "sqlite3_prepare_v2(SELECT)", c->path);
    if ((rc = sqlite3_bind_int(st, 1, k->cc)) ||
        (rc = sqlite3_bind_text(st, 2, k->template_hash, -1,
                                SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_text(st, 3, k->family, -1, SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_text(st, 4, k->type, -1, SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_text(st, 5, k->problem, -1, SQLITE_TRANSIENT)) ||
        (rc = sqlite3_bind_text(st, 6, k->space_hash, -1,
                                SQLITE_TRANSIENT))) {
        sqlite3_finalize(st);
        return at_sql_fail(e, c->db, rc, "sqlite3_bind", c->path);
    }
    rc = lookup(c, st, out, e, "SELECT FROM wisdom (by architecture)");
    sqlite3_finalize(st);
    return rc;
}

int at_cache_stored(at_cache *c, const char *key, double *ms, int *effort,
                    char hash[17], at_err *e)
{
    if (c->pg)
        return at_pg_stored(c, key, ms, effort, hash, e);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(c->db, "SELECT median_ms, effort, "
                                "entry_hash FROM wisdom WHERE key = ?1",
                                -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int found = rc == SQLITE_ROW;
    if (found) {
        *ms = sqlite3_column_double(st, 0);
        *effort = sqlite3_column_int(st, 1);
        const unsigned char *h = sqlite3_column_text(st, 2);
        snprintf(hash, 17, "%s", h ? (const char *)h : "");
    }
    sqlite3_finalize(st);
    if (!found && rc != SQLITE_DONE)
        return at_sql_fail(e, c->db, rc, "SELECT FROM wisdom", c->path);
    return found;
}

int at_cache_keeps_old(double old_ms, int old_effort, const at_entry *en)
{
    /* 0 is stored as a search of the whole space. */
    int was = old_effort ? old_effort : AUTOTUNE_EXHAUSTIVE;
    int now = en->effort ? en->effort : AUTOTUNE_EXHAUSTIVE;
    if (was != now)
        return was > now;
    return old_ms > 0 && en->median_ms > 0 && old_ms <= en->median_ms;
}


int at_cache_put(at_cache *c, const at_entry *en, int replace, at_err *e)
{
    if (c->pg)
        return at_pg_put(c, en, replace, e);
    /* One transaction: of processes that tuned the same key at once, the
     * fastest entry stays, whichever stores last. */
    int rc = sqlite3_exec(c->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return at_sql_fail(e, c->db, rc, "BEGIN IMMEDIATE", c->path);
    char key[2048];
    at_key_text(&en->key, key, sizeof key);
    double old = 0;
    int old_effort = 0;
    char old_hash[17];
    at_err ignore = {0}; /* a failed look is no entry: the insert says */
    int keep_old = !replace &&
                   at_cache_stored(c, key, &old, &old_effort, old_hash,
                                   &ignore) > 0 &&
                   at_cache_keeps_old(old, old_effort, en);
    rc = keep_old ? 0 : at_cache_insert(c, en, key, e);
    int end = sqlite3_exec(c->db, rc ? "ROLLBACK" : "COMMIT", NULL, NULL,
                           NULL);
    if (!rc && end != SQLITE_OK)
        return at_sql_fail(e, c->db, end, "COMMIT", c->path);
    return rc;
}

int at_cache_insert(at_cache *c, const at_entry *en, const char *key,
                    at_err *e)
{
    if (c->pg)
        return at_pg_insert(c, en, key, e);
    char hash[17], created[32], sql[1024];
    int rc = at_cache_entry_stamp(en, hash, created, e);
    if (rc)
        return rc;
    snprintf(sql, sizeof sql,
             "INSERT OR REPLACE INTO wisdom(key, %s) VALUES(?1, ?2, ?3, ?4,"
             " ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,"
             " ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29)",
             cols_sql);
    sqlite3_stmt *st = NULL;
    rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return at_sql_fail(e, c->db, rc, "sqlite3_prepare_v2(INSERT)", c->path);
    const at_key *k = &en->key;
    int i = 1;
#define T(v) (rc = rc ? rc : sqlite3_bind_text(st, i++, (v), -1, SQLITE_TRANSIENT))
#define I(v) (rc = rc ? rc : sqlite3_bind_int64(st, i++, (sqlite3_int64)(v)))
#define D(v) (rc = rc ? rc : sqlite3_bind_double(st, i++, (v)))
    rc = 0;
    T(key), T(k->gpu), I(k->cc), I(k->sms), I(k->driver),
        T(k->driver_build), T(k->nvrtc),
        T(k->template_hash), T(k->space_hash), T(k->family), T(k->type),
        T(k->problem), T(en->point), T(en->params);
    if (!rc)
        rc = sqlite3_bind_blob(st, i++, en->cubin, (int)en->cubin_size,
                               SQLITE_TRANSIENT);
    T(hash), D(en->median_ms), D(en->gbps), D(en->copy_gbps),
        D(en->frac_copy), I(en->registers), I(en->shared_bytes),
        I(en->local_bytes), I(en->seed), D(en->tune_seconds), I(en->points),
        T(created), I(en->effort ? en->effort : AUTOTUNE_EXHAUSTIVE),
        T(en->profile);
#undef T
#undef I
#undef D
    if (rc != SQLITE_OK) {
        sqlite3_finalize(st);
        return at_sql_fail(e, c->db, rc, "sqlite3_bind", c->path);
    }
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return at_sql_fail(e, c->db, rc, "INSERT INTO wisdom", c->path);
    return 0;
}

int at_cache_entry_stamp(const at_entry *en, char hash[17], char created[32],
                         at_err *e)
{
    if (!en->cubin || en->cubin_size == 0 || en->cubin_size > INT_MAX)
        return at_fail(e, AUTOTUNE_EINVALID, "cache entry for %s: cubin of "
                       "%zu bytes cannot be stored", en->point,
                       en->cubin_size);
    at_cache_entry_hash(en->point, en->params, en->cubin, en->cubin_size,
                        hash);
    if (en->created[0])
        snprintf(created, 32, "%s", en->created);
    else
        at_utc_now(created, 32);
    return 0;
}

void at_entry_free(at_entry *en)
{
    if (en) {
        free(en->cubin);
        en->cubin = NULL;
    }
}
