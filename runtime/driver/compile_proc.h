/* A compile worker process. NVRTC compiles in parallel threads only so
 * far: on a 16-core host, 16 threads compiled 42 variants/s against 72/s
 * for 16 processes (docs/notes/gpu-log.md). So each thread of the pool
 * hands its jobs to a process of its own, forked when the pool starts,
 * over a socket pair. A worker that dies or hangs fails its job with a
 * message, and a new worker is forked for the next job: NVRTC never runs
 * in the tuner's own process. (Forking from a compile thread is safe
 * here: no thread of the tuner calls NVRTC, glibc's allocator and stdio
 * are fork-safe, and the child closes every descriptor but its socket.) */
#ifndef AT_COMPILE_PROC_H
#define AT_COMPILE_PROC_H

#include <sys/types.h>

#include "runtime/driver/driver.h"

typedef struct at_cproc {
    pid_t pid; /* 0: none (dead or never started) */
    int fd;
} at_cproc;

/* Forks a worker, which keeps only its socket and dies with its parent. */
int at_cproc_spawn(at_cproc *w, at_err *e);
/* As at_compile, in the worker. If the worker dies or outlives the time
 * limit by 5 s, it is killed, w->pid becomes 0, and the job fails with
 * AUTOTUNE_ECOMPILE saying so. */
int at_cproc_compile(at_cproc *w, const char *src, const char *variant,
                     const at_compile_opts *o, void **cubin, size_t *size,
                     at_err *e);
/* Ends the worker (end of file, then wait). */
void at_cproc_stop(at_cproc *w);

#endif
