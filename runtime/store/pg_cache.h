/* The tuning cache on PostgreSQL (AUTOTUNE_CACHE=postgresql://...): the
 * SQLite cache's semantics on a server a fleet shares. cache.c and its
 * siblings hand a store of this kind to these functions; each is the
 * SQLite function of the same name's twin (runtime/store/store.h). The
 * tables live in the schema "autotune" of a database that is empty or
 * ours (autotune.meta says so, at our schema version): any other is
 * refused before anything is written. A key is tuned by one process at a
 * time under a session advisory lock, which the server drops with the
 * connection of a process that dies. pg_open.c opens (and checks the
 * database), pg_cache.c keeps entries, pg_admin.c the failed variants,
 * the lock and the cache tools' transaction and deletes. */
#ifndef AT_PG_CACHE_H
#define AT_PG_CACHE_H

#include "runtime/store/store.h"

/* The schema version this build writes and reads (autotune.meta). */
enum { AT_PG_SCHEMA = 2 };
/* Advisory locks' class (the two-int form: 0x6174, 'at'); object 0 sets
 * a database up, the others are keys' tunes. */
#define AT_PG_CLASS "24948"

/* A statement without parameters on the store's own connection. */
int at_pg_run(at_cache *c, const char *what, const char *sql, at_err *e);

int at_pg_open(at_cache *c, const char *uri, at_err *e);
void at_pg_close(at_cache *c);
int at_pg_get(at_cache *c, const at_key *k, at_entry *out, at_err *e);
int at_pg_find_arch(at_cache *c, const at_key *k, at_entry *out,
                    at_err *e);
int at_pg_put(at_cache *c, const at_entry *en, int replace, at_err *e);
int at_pg_stored(at_cache *c, const char *key, double *ms, int *effort,
                 char hash[17], at_err *e);
int at_pg_insert(at_cache *c, const at_entry *en, const char *key,
                 at_err *e);
int at_pg_each(at_cache *c, const at_key *like,
               int (*each)(const at_entry *en, void *arg), void *arg,
               FILE *warn, at_err *e);
int at_pg_any(at_cache *c, const at_key *like, at_err *e);
int at_pg_failed_put(at_cache *c, const at_key *k, const char *point,
                     const char *error, at_err *e);
int at_pg_failed_list(at_cache *c, const at_key *k, at_failed **out,
                      size_t *n, at_err *e);
int at_pg_failed_clear(at_cache *c, const at_key *k, at_err *e);
int at_pg_lock(at_cache *c, const at_key *k, FILE *progress,
               at_cache_held *h, at_err *e);
void at_pg_unlock(at_cache_held *h);
/* cache_admin.c's transaction and deletes: BEGIN, COMMIT or ROLLBACK
 * (after rc), and DELETE FROM table (wisdom or failed) [WHERE key = $1]
 * adding the rows removed to *count. */
int at_pg_begin(at_cache *c, at_err *e);
int at_pg_end(at_cache *c, int rc, at_err *e);
int at_pg_delete(at_cache *c, const char *table, const char *key,
                 size_t *count, at_err *e);

#endif
