/* The store layer: the tuning cache (a SQLite file: entries, failed variants, profiles, locks), the compiled-variant cache and the keys of both. It knows families and devices, never the tuner. */
#ifndef AT_STORE_LAYER_H
#define AT_STORE_LAYER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "runtime/driver/driver.h"
#include "gen/family.h"

/* The tuning cache ("wisdom"): one SQLite file, safe with several
 * processes. Keyed by everything that can change the answer: GPU name,
 * compute capability, SM count, driver (CUDA version and build) and NVRTC
 * versions, hashes of the template and of the constrained space, and the
 * problem (family, type and the family's key text of its fields). A
 * change of any part is a miss, never a stale hit. The value holds the winning point, its
 * cubin (with a hash, checked on load) and its figures. */

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
    /* The search's fastest points with their times (runtime/store/store.h);
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
/* A file of this user's own beside the default cache (its folders made):
 * ${XDG_CACHE_HOME:-$HOME/.cache}/autotune/NAME. */
int at_cache_local_path(char *buf, size_t n, const char *name, at_err *e);
/* Opens (creating the file and schema). The directory must exist and be
 * writable, except the default one, which is created. A file in the layout
 * of autotune 0.1 (transpose columns) is refused with a message saying
 * so: its entries could not be used (the version is part of every key). */
int at_cache_open(at_cache **c, const char *path, at_err *e);
/* Whether path names a shared store (PostgreSQL, docs/SCALE.md) rather
 * than a file. */
int at_cache_is_store(const char *path);
void at_cache_close(at_cache *c);
/* The file, or the store's URI with its password hidden (for messages). */
const char *at_cache_path(const at_cache *c);
/* What opens the same cache again (another process's at_cache_open): the
 * file, or the URI as given. */
const char *at_cache_source(const at_cache *c);

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
 * and said on warn (NULL: quietly). (runtime/store/cache_each.c) */
int at_cache_each(at_cache *c, const at_key *like,
                  int (*each)(const at_entry *en, void *arg), void *arg,
                  FILE *warn, at_err *e);

/* A variant that failed on a GPU (runtime/store/cache_failed.c). */
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

/* Exclusive right to tune key, across processes (runtime/store/cache_lock.c);
 * waits, saying so on progress, while another process holds it. */
typedef struct at_cache_held {
    int fd;
    long long at;
    void *pg; /* a PostgreSQL store's: the connection holding the lock */
} at_cache_held;
int at_cache_lock(at_cache *c, const at_key *k, FILE *progress,
                  at_cache_held *h, at_err *e);
void at_cache_unlock(at_cache_held *h);

/* A list of problems shared by the hosts of a PostgreSQL store (the
 * table autotune.jobs, runtime/store/pg_jobs.c; docs/SCALE.md): one job a
 * problem on one GPU model, named by its wisdom key. A host adds its
 * list's jobs (those there already stay as they are), takes one at a time
 * with FOR UPDATE SKIP LOCKED (a queued job, or a running one whose lease
 * has expired: its host died), renews its leases while it tunes, and
 * marks each done or failed. A job taken AT_JOB_TRIES times whose lease
 * expires again fails: the problem may be what kills its hosts. */
enum { AT_JOB_TRIES = 3 };
enum at_job_state { AT_JOB_QUEUED, AT_JOB_RUNNING, AT_JOB_DONE,
                    AT_JOB_FAILED };
typedef struct at_jobs at_jobs;

/* A connection of its own to c's store (AUTOTUNE_EINVALID if c is a
 * file), taking jobs as owner (a host's name and process: its leases are
 * renewed together) for leases of lease_s seconds. */
int at_jobs_open(at_jobs **j, const at_cache *c, const char *owner,
                 double lease_s, at_err *e);
void at_jobs_close(at_jobs *j);
/* A job's name: 16 hex digits of its key's hash. */
void at_job_id(const at_key *k, char id[17]);
/* Adds a job (queued) unless the store has it; its name (at_job_id's)
 * into id. */
int at_jobs_add(at_jobs *j, const at_key *k, const char *problem,
                char id[17], at_err *e);
/* Takes the first job of ids[0..n) that may be taken, in the order they
 * were added: 1 (*which its index, *tries how often it has been taken,
 * this time included), 0 none now, < 0 error. */
int at_jobs_take(at_jobs *j, char (*ids)[17], int n, int *which,
                 int *tries, at_err *e);
