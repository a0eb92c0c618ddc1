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
#ifndef AT_CUBINS_H
#define AT_CUBINS_H

#include <stddef.h>

#include "base/error.h"

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
 * at_expand gives it) compiled as kernel kernels[i]. Queued in the open
 * transaction; committed every so many puts and on close. */
int at_cubins_put(at_cubins *c, const at_cubin_key *k, int n,
                  const char *const *srcs, const char *const *kernels,
                  const void *cubin, size_t size, at_err *e);
int at_cubins_flush(at_cubins *c, at_err *e);

#endif
