/* Opening a PostgreSQL store: the database checked to be empty or ours
 * (at our schema version), our tables made on first use, all under one
 * transaction-scoped advisory lock, so many processes may open a fresh
 * store at once; nothing is written to a database we refuse. */
#include "runtime/store/pg_cache.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/store/cache_impl.h"
#include "runtime/store/pq.h"

int at_pg_run(at_cache *c, const char *what, const char *sql, at_err *e)
{
    return at_pq_run(c->pg, c->path, what, sql, 0, NULL, e);
}

/* Made once per database. The columns are the SQLite file's
 * (runtime/store/cache.c), in PostgreSQL's types. */
static const char *const schema[] = {
    "CREATE SCHEMA autotune",
    "CREATE TABLE autotune.meta(name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE autotune.wisdom("
    " key TEXT PRIMARY KEY,"
    " gpu TEXT NOT NULL, cc INTEGER NOT NULL, sms INTEGER NOT NULL,"
    " driver INTEGER NOT NULL, driver_build TEXT NOT NULL,"
    " nvrtc TEXT NOT NULL,"
    " template_hash TEXT NOT NULL, space_hash TEXT NOT NULL,"
    " family TEXT NOT NULL, type TEXT NOT NULL, problem TEXT NOT NULL,"
    " point TEXT NOT NULL, params TEXT NOT NULL,"
    " cubin BYTEA NOT NULL, entry_hash TEXT NOT NULL,"
    " median_ms DOUBLE PRECISION, gbps DOUBLE PRECISION,"
    " copy_gbps DOUBLE PRECISION, frac_copy DOUBLE PRECISION,"
    " registers INTEGER, shared_bytes INTEGER, local_bytes INTEGER,"
    " seed BIGINT, tune_seconds DOUBLE PRECISION, points INTEGER,"
    " created TEXT NOT NULL, effort INTEGER NOT NULL DEFAULT 3,"
    " profile TEXT NOT NULL DEFAULT '', id BIGSERIAL)",
    "CREATE TABLE autotune.failed("
    " key TEXT NOT NULL, point TEXT NOT NULL, error TEXT NOT NULL,"
    " created TEXT NOT NULL, PRIMARY KEY(key, point))",
    /* 'schema' is 1 here; upgrade[] takes it to AT_PG_SCHEMA. */
    "INSERT INTO autotune.meta VALUES('made_by', 'autotune'),"
    " ('schema', '1')",
    NULL};

/* Schema 1 -> 2: the jobs table of a list shared by hosts (pg_jobs.c):
 * one row a problem on one GPU model (id: the hash of its wisdom key). */
static const char *const upgrade[] = {
    "CREATE TABLE autotune.jobs("
    " id TEXT PRIMARY KEY, key TEXT NOT NULL, problem TEXT NOT NULL,"
    " state TEXT NOT NULL DEFAULT 'queued', owner TEXT NOT NULL DEFAULT '',"
    " lease_until TIMESTAMPTZ, tries INTEGER NOT NULL DEFAULT 0,"
    " error TEXT NOT NULL DEFAULT '', seq BIGSERIAL,"
    " updated TIMESTAMPTZ NOT NULL DEFAULT now())",
    "UPDATE autotune.meta SET value = '2' WHERE name = 'schema'",
    NULL};

/* Whether the database may be ours: 0 ours (*fresh: nothing there yet;
 * *old: at schema 1, to upgrade), else the refusal, nothing written. */
static int check_ours(at_cache *c, int *fresh, int *old, at_err *e)
{
    char v[64];
    int rc = at_pq_value(c->pg, c->path, "looking for the autotune schema",
                         "SELECT 1 FROM pg_namespace WHERE nspname ="
                         " 'autotune'",
                         0, NULL, v, sizeof v, e);
    if (rc < 0)
        return rc;
    if (!rc) {
        rc = at_pq_value(c->pg, c->path, "counting the database's tables",
                         "SELECT count(*) FROM pg_class k JOIN pg_namespace n"
                         " ON n.oid = k.relnamespace WHERE k.relkind IN"
                         " ('r', 'v', 'm', 'p', 'f') AND n.nspname NOT IN"
                         " ('pg_catalog', 'information_schema') AND n.nspname"
                         " NOT LIKE 'pg_toast%'", 0, NULL, v, sizeof v, e);
        if (rc < 0)
            return rc;
        if (atol(v) != 0)
            return at_fail(e, AUTOTUNE_ESTORE, "store %s: the database holds "
                           "tables or views (%s) and no autotune schema: not "
                           "ours, not modified; give autotune a database of "
                           "its own (CREATE DATABASE autotune)", c->path, v);
        *fresh = 1;
        return 0;
    }
    *fresh = 0;
    rc = at_pq_value(c->pg, c->path, "reading autotune.meta",
                     "SELECT string_agg(name || '=' || value, ' '"
                     " ORDER BY name) FROM autotune.meta", 0, NULL, v,
                     sizeof v, e);
    if (rc < 0 && strcmp(at_pq_last_state(), "42P01") == 0) /* no table */
        return at_fail(e, AUTOTUNE_ESTORE, "store %s: a schema 'autotune' "
                       "that autotune did not make (no autotune.meta): not "
                       "ours, not modified", c->path);
    if (rc < 0)
        return rc;
    char want[64];
    snprintf(want, sizeof want, "made_by=autotune schema=%d", AT_PG_SCHEMA);
    if (!rc || strncmp(v, "made_by=autotune ", 17) != 0)
        return at_fail(e, AUTOTUNE_ESTORE, "store %s: autotune.meta says "
                       "'%s', not autotune's: not ours, not modified",
                       c->path, rc ? v : "");
    *old = strcmp(v, "made_by=autotune schema=1") == 0;
    if (strcmp(v, want) != 0 && !*old)
        return at_fail(e, AUTOTUNE_ESTORE, "store %s: its schema is '%s', "
                       "this build (%s) reads schema=%d only: not modified; "
                       "use the autotune that made it, or another database",
                       c->path, v + 17, AUTOTUNE_VERSION, AT_PG_SCHEMA);
    return 0;
}

int at_pg_open(at_cache *c, const char *uri, at_err *e)
{
    at_pq_shown(uri, c->path, sizeof c->path);
    if (!(c->uri = strdup(uri)))
        return at_fail(e, AUTOTUNE_ENOMEM, "store URI");
    int rc = at_pq_connect(uri, &c->pg, e);
    if (rc)
        return rc;
    int fresh = 0, old = 0;
    if (!(rc = at_pg_run(c, "BEGIN", "BEGIN", e)) &&
        !(rc = at_pg_run(c, "pg_advisory_xact_lock (setting the store up)",
                         "SELECT pg_advisory_xact_lock(" AT_PG_CLASS ", 0)",
                         e)) &&
        !(rc = check_ours(c, &fresh, &old, e)))
        for (int i = 0; fresh && !rc && schema[i]; ++i)
            rc = at_pg_run(c, "making the store's tables", schema[i], e);
    for (int i = 0; (fresh || old) && !rc && upgrade[i]; ++i)
        rc = at_pg_run(c, "upgrading the store to schema 2", upgrade[i], e);
    return at_pg_end(c, rc, e);
}

void at_pg_close(at_cache *c)
{
    if (c->pg)
        at_pq.PQfinish(c->pg);
    c->pg = NULL;
    free(c->uri);
    c->uri = NULL;
}