/* Ends a job this owner holds: done (error NULL) or failed. */
int at_jobs_finish(at_jobs *j, const char *id, const char *error,
                   at_err *e);
/* Renews the leases of every job the owner holds. */
int at_jobs_renew(at_jobs *j, at_err *e);
/* Each job's state (enum at_job_state; -1 not in the store), its owner
 * and its error (NULL: not wanted), failing first the running jobs
 * whose lease expired after AT_JOB_TRIES takes. */
int at_jobs_states(at_jobs *j, char (*ids)[17], int n, int *state,
                   char (*owner)[64], char (*error)[320], at_err *e);

/* The tuning cache as a tool's object (`autotune cache`, docs/WISDOM.md):
 * entries selected by filters, removed, cleared, imported all or nothing
 * under at_cache_put's rule; an entry's integrity hash and a cubin's
 * architecture, for the wisdom files' checks. (runtime/store/cache_admin.c) */

/* The cache's integrity hash of an entry (its entry_hash column): 16 hex
 * digits over the point's name, its parameters and the cubin, so that
 * neither changes alone unnoticed. The same function as cache.c's. */
void at_cache_entry_hash(const char *point, const char *params,
                         const void *cubin, size_t n, char out[17]);

/* The real architecture a cubin's ELF header names (90 for sm_90): 0 ok,
 * -1 not a CUDA ELF image (why says what is wrong, in words). The SM is
 * in e_flags: its low byte in the ELF ABI version 7 of CUDA up to 12,
 * bits 8 to 15 in version 8 (CUDA 13 on). */
int at_cubin_sm(const void *cubin, size_t n, int *sm, char *why,
                size_t why_n);

/* Which entries a command takes: every set part must match (NULL or 0:
 * any). gpu matches a part of the GPU's name, in any case; index is the
 * position (from 1) among all the cache's entries, newest first, as
 * `autotune cache list` numbers them. */
typedef struct at_cache_filter {
    const char *family, *type, *gpu;
    int sm;
    size_t index;
} at_cache_filter;

/* Whether the filter selects anything less than the whole cache. */
int at_cache_filter_set(const at_cache_filter *f);

/* The entries selected, newest first: *out (malloc'd, each with its cubin;
 * at_cache_entries_free) and *n; *pos (malloc'd; pos may be NULL) each
 * one's index. A corrupt entry is discarded and said on warn. */
int at_cache_select(at_cache *c, const at_cache_filter *f, at_entry **out,
                    size_t **pos, size_t *n, FILE *warn, at_err *e);
void at_cache_entries_free(at_entry *en, size_t n);

/* Removes the entries under the keys of en[0..n) in one transaction;
 * *removed: how many rows went. */
int at_cache_remove(at_cache *c, const at_entry *en, size_t n,
                    size_t *removed, at_err *e);
/* Removes every entry and every failed variant; the counts of each. */
int at_cache_clear(at_cache *c, size_t *entries, size_t *failed, at_err *e);

/* What an import did with one entry. */
typedef enum at_import_outcome {
    AT_IMPORT_ADDED,    /* no entry under its key before */
    AT_IMPORT_REPLACED, /* the cache's entry was worse (or --force) */
    AT_IMPORT_KEPT,     /* the cache's entry stays: at_cache_keeps_old */
    AT_IMPORT_SAME,     /* the cache holds this very entry already */
} at_import_outcome;

typedef struct at_import_result {
    at_import_outcome outcome;
    int old_effort;   /* the cache's entry, when there was one */
    double old_ms;
} at_import_result;

/* Stores en[0..n) in one transaction, each under at_cache_put's rule
 * (force: each replaces what is there), res[i] saying what happened; on
 * any error nothing is stored. Every entry must hold its cubin. */
int at_cache_import(at_cache *c, const at_entry *en, size_t n, int force,
                    at_import_result *res, at_err *e);

/* The compiled-variant cache: cubins on disk, keyed by the expanded
 * source, the target architecture, the NVRTC version and the compile
 * options, so a second tuning run of the same space compiles nothing.
 *
 * One SQLite file beside the tuning cache (cache.db -> cache-cubins.db,
 * or $AUTOTUNE_CUBIN_CACHE). A variant's row holds the whole source it
 * was compiled from, compared byte for byte on lookup (a hash collision
 * cannot return another variant's code), and points to a cubin (one cubin
 * may hold several variants' kernels) with a hash, checked on reading (a
 * corrupt cubin is deleted with its variants and compiled again). Writes
 * are batched in transactions; several processes may share the file. */

