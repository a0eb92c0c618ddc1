/* The tuning cache as a tool's object: selection by filters, removal,
 * clearing, an all-or-nothing import, and the checks wisdom files need
 * (the entry's hash, the cubin's architecture). */
#include "runtime/store/store.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "runtime/store/cache_impl.h"
#include "runtime/store/pg_cache.h"
#include "runtime/store/sqlite_file.h"

void at_cache_entry_hash(const char *point, const char *params,
                         const void *cubin, size_t n, char out[17])
{
    /* The cubin and the point it was built from, so neither can change
     * alone unnoticed. */
    uint64_t h = at_hash(AT_HASH_INIT, point, strlen(point) + 1);
    h = at_hash(h, params, strlen(params) + 1);
    snprintf(out, 17, "%016llx", (unsigned long long)at_hash(h, cubin, n));
}

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

int at_cubin_sm(const void *cubin, size_t n, int *sm, char *why,
                size_t why_n)
{
    const unsigned char *b = cubin;
    *sm = 0;
    if (!b || n < 64 || memcmp(b, "\x7f" "ELF", 4) != 0) {
        snprintf(why, why_n, "not an ELF image (%zu bytes)", n);
        return -1;
    }
    if (b[4] != 2 || b[5] != 1) {
        snprintf(why, why_n, "not a 64-bit little-endian ELF image");
        return -1;
    }
    unsigned machine = (unsigned)b[18] | (unsigned)b[19] << 8;
    if (machine != 190) { /* EM_CUDA */
        snprintf(why, why_n, "an ELF image for machine %u, not CUDA (190)",
                 machine);
        return -1;
    }
    uint32_t flags = rd32(b + 48);
    if (b[8] == 7) /* EI_ABIVERSION: CUDA up to 12 */
        *sm = (int)(flags & 0xff);
    else if (b[8] == 8) /* CUDA 13 on */
        *sm = (int)((flags >> 8) & 0xff);
    else {
        snprintf(why, why_n, "a CUDA ELF image of ABI version %u, which "
                 "this autotune cannot read (7 and 8 are known)", b[8]);
        return -1;
    }
    if (*sm < 10) {
        snprintf(why, why_n, "a CUDA ELF image naming no architecture "
                 "(e_flags 0x%08x)", (unsigned)flags);
        return -1;
    }
    return 0;
}

int at_cache_filter_set(const at_cache_filter *f)
{
    return f && ((f->family && *f->family) || (f->type && *f->type) ||
                 (f->gpu && *f->gpu) || f->sm || f->index);
}

typedef struct picked {
    const at_cache_filter *f;
    at_entry *all;
    size_t *pos;
    size_t n, cap, seen;
    at_err *e;
} picked;

/* Whether en passes the filter's parts but the index. */
static int matches(const at_cache_filter *f, const at_entry *en)
{
    return !f || ((!f->family || strcmp(en->key.family, f->family) == 0) &&
                  (!f->type || strcmp(en->key.type, f->type) == 0) &&
                  (!f->sm || en->key.cc == f->sm) &&
                  (!f->gpu || strcasestr(en->key.gpu, f->gpu)));
}

static int pick(const at_entry *en, void *arg)
{
    picked *p = arg;
    ++p->seen;
    if (!matches(p->f, en) || (p->f && p->f->index &&
                               p->f->index != p->seen))
        return 0;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        at_entry *a = realloc(p->all, cap * sizeof *a);
        if (a)
            p->all = a;
        size_t *q = a ? realloc(p->pos, cap * sizeof *q) : NULL;
        if (q)
            p->pos = q;
        if (!a || !q)
            return at_fail(p->e, AUTOTUNE_ENOMEM, "reading the cache");
        p->cap = cap;
    }
    at_entry *c = &p->all[p->n];
    *c = *en;
    c->cubin = malloc(en->cubin_size ? en->cubin_size : 1);
    if (!c->cubin)
        return at_fail(p->e, AUTOTUNE_ENOMEM, "cubin of %zu bytes",
                       en->cubin_size);
    memcpy(c->cubin, en->cubin, en->cubin_size);
    p->pos[p->n++] = p->seen;
    return 0;
}

int at_cache_select(at_cache *c, const at_cache_filter *f, at_entry **out,
                    size_t **pos, size_t *n, FILE *warn, at_err *e)
{
    picked p = {.f = f, .e = e};
    *out = NULL;
    *n = 0;
    if (pos)
        *pos = NULL;
    /* Every entry is walked: an index counts them all. */
    int rc = at_cache_each(c, NULL, pick, &p, warn, e);
    if (rc) {
        at_cache_entries_free(p.all, p.n);
        free(p.pos);
        return rc;
    }
    *out = p.all;
    *n = p.n;
    if (pos)
        *pos = p.pos;
    else
        free(p.pos);
    return 0;
}

