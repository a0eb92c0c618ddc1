/* Tuning in a GPU worker process. A variant that faults (an illegal
 * address, a trap) leaves the CUDA context unusable, and one that never
 * finishes cannot be stopped from inside its process. So a tune's device
 * work runs in a process of its own: the autotune binary run as
 * `autotune __gpu-worker`, exec'd (a process whose CUDA is initialised
 * cannot fork a child that uses CUDA). It tunes and stores as the planner
 * would, and sends the answer back over a socket.
 *
 * The worker tells the tuner each point's outcome as it is known. When a
 * variant faults or passes the kernel limit (a fault of the GPU's
 * context), the worker records it in the cache's failed list and ends;
 * the tuner starts a new worker with every outcome so far, which takes
 * them as they were and goes on from there: nothing is evaluated twice,
 * and the answer is the one the space without the failed variants gives.
 * A launch the driver refuses (too many threads for the registers, too
 * much shared memory) is the variant's own: it fails in the same worker,
 * which goes on. */
#ifndef AT_GPU_WORKER_H
#define AT_GPU_WORKER_H

#include "plan.h"

/* The worker binary: AUTOTUNE_WORKER if set ("none": tune in this
 * process, without isolation), else what at_worker_set_path gave (the
 * command line gives itself), else the autotune built beside this
 * library (AT_WORKER_DEFAULT). NULL: in this process. */
const char *at_worker_path(void);
void at_worker_set_path(const char *path);

/* Parent: pl as at_plan's tuning would give it, tuned in worker processes
 * (a new one after each variant that faults or hangs, at most
 * AT_WORKER_RESTARTS, each resuming the last). */
enum { AT_WORKER_RESTARTS = 64 };
int at_worker_tune(const at_plan_env *env, const at_problem *p,
                   const at_tune_opts *o, at_plan *pl, at_err *e);

/* Worker: serves the request on descriptor 3; the process's exit status. */
int at_worker_main(void);

#endif
