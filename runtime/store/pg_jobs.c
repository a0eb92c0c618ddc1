/* A list of problems shared by the hosts of a PostgreSQL store
 * (runtime/store/store.h): the table autotune.jobs, taken a row at a time
 * with FOR UPDATE SKIP LOCKED so that hosts never wait on each other's
 * rows, each taken row leased (its host renews the lease while it tunes;
 * a lease that runs out lets another host take the job). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "runtime/store/cache_impl.h"
#include "runtime/store/pq.h"

struct at_jobs {
    PGconn *pg;
    char shown[1024]; /* the store, for messages */
    char owner[64];
    char lease[32];   /* seconds, as text for make_interval */
};

static const char *const state_names[] = {"queued", "running", "done",
                                          "failed"};

int at_jobs_open(at_jobs **out, const at_cache *c, const char *owner,
                 double lease_s, at_err *e)
{
    *out = NULL;
    if (!c->pg)
        return at_fail(e, AUTOTUNE_EINVALID, "a list shared by hosts needs "
                       "a PostgreSQL store (AUTOTUNE_CACHE=postgresql://...)"
                       "; %s is a file", c->path);
    at_jobs *j = calloc(1, sizeof *j);
    if (!j)
        return at_fail(e, AUTOTUNE_ENOMEM, "the jobs' connection");
    snprintf(j->shown, sizeof j->shown, "%s", c->path);
    snprintf(j->owner, sizeof j->owner, "%s", owner);
    snprintf(j->lease, sizeof j->lease, "%.3f", lease_s);
    int rc = at_pq_connect(c->uri, &j->pg, e);
    if (rc) {
        free(j);
        return rc;
    }
    *out = j;
    return 0;
}

void at_jobs_close(at_jobs *j)
{
    if (!j)
        return;
    if (j->pg)
        at_pq.PQfinish(j->pg);
    free(j);
}

/* key's text into key (n bytes) and its job's name into id. */
static void named(const at_key *k, char *key, size_t n, char id[17])
{
    at_key_text(k, key, n);
    snprintf(id, 17, "%016" PRIx64, at_hash(AT_HASH_INIT, key, strlen(key)));
}

void at_job_id(const at_key *k, char id[17])
{
    char key[2048];
    named(k, key, sizeof key, id);
}

int at_jobs_add(at_jobs *j, const at_key *k, const char *problem,
                char id[17], at_err *e)
{
    char key[2048];
    named(k, key, sizeof key, id);
    const char *v[] = {id, key, problem};
    return at_pq_run(j->pg, j->shown, "INSERT INTO autotune.jobs",
                     "INSERT INTO autotune.jobs(id, key, problem) VALUES($1,"
                     " $2, $3) ON CONFLICT (id) DO NOTHING", 3, v, e);
}

/* ids as a PostgreSQL array literal ({a,b,...}): malloc'd. */
static char *id_array(char (*ids)[17], int n)
{
    char *s = malloc((size_t)n * 17 + 3), *w = s;
    if (!s)
        return NULL;
    *w++ = '{';
    for (int i = 0; i < n; ++i)
        w += sprintf(w, "%s%s", i ? "," : "", ids[i]);
    strcpy(w, "}");
    return s;
}

static int index_of(char (*ids)[17], int n, const char *id)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(ids[i], id) == 0)
            return i;
    return -1;
}

int at_jobs_take(at_jobs *j, char (*ids)[17], int n, int *which, int *tries,
                 at_err *e)
{
    char *arr = id_array(ids, n), most[16];
    if (!arr)
        return at_fail(e, AUTOTUNE_ENOMEM, "the list's jobs");
    snprintf(most, sizeof most, "%d", AT_JOB_TRIES);
    const char *v[] = {arr, j->owner, j->lease, most};
    PGresult *r = NULL;
    int rc = at_pq_exec(j->pg, j->shown, "taking a job (autotune.jobs)",
        "WITH next AS (SELECT id FROM autotune.jobs WHERE id = ANY($1::text[])"
        " AND (state = 'queued' OR (state = 'running' AND lease_until < now()"
        " AND tries < $4::int)) ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)"
        " UPDATE autotune.jobs j SET state = 'running', owner = $2,"
        " tries = j.tries + 1, lease_until = now() +"
        " make_interval(secs => $3::float8), updated = now() FROM next"
        " WHERE j.id = next.id RETURNING j.id, j.tries",
        4, v, NULL, NULL, &r, e);
    free(arr);
    if (rc)
        return rc;
    int got = at_pq.PQntuples(r) == 1;
    if (got) {
        *which = index_of(ids, n, at_pq.PQgetvalue(r, 0, 0));
        *tries = atoi(at_pq.PQgetvalue(r, 0, 1));
    }
    at_pq.PQclear(r);
    if (got && *which < 0)
        return at_fail(e, AUTOTUNE_ESTORE, "store %s: took a job not in "
                       "the list", j->shown);
    return got;
}

