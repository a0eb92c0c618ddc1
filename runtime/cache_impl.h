/* Inside the tuning cache (cache.h): cache.c opens, reads and stores
 * entries; cache_failed.c remembers variants that failed on a GPU;
 * cache_lock.c serialises tuning of one key across processes. */
#ifndef AT_CACHE_IMPL_H
#define AT_CACHE_IMPL_H

#include <sqlite3.h>

#include "cache.h"

struct at_cache {
    sqlite3 *db;
    char path[1024];
};

#endif
