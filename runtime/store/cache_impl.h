/* Inside the tuning cache (runtime/store/store.h): cache.c opens, reads and stores
 * entries; cache_failed.c remembers variants that failed on a GPU;
 * cache_lock.c serialises tuning of one key across processes. */
#ifndef AT_CACHE_IMPL_H
#define AT_CACHE_IMPL_H

#include <sqlite3.h>

#include "runtime/store/store.h"

struct pg_conn;

struct at_cache {
    sqlite3 *db;          /* a SQLite file's, or */
    struct pg_conn *pg;   /* a PostgreSQL store's (runtime/store/pg_cache.h) */
    char path[1024];      /* the file, or the URI (password hidden) */
    char *uri;            /* the URI as given (PostgreSQL) */
};

/* A PostgreSQL store that cannot be reached: the local SQLite cache
 * where $AUTOTUNE_STORE_FALLBACK allows it (said on stderr), else e's
 * error with how to allow it (runtime/store/cache_path.c). */
int at_cache_fall_back(at_cache **out, at_err *e);

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
/* What an insert stores beside en's fields: its integrity hash, and
 * its creation time (en's, else now); AUTOTUNE_EINVALID for an entry
 * without a cubin to store. */
int at_cache_entry_stamp(const at_entry *en, char hash[17], char created[32],
                         at_err *e);
/* INSERT OR REPLACE of en under its key text, in the caller's
 * transaction (at_cache_put's, an import's). */
int at_cache_insert(at_cache *c, const at_entry *en, const char *key,
                    at_err *e);

#endif
