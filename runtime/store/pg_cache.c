#include "runtime/store/pg_cache.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "runtime/store/cache_impl.h"
#include "runtime/store/pq.h"

/* One row of cols_sql (then id) as an entry, checked as a SQLite row is:
 * 1 ok, 0 corrupt (e->msg says why), < 0 no memory. */
static int read_row(PGresult *r, int row, at_entry *en, at_err *e)
{
    memset(en, 0, sizeof *en);
    at_key *k = &en->key;
#define TXT(dst, col)                                                        \
    snprintf(dst, sizeof dst, "%s", at_pq.PQgetvalue(r, row, col))
#define INT(col) atoi(at_pq.PQgetvalue(r, row, col))
#define DBL(col) strtod(at_pq.PQgetvalue(r, row, col), NULL)
    TXT(k->gpu, 0);
    k->cc = INT(1);
    k->sms = INT(2);
    k->driver = INT(3);
    TXT(k->driver_build, 4);
    TXT(k->nvrtc, 5);
    TXT(k->template_hash, 6);
    TXT(k->space_hash, 7);
    TXT(k->family, 8);
    TXT(k->type, 9);
    TXT(k->problem, 10);
    TXT(en->point, 11);
    TXT(en->params, 12);
    const char *texts[] = {k->gpu, k->driver_build, k->nvrtc, k->problem,
                           en->point, en->params};
    for (int i = 0; i < 6; ++i)
        if (!at_text_is_ascii(texts[i]))
            return at_fail(e, 0, "store entry with a control character or "
                           "non-ASCII byte in a name (corrupt or forged; "
                           "discarded)"), 0;
    void *blob = NULL;
    size_t size = 0;
    if (at_pq_bytea(at_pq.PQgetvalue(r, row, 13), &blob, &size) != 0)
        return at_fail(e, 0, "store entry for %s has no readable cubin "
                       "(corrupt; discarded)", en->point), 0;
    char want[80], got[17];
    TXT(want, 14);
    at_cache_entry_hash(en->point, en->params, blob, size, got);
    if (strcmp(got, want) != 0) {
        free(blob);
        return at_fail(e, 0, "store entry for %s: hash %s, recorded %.40s "
                       "(corrupt; discarded)", en->point, got, want), 0;
    }
    en->cubin = blob;
    en->cubin_size = size;
    en->median_ms = DBL(15);
    en->gbps = DBL(16);
    en->copy_gbps = DBL(17);
    en->frac_copy = DBL(18);
    en->registers = INT(19);
    en->shared_bytes = INT(20);
    en->local_bytes = INT(21);
    en->seed = (uint64_t)strtoll(at_pq.PQgetvalue(r, row, 22), NULL, 10);
    en->tune_seconds = DBL(23);
    en->points = INT(24);
    TXT(en->created, 25);
    if (!at_text_is_ascii(en->created))
        snprintf(en->created, sizeof en->created, "?");
    en->effort = INT(26);
    TXT(en->profile, 27);
#undef TXT
#undef INT
#undef DBL
    char why[80];
    if (!at_profile_valid(en->profile, why, sizeof why))
        en->profile[0] = '\0';
    return 1;
}

static int discard(at_cache *c, const char *id, at_err *e)
{
    const char *v[] = {id};
    return at_pq_run(c->pg, c->path, "DELETE FROM autotune.wisdom (a "
                     "corrupt entry)", "DELETE FROM autotune.wisdom WHERE "
                     "id = $1", 1, v, e);
}

/* The rows of a SELECT of cols_sql and id: each good one to each(), the
 * corrupt ones discarded and said on warn (or, for a lookup, in e->msg
 * with code 0). With one (a lookup): the first good row, copied there. */
static int walk(at_cache *c, const char *sql, int n, const char *const *v,
                int (*each)(const at_entry *, void *), void *arg,
                at_entry *one, FILE *warn, at_err *e)
{
    PGresult *r = NULL;
    int rc = at_pq_exec(c->pg, c->path, "SELECT FROM autotune.wisdom", sql,
                        n, v, NULL, NULL, &r, e);
    if (rc)
        return rc;
    int rows = at_pq.PQntuples(r), found = 0;
    char said[sizeof e->msg] = "";
    for (int i = 0; i < rows && !rc && !found; ++i) {
        at_entry en;
        at_err why = {0};
        int ok = read_row(r, i, &en, &why);
        if (ok < 0) {
            rc = at_fail(e, ok, "%s", why.msg);
        } else if (!ok) {
            if (warn)
                fprintf(warn, "autotune: store: %s\n", why.msg);
            snprintf(said, sizeof said, "%s", why.msg);
            rc = discard(c, at_pq.PQgetvalue(r, i, 28), e);
        } else if (one) {
            *one = en;
            found = 1;
        } else {
            rc = each(&en, arg);
            at_entry_free(&en);
        }
    }
    at_pq.PQclear(r);
    if (!rc && said[0] && e && one) {
        e->code = 0; /* a lookup's warning: the caller reports it */
        snprintf(e->msg, sizeof e->msg, "%s", said);
    }
    return rc ? rc : found;
}

