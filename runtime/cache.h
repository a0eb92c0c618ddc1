/* The tuning cache ("wisdom"): one SQLite file, safe with several
 * processes. Keyed by everything that can change the answer: GPU name,
 * compute capability, SM count, driver (CUDA version and build) and NVRTC
 * versions, hashes of the template and of the constrained space, and the
 * problem (family, type and the family's key text of its fields). A
 * change of any part is a miss, never a stale hit. The value holds the winning point, its
 * cubin (with a hash, checked on load) and its figures. */
#ifndef AT_CACHE_H
#define AT_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

/* Bytes of an entry's profile text (128 lines of a time and a point). */
enum { AT_PROFILE_TEXT = 16384 };

typedef struct at_key {
    char gpu[256];
    int cc, sms, driver;  /* cc = 90; driver = 13000 (the CUDA version) */
    char driver_build[32]; /* "580.159.04": changes with every driver */
    char nvrtc[32];
    char template_hash[17], space_hash[17];
    char family[32], type[16];
    char problem[512]; /* at_problem_key_text: "rows=8192 cols=8192 ..." */
} at_key;

typedef struct at_entry {
    at_key key;
    char point[128];  /* name */
    char params[256]; /* "tile_x=64 ..." */
    void *cubin;      /* malloc'd by at_cache_get */
    size_t cubin_size;
    double median_ms, gbps, copy_gbps, frac_copy;
    int registers, shared_bytes, local_bytes;
    uint64_t seed;
    double tune_seconds;
    int points;
    char created[32]; /* UTC, ISO 8601 */
    int effort;       /* AUTOTUNE_MEASURE or AUTOTUNE_EXHAUSTIVE (0 when
                       * stored: EXHAUSTIVE) */
    /* The search's fastest points with their times (runtime/profile.h);
     * "" when none (entries of 0.3.0 and before). Not in the entry's
     * hash: a hint AUTOTUNE_ESTIMATE weighs, its answer verified. */
    char profile[AT_PROFILE_TEXT];
} at_entry;

typedef struct at_cache at_cache;

/* The path: $AUTOTUNE_CACHE if set, else
 * ${XDG_CACHE_HOME:-$HOME/.cache}/autotune/cache.db, its folders made. */
int at_cache_default_path(char *buf, size_t n, at_err *e);
/* The same path, nothing made (to compare with others). */
int at_cache_path_named(char *buf, size_t n, at_err *e);
/* Opens (creating the file and schema). The directory must exist and be
 * writable, except the default one, which is created. A file in the layout
 * of autotune 0.1 (transpose columns) is refused with a message saying
 * so: its entries could not be used (the version is part of every key). */
int at_cache_open(at_cache **c, const char *path, at_err *e);
void at_cache_close(at_cache *c);
const char *at_cache_path(const at_cache *c);

/* The canonical text of a key (the primary key in the table). */
void at_key_text(const at_key *k, char *buf, size_t n);
/* 1 hit, 0 miss, < 0 error. A row whose cubin fails its hash is deleted
 * and reported as a miss with a warning in e->msg (code stays 0). */
int at_cache_get(at_cache *c, const at_key *k, at_entry *out, at_err *e);
/* Stores en. replace 0: an entry already stored under the key stays when
 * it was found at a higher effort, or at the same effort with a lower
 * median (several processes tuned it at once); 1: en replaces it
 * (--retune). */
int at_cache_put(at_cache *c, const at_entry *en, int replace, at_err *e);
/* Newest entry for the architecture (cc) and problem with this template,
 * from any GPU of that architecture: for emitting without a device. */
int at_cache_find_arch(at_cache *c, const at_key *k, at_entry *out,
                       at_err *e);
void at_entry_free(at_entry *en);
/* Whether an entry stored (median old_ms, effort old_effort) stays when
 * en comes for its key: at_cache_put's rule, for importers too. */
int at_cache_keeps_old(double old_ms, int old_effort, const at_entry *en);

/* Whether the cache holds a row like the partial key (as at_cache_each
 * matches; its rows not read): 1, 0, or < 0 on an error. */
int at_cache_any(at_cache *c, const at_key *like, at_err *e);
/* Calls each(en, arg) for every entry like `like` (its non-empty texts and
 * non-zero numbers must match; NULL: all), newest first; each's nonzero
 * return stops the walk and is returned. A corrupt entry is discarded
 * and said on warn (NULL: quietly). (runtime/cache_each.c) */
int at_cache_each(at_cache *c, const at_key *like,
                  int (*each)(const at_entry *en, void *arg), void *arg,
                  FILE *warn, at_err *e);

/* A variant that failed on a GPU (runtime/cache_failed.c). */
typedef struct at_failed {
    char point[128];
    char error[512];
} at_failed;

int at_cache_failed_put(at_cache *c, const at_key *k, const char *point,
                        const char *error, at_err *e);
/* The key's failed variants (*out malloc'd, *n of them). */
int at_cache_failed_list(at_cache *c, const at_key *k, at_failed **out,
                         size_t *n, at_err *e);
/* Forgets them (--retune). */
int at_cache_failed_clear(at_cache *c, const at_key *k, at_err *e);

/* Exclusive right to tune key, across processes (runtime/cache_lock.c);
 * waits, saying so on progress, while another process holds it. */
typedef struct at_cache_held {
    int fd;
    long long at;
} at_cache_held;
int at_cache_lock(at_cache *c, const at_key *k, FILE *progress,
                  at_cache_held *h, at_err *e);
void at_cache_unlock(at_cache_held *h);

#endif
