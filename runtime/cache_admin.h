/* The tuning cache as a tool's object (`autotune cache`, docs/WISDOM.md):
 * entries selected by filters, removed, cleared, imported all or nothing
 * under at_cache_put's rule; an entry's integrity hash and a cubin's
 * architecture, for the wisdom files' checks. (runtime/cache_admin.c) */
#ifndef AT_CACHE_ADMIN_H
#define AT_CACHE_ADMIN_H

#include <stddef.h>
#include <stdio.h>

#include "cache.h"

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

#endif
