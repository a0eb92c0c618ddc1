/* CUB as the reduction benchmark's contender: templates/reduce_cub.cu
 * built by nvcc (CUB needs it) into a shared library per element type and
 * op (all a run needs at once, or on first use), in a temporary folder,
 * loaded with dlopen and then removed from the folder. Where nvcc is
 * absent the row is skipped with that note. */
#ifndef AT_REDUCE_CUB_H
#define AT_REDUCE_CUB_H

#include <stdio.h>

#include "runtime/driver/driver.h"

typedef struct at_cub at_cub;

/* Finds nvcc ($AUTOTUNE_NVCC, $CUDA_HOME/bin, /usr/local/cuda/bin, PATH)
 * and makes the folder; AUTOTUNE_ENOT_FOUND naming where it looked. */
int at_cub_open(at_cub **c, const at_device *d, at_err *e);
void at_cub_close(at_cub *c);
/* "CUB via nvcc at PATH". */
const char *at_cub_version(const at_cub *c);
/* Why CUB cannot run p (down columns: it has no such reduction), or NULL. */
const char *at_cub_cannot(const at_problem *p);
/* Builds the libraries the problems ps will need and are not loaded yet
 * (one per type and op), jobs nvcc processes at a time (0: one a core),
 * and loads them; a line on log (NULL: none) before and after. A build
 * that fails is left for at_cub_prepare to try again and report. The
 * number built. */
int at_cub_build_ahead(at_cub *c, const at_problem *const *ps, int n,
                       int jobs, FILE *log);
/* Builds (where not built ahead) and loads p's library and sizes its
 * temporary storage. */
int at_cub_prepare(at_cub *c, const at_problem *p, at_err *e);
/* One run of p (after at_cub_prepare). */
int at_cub_run(at_cub *c, const at_problem *p, CUdeviceptr in,
               CUdeviceptr out, CUstream s, at_err *e);

#endif