int at_pg_get(at_cache *c, const at_key *k, at_entry *out, at_err *e)
{
    char key[2048], sql[1024];
    at_key_text(k, key, sizeof key);
    snprintf(sql, sizeof sql, "SELECT %s, id FROM autotune.wisdom WHERE "
             "key = $1", at_cache_cols_sql());
    const char *v[] = {key};
    return walk(c, sql, 1, v, NULL, NULL, out, NULL, e);
}

int at_pg_find_arch(at_cache *c, const at_key *k, at_entry *out, at_err *e)
{
    char sql[1024], cc[16];
    snprintf(sql, sizeof sql, "SELECT %s, id FROM autotune.wisdom WHERE"
             " cc = $1 AND template_hash = $2 AND family = $3 AND type = $4"
             " AND problem = $5 AND space_hash = $6"
             " ORDER BY created DESC, id DESC", at_cache_cols_sql());
    snprintf(cc, sizeof cc, "%d", k->cc);
    const char *v[] = {cc, k->template_hash, k->family, k->type, k->problem,
                       k->space_hash};
    return walk(c, sql, 6, v, NULL, NULL, out, NULL, e);
}

/* The WHERE of a partial key, as cache_each.c matches (its non-empty
 * texts and non-zero numbers); values[] point into nums[] or the key. */
static int like_where(const at_key *k, char *sql, size_t cap,
                      const char **values, char nums[][16])
{
    if (!k)
        return 0;
    const struct {
        const char *col, *text;
        int num;
    } all[] = {
        {"gpu", k->gpu, 0}, {"cc", NULL, k->cc}, {"sms", NULL, k->sms},
        {"driver", NULL, k->driver}, {"driver_build", k->driver_build, 0},
        {"nvrtc", k->nvrtc, 0}, {"template_hash", k->template_hash, 0},
        {"space_hash", k->space_hash, 0}, {"family", k->family, 0},
        {"type", k->type, 0}, {"problem", k->problem, 0},
    };
    int n = 0;
    size_t used = strlen(sql);
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        if (all[i].text ? !all[i].text[0] : !all[i].num)
            continue;
        if (all[i].text) {
            values[n] = all[i].text;
        } else {
            snprintf(nums[n], 16, "%d", all[i].num);
            values[n] = nums[n];
        }
        used += (size_t)snprintf(sql + used, cap - used, "%s %s = $%d",
                                 n ? " AND" : " WHERE", all[i].col, n + 1);
        ++n;
    }
    return n;
}

int at_pg_each(at_cache *c, const at_key *like,
               int (*each)(const at_entry *en, void *arg), void *arg,
               FILE *warn, at_err *e)
{
    char sql[2048], nums[16][16];
    const char *v[16];
    snprintf(sql, sizeof sql, "SELECT %s, id FROM autotune.wisdom",
             at_cache_cols_sql());
    int n = like_where(like, sql, sizeof sql, v, nums);
    strncat(sql, " ORDER BY created DESC, id DESC",
            sizeof sql - strlen(sql) - 1);
    return walk(c, sql, n, v, each, arg, NULL, warn, e);
}

int at_pg_any(at_cache *c, const at_key *like, at_err *e)
{
    char sql[1024] = "SELECT 1 FROM autotune.wisdom", nums[16][16], v1[8];
    const char *v[16];
    int n = like_where(like, sql, sizeof sql, v, nums);
    strncat(sql, " LIMIT 1", sizeof sql - strlen(sql) - 1);
    return at_pq_value(c->pg, c->path, "SELECT FROM autotune.wisdom", sql,
                       n, v, v1, sizeof v1, e);
}