typedef struct at_cubins at_cubins;

/* The path for a tuning cache at wisdom_path. */
int at_cubins_default_path(const char *wisdom_path, char *buf, size_t n,
                           at_err *e);
int at_cubins_open(at_cubins **c, const char *path, at_err *e);
/* Commits what is pending and closes. */
int at_cubins_close(at_cubins *c, at_err *e);
const char *at_cubins_path(const at_cubins *c);

/* What a cubin was compiled for: "sm_90", NVRTC's version, the options. */
typedef struct at_cubin_key {
    int sm;
    const char *nvrtc, *options;
} at_cubin_key;

enum { AT_KERNEL_NAME = 192 };

/* Where src's kernel is: 1 found (*blob, kernel set), 0 miss, < 0 error.
 * Reads no cubin: several variants may share one. */
int at_cubins_find(at_cubins *c, const at_cubin_key *k, const char *src,
                   int64_t *blob, char kernel[AT_KERNEL_NAME], at_err *e);
/* The cubin: 1 (*cubin malloc'd), 0 missing or corrupt (a corrupt one is
 * deleted with its variants and reported in e->msg, code 0), < 0 error. */
int at_cubins_blob(at_cubins *c, int64_t blob, void **cubin, size_t *size,
                   at_err *e);
/* find, then blob. */
int at_cubins_get(at_cubins *c, const at_cubin_key *k, const char *src,
                  void **cubin, size_t *size, char kernel[AT_KERNEL_NAME],
                  at_err *e);
/* One cubin holding n variants: srcs[i] (each point's own source, as
 * at_expand gives it) compiled as kernel kernels[i]. Committed at once,
 * unless in a batch. */
int at_cubins_put(at_cubins *c, const at_cubin_key *k, int n,
                  const char *const *srcs, const char *const *kernels,
                  const void *cubin, size_t size, at_err *e);
/* A tune's many puts share a write transaction (committed every so many
 * puts, and when the batch ends, with what it holds); outside a batch a
 * put is committed before it returns, so that no transaction stays open
 * to hold other processes off the file. Ending a batch returns the
 * commit's error. */
void at_cubins_batch_begin(at_cubins *c);
int at_cubins_batch_end(at_cubins *c, at_err *e);

/* The tuning cache's key for a problem on a device (or, without one, an
 * architecture), and the check that an entry's point is valid here. */

/* Fills a cache key. d may be NULL (emitting for an architecture without a
 * device): then only cc and the problem and template parts are set. */
int at_key_fill(at_key *k, const at_device *d, const at_problem *p,
                const at_limits *l, at_err *e);
/* The same in two steps: every part but the space's hash (cheap), then
 * that hash, which lists the space under its constraints (milliseconds
 * the first time a process asks for a problem; remembered after). A
 * planner that finds no entry of the problem in any space needs no
 * hash to miss. */
void at_key_fill_partial(at_key *k, const at_device *d, const at_problem *p,
                         const at_limits *l);
int at_key_space(at_key *k, const at_problem *p, const at_limits *l,
                 at_err *e);

/* The point a cache entry holds, if this build would launch it: its
 * parameters parse, give the recorded name and pass the constraints. 1 yes
 * (*pt set), 0 no. */
int at_entry_point(const at_problem *p, const at_limits *l,
                   const at_entry *en, at_point *pt);

/* A tuned problem's profile: the fastest points its search timed, with
 * their times, as text kept with the cache entry ("MS PARAMS" lines,
 * fastest first). AUTOTUNE_ESTIMATE weighs points across the profiles
 * of the nearest tuned problems (runtime/plan/near_pick.h): a point fast
 * on all of them travels better than one problem's winner, often a
 * narrow one. 128 points came out as good as the whole record in replays
 * of three sweeps of 30 sizes (docs/PERFORMANCE.md). */
enum { AT_PROFILE = 128 };

/* One line of a profile text: 1 (*ms, params copied), 0 at the end, -1
 * for a malformed line (skipped: the walk goes on). *at moves past it. */
int at_profile_next(const char **at, double *ms, char *params, size_t n);
/* Whether text is a well-formed profile (for wisdom files): printable
 * ASCII lines, each a positive finite time and a params text, at most
 * AT_PROFILE lines. why says what is wrong. */
int at_profile_valid(const char *text, char *why, size_t n);

#endif
