/* A process-wide pool of big host buffers for a measurement's inputs and
 * references (measure_cases.c). An estimate on a cache miss fills and
 * uploads a problem's worth of them each call: fresh mallocs paid their
 * first-touch page faults every time and uploaded pageable at a few GB/s.
 * Pooled buffers are already resident, are 2 MiB aligned with transparent
 * huge pages asked for, and are page-locked (cuMemHostRegister) under the
 * context current when taken, so uploads from them run at DMA speed.
 * Registration is an optimisation only: without a driver (the CPU tests),
 * with no context current, or when it fails, buffers are used pageable.
 * Thread-safe. */
#ifndef AT_HOST_POOL_H
#define AT_HOST_POOL_H

#include <stddef.h>

#include "base/error.h"

/* Idle buffers kept, in bytes: the input and the reference of a 256 MiB
 * problem, the biggest an application's estimate path commonly sees.
 * Buffers given back beyond it are freed at once (the least recently
 * given idle ones first, so that the sizes in use now stay). */
#define AT_HOST_POOL_MAX ((size_t)512 << 20)

/* A buffer of at least bytes, whose contents are undefined: the smallest
 * idle one that fits, else a fresh one. NULL with AUTOTUNE_ENOMEM in e on
 * failure. If the driver is loaded and a context is current, a buffer
 * the pool could keep (within AT_HOST_POOL_MAX) is registered under that
 * context (again if it was registered under another one: a registration
 * dies with its context). */
void *at_host_take(size_t bytes, at_err *e);

/* Gives p (from at_host_take) back: kept idle within AT_HOST_POOL_MAX,
 * else unregistered and freed. NULL is a no-op. */
void at_host_give(void *p);

/* Frees every idle buffer, unregistering it under the context current
 * (or, with none current, the one it was registered under). Called by
 * autotune_destroy before it releases its context, while registrations
 * made under it can still be undone. */
void at_host_pool_trim(void);

/* The idle buffers and their bytes now (either pointer may be NULL): for
 * the tests. */
void at_host_pool_idle(size_t *buffers, size_t *bytes);

#endif
