/* Inside the tuning cache (runtime/store/store.h): cache.c opens, reads and stores
 * entries; cache_failed.c remembers variants that failed on a GPU;
 * cache_lock.c serialises tuning of one key across processes. */
#ifndef AT_CACHE_IMPL_H
#define AT_CACHE_IMPL_H

#include <sqlite3.h>

#include "runtime/store/store.h"

struct at_cache {
    sqlite3 *db;
    char path[1024];
};

/* cache.c's row reading, for cache_each.c: the columns (then rowid)
 * every SELECT of an entry names, and a row read and its cubin's hash
 * checked (1 ok; 0 corrupt, e->msg says why and *rowid is the row to
 * discard; < 0 no memory). */
const char *at_cache_cols_sql(void);
int at_cache_read_row(sqlite3_stmt *st, at_entry *en, sqlite3_int64 *rowid,
                      at_err *e);
int at_cache_discard(at_cache *c, sqlite3_int64 rowid, at_err *e);
/* The entry stored under key text: 1 (its median, effort and integrity
 * hash), 0 none, < 0 error. */
int at_cache_stored(at_cache *c, const char *key, double *ms, int *effort,
                    char hash[17], at_err *e);
/* INSERT OR REPLACE of en under its key text, in the caller's
 * transaction (at_cache_put's, an import's). */
int at_cache_insert(at_cache *c, const at_entry *en, const char *key,
                    at_err *e);

#endif
