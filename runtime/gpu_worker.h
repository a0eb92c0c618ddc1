/* Tuning in a GPU worker process. A variant that faults (an illegal
 * address, a trap) leaves the CUDA context unusable, and one that never
 * finishes cannot be stopped from inside its process. So a tune's device
 * work runs in a process of its own: the autotune binary run as
 * `autotune __gpu-worker`, exec'd (a process whose CUDA is initialised
 * cannot fork a child that uses CUDA). It tunes and stores as the planner
 * would, and sends the answer back over a socket.
 *
 * When a variant faults or passes the kernel limit, the worker records it
 * in the cache's failed list and ends; the parent starts a new worker,
 * which leaves the failed variants out and tunes again (their compiled
 * variants come from the compiled-variant cache). The answer is the one
 * the space without those variants gives. */
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
 * (restarted after each failed variant, at most AT_WORKER_RESTARTS). */
enum { AT_WORKER_RESTARTS = 64 };
int at_worker_tune(const at_plan_env *env, const at_problem *p,
                   const at_tune_opts *o, at_plan *pl, at_err *e);

/* Worker: serves the request on descriptor 3; the process's exit status. */
int at_worker_main(void);

#endif