void at_cache_entries_free(at_entry *en, size_t n)
{
    for (size_t i = 0; en && i < n; ++i)
        at_entry_free(&en[i]);
    free(en);
}

/* DELETE FROM table (wisdom or failed), of key's row only if key is
 * given, within the caller's transaction; *changed: the rows removed. */
static int delete_rows(at_cache *c, const char *table, const char *key,
                       size_t *changed, at_err *e)
{
    if (c->pg)
        return at_pg_delete(c, table, key, changed, e);
    char sql[96];
    snprintf(sql, sizeof sql, "DELETE FROM %s%s", table,
             key ? " WHERE key = ?1" : "");
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK && key)
        rc = sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return at_sql_fail(e, c->db, rc, sql, c->path);
    *changed += (size_t)sqlite3_changes(c->db);
    return 0;
}

static int begin(at_cache *c, at_err *e)
{
    if (c->pg)
        return at_pg_begin(c, e);
    char *msg = NULL;
    int rc = at_sql_exec_retry(c->db, "BEGIN IMMEDIATE", &msg);
    sqlite3_free(msg);
    return rc == SQLITE_OK ? 0
                           : at_sql_fail(e, c->db, rc, "BEGIN IMMEDIATE",
                                         c->path);
}

/* COMMIT after success, else ROLLBACK; rc, or COMMIT's failure. */
static int end(at_cache *c, int rc, at_err *e)
{
    if (c->pg)
        return at_pg_end(c, rc, e);
    int end_rc = sqlite3_exec(c->db, rc ? "ROLLBACK" : "COMMIT", NULL, NULL,
                              NULL);
    if (!rc && end_rc != SQLITE_OK) {
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
        return at_sql_fail(e, c->db, end_rc, "COMMIT", c->path);
    }
    return rc;
}

int at_cache_remove(at_cache *c, const at_entry *en, size_t n,
                    size_t *removed, at_err *e)
{
    *removed = 0;
    int rc = begin(c, e);
    if (rc)
        return rc;
    for (size_t i = 0; !rc && i < n; ++i) {
        char key[2048];
        at_key_text(&en[i].key, key, sizeof key);
        rc = delete_rows(c, "wisdom", key, removed, e);
    }
    rc = end(c, rc, e);
    if (rc)
        *removed = 0;
    return rc;
}

int at_cache_clear(at_cache *c, size_t *entries, size_t *failed, at_err *e)
{
    *entries = *failed = 0;
    int rc = begin(c, e);
    if (!rc)
        rc = delete_rows(c, "wisdom", NULL, entries, e);
    if (!rc)
        rc = delete_rows(c, "failed", NULL, failed, e);
    size_t jobs = 0; /* a store's shared lists: tuned again if listed */
    if (!rc && c->pg)
        rc = delete_rows(c, "jobs", NULL, &jobs, e);
    rc = end(c, rc, e);
    if (rc)
        *entries = *failed = 0;
    return rc;
}

/* One entry of an import: what happened into *r. */
static int import_one(at_cache *c, const at_entry *en, int force,
                      at_import_result *r, at_err *e)
{
    char key[2048], old_hash[17], hash[17];
    at_key_text(&en->key, key, sizeof key);
    memset(r, 0, sizeof *r);
    int had = at_cache_stored(c, key, &r->old_ms, &r->old_effort, old_hash,
                              e);
    if (had < 0)
        return had;
    int effort = en->effort ? en->effort : AUTOTUNE_EXHAUSTIVE;
    if (had) {
        at_cache_entry_hash(en->point, en->params, en->cubin,
                            en->cubin_size, hash);
        if (strcmp(hash, old_hash) == 0 && r->old_effort == effort &&
            r->old_ms == en->median_ms) {
            r->outcome = AT_IMPORT_SAME;
            return 0;
        }
        at_entry as = *en;
        as.effort = effort;
        if (!force && at_cache_keeps_old(r->old_ms, r->old_effort, &as)) {
            r->outcome = AT_IMPORT_KEPT;
            return 0;
        }
    }
    r->outcome = had ? AT_IMPORT_REPLACED : AT_IMPORT_ADDED;
    return at_cache_insert(c, en, key, e);
}

int at_cache_import(at_cache *c, const at_entry *en, size_t n, int force,
                    at_import_result *res, at_err *e)
{
    int rc = begin(c, e);
    if (rc)
        return rc;
    for (size_t i = 0; !rc && i < n; ++i)
        rc = import_one(c, &en[i], force, &res[i], e);
    return end(c, rc, e);
}