int at_jobs_finish(at_jobs *j, const char *id, const char *error, at_err *e)
{
    /* A job whose lease ran out and was taken again is no longer ours:
     * its new host's word stands. */
    const char *v[] = {id, j->owner, error ? "failed" : "done",
                       error ? error : ""};
    return at_pq_run(j->pg, j->shown, "ending a job (autotune.jobs)",
                     "UPDATE autotune.jobs SET state = $3, error = $4,"
                     " lease_until = NULL, updated = now() WHERE id = $1"
                     " AND owner = $2 AND state = 'running'", 4, v, e);
}

int at_jobs_renew(at_jobs *j, at_err *e)
{
    const char *v[] = {j->owner, j->lease};
    return at_pq_run(j->pg, j->shown, "renewing leases (autotune.jobs)",
                     "UPDATE autotune.jobs SET lease_until = now() +"
                     " make_interval(secs => $2::float8) WHERE owner = $1"
                     " AND state = 'running'", 2, v, e);
}

int at_jobs_states(at_jobs *j, char (*ids)[17], int n, int *state,
                   char (*owner)[64], char (*error)[320], at_err *e)
{
    char *arr = id_array(ids, n), most[16], why[200];
    if (!arr)
        return at_fail(e, AUTOTUNE_ENOMEM, "the list's jobs");
    snprintf(most, sizeof most, "%d", AT_JOB_TRIES);
    snprintf(why, sizeof why, "taken %d times, and each time its host's "
             "lease ran out before it ended: the problem may be what "
             "stops its hosts", AT_JOB_TRIES);
    const char *v[] = {arr, most, why};
    PGresult *r = NULL;
    int rc = at_pq_run(j->pg, j->shown, "failing jobs that outlived their "
                       "hosts (autotune.jobs)",
                       "UPDATE autotune.jobs SET state = 'failed', error ="
                       " $3, updated = now() WHERE id = ANY($1::text[]) AND"
                       " state = 'running' AND lease_until < now() AND"
                       " tries >= $2::int", 3, v, e);
    /* A row for each id, in the list's order (a job not in the store: no
     * state), so that row i is ids[i]'s. */
    if (!rc)
        rc = at_pq_exec(j->pg, j->shown, "reading jobs (autotune.jobs)",
                        "SELECT coalesce(j.state, ''), coalesce(j.owner, ''),"
                        " coalesce(j.error, '') FROM unnest($1::text[]) WITH"
                        " ORDINALITY AS l(id, i) LEFT JOIN autotune.jobs j ON"
                        " j.id = l.id ORDER BY l.i", 1, v, NULL, NULL, &r, e);
    free(arr);
    if (rc)
        return rc;
    int rows = at_pq.PQntuples(r);
    if (rows != n) {
        at_pq.PQclear(r);
        return at_fail(e, AUTOTUNE_ESTORE, "store %s: %d jobs read for %d "
                       "asked", j->shown, rows, n);
    }
    for (int i = 0; i < n; ++i) {
        const char *st = at_pq.PQgetvalue(r, i, 0);
        state[i] = -1;
        for (int k = 0; k < 4; ++k)
            if (strcmp(st, state_names[k]) == 0)
                state[i] = k;
        if (owner)
            snprintf(owner[i], sizeof owner[i], "%s",
                     at_pq.PQgetvalue(r, i, 1));
        if (error)
            snprintf(error[i], sizeof error[i], "%s",
                     at_pq.PQgetvalue(r, i, 2));
    }
    at_pq.PQclear(r);
    return 0;
}