int at_pg_stored(at_cache *c, const char *key, double *ms, int *effort,
                 char hash[17], at_err *e)
{
    PGresult *r = NULL;
    const char *v[] = {key};
    int rc = at_pq_exec(c->pg, c->path, "SELECT FROM autotune.wisdom",
                        "SELECT median_ms, effort, entry_hash FROM "
                        "autotune.wisdom WHERE key = $1", 1, v, NULL, NULL,
                        &r, e);
    if (rc)
        return rc;
    int found = at_pq.PQntuples(r) > 0;
    if (found) {
        *ms = strtod(at_pq.PQgetvalue(r, 0, 0), NULL);
        *effort = atoi(at_pq.PQgetvalue(r, 0, 1));
        snprintf(hash, 17, "%s", at_pq.PQgetvalue(r, 0, 2));
    }
    at_pq.PQclear(r);
    return found;
}

/* INSERT of en under key; upsert: NULL (replace whatever is there) or
 * the condition under which a stored row gives way (at_pg_put's rule). */
static int upsert(at_cache *c, const at_entry *en, const char *key,
                  const char *upsert_when, at_err *e)
{
    char hash[17], created[32], num[14][32], sql[2048];
    int rc = at_cache_entry_stamp(en, hash, created, e);
    if (rc)
        return rc;
    const at_key *k = &en->key;
    /* Each number in a buffer of its own: an initializer's items are
     * evaluated in no set order. */
#define N(i, fmt, x) (snprintf(num[i], sizeof num[i], fmt, x), num[i])
    const char *v[29] = {
        key, k->gpu, N(0, "%d", k->cc), N(1, "%d", k->sms),
        N(2, "%d", k->driver), k->driver_build, k->nvrtc, k->template_hash,
        k->space_hash, k->family, k->type, k->problem, en->point,
        en->params, (const char *)en->cubin, hash,
        N(3, "%.17g", en->median_ms), N(4, "%.17g", en->gbps),
        N(5, "%.17g", en->copy_gbps), N(6, "%.17g", en->frac_copy),
        N(7, "%d", en->registers), N(8, "%d", en->shared_bytes),
        N(9, "%d", en->local_bytes), N(10, "%" PRId64, (int64_t)en->seed),
        N(11, "%.17g", en->tune_seconds), N(12, "%d", en->points), created,
        N(13, "%d", en->effort ? en->effort : AUTOTUNE_EXHAUSTIVE),
        en->profile};
#undef N
    int lengths[29] = {0}, binary[29] = {0};
    lengths[14] = (int)en->cubin_size;
    binary[14] = 1;
    size_t used = (size_t)snprintf(
        sql, sizeof sql, "INSERT INTO autotune.wisdom AS w(key, %s) VALUES("
        "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,"
        " $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28,"
        " $29) ON CONFLICT (key) DO UPDATE SET", at_cache_cols_sql());
    /* Every column from the new row: "gpu = EXCLUDED.gpu, ...". */
    char cols[1024];
    snprintf(cols, sizeof cols, "%s", at_cache_cols_sql());
    const char *sep = " ";
    for (char *t = strtok(cols, ", "); t; t = strtok(NULL, ", ")) {
        used += (size_t)snprintf(sql + used, sizeof sql - used,
                                 "%s%s = EXCLUDED.%s", sep, t, t);
        sep = ", ";
    }
    if (upsert_when)
        snprintf(sql + used, sizeof sql - used, " WHERE %s", upsert_when);
    PGresult *r = NULL;
    rc = at_pq_exec(c->pg, c->path, "INSERT INTO autotune.wisdom", sql, 29,
                    v, lengths, binary, &r, e);
    if (!rc)
        at_pq.PQclear(r);
    return rc;
}

int at_pg_insert(at_cache *c, const at_entry *en, const char *key,
                 at_err *e)
{
    return upsert(c, en, key, NULL, e);
}

int at_pg_put(at_cache *c, const at_entry *en, int replace, at_err *e)
{
    char key[2048];
    at_key_text(&en->key, key, sizeof key);
    /* at_cache_keeps_old in one statement, so that of processes storing
     * one key at once the fastest entry stays, whichever stores last:
     * the stored row gives way to a higher effort, or to a faster entry
     * at the same effort (0 counts as the whole space, 3). */
    return upsert(c, en, key, replace ? NULL :
                  "COALESCE(NULLIF(w.effort, 0), 3) < EXCLUDED.effort OR"
                  " (COALESCE(NULLIF(w.effort, 0), 3) = EXCLUDED.effort AND"
                  " NOT (w.median_ms > 0 AND EXCLUDED.median_ms > 0 AND"
                  " w.median_ms <= EXCLUDED.median_ms))", e);
}
