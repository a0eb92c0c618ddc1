/* The pool of host buffers (runtime/driver/driver.h): idle buffers on a list, the
 * most recently given first; buffers taken on another, to find their size
 * and registration when given back. Driver calls run outside the lock:
 * registering a big buffer pins every page and takes milliseconds. */
#include "runtime/driver/driver.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>


/* Transparent huge page size: fresh buffers are aligned to it and sized
 * in whole ones, so every page of them can be a huge one. */
#define HUGE_PAGE ((size_t)2 << 20)

typedef struct buf {
    struct buf *next;
    void *p;
    size_t size;
    CUcontext ctx; /* registered under it; NULL: pageable */
} buf;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static buf *idle, *taken;
static size_t idle_count, idle_bytes;

/* Undoes b's registration. 1 if b is no longer registered (the driver
 * said so, or its context or the driver is gone, taking it along); 0 if
 * it may still be, and b's memory must not be freed: the driver could
 * read a later allocation at that address through the stale pages. */
static int unpin(buf *b)
{
    if (!b->ctx)
        return 1;
    CUcontext cur = NULL, popped;
    CUresult r = at_cu.cuCtxGetCurrent(&cur);
    int pushed = 0;
    if (r == CUDA_SUCCESS && !cur) {
        /* trim from autotune_destroy: no context current, but the one
         * registered under is still retained. */
        r = at_cu.cuCtxPushCurrent(b->ctx);
        pushed = r == CUDA_SUCCESS;
        if (r == CUDA_ERROR_INVALID_CONTEXT)
            r = CUDA_ERROR_CONTEXT_IS_DESTROYED; /* b->ctx, not cur */
    }
    if (r == CUDA_SUCCESS)
        r = at_cu.cuMemHostUnregister(b->p);
    if (pushed) {
        /* Cannot fail after this thread's own push; were it to, nothing
         * here could mend the thread's context stack. */
        CUresult pop = at_cu.cuCtxPopCurrent(&popped);
        (void)pop;
    }
    if (r == CUDA_SUCCESS || r == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED ||
        r == CUDA_ERROR_CONTEXT_IS_DESTROYED || r == CUDA_ERROR_DEINITIALIZED)
        b->ctx = NULL;
    return b->ctx == NULL;
}

/* Registers b under the current context, if the driver is loaded (never
 * loading it) and one is current and b is not registered under it. */
static void pin(buf *b)
{
    CUcontext cur = NULL;
    if (!at_cu_ready() || at_cu.cuCtxGetCurrent(&cur) != CUDA_SUCCESS ||
        !cur || cur == b->ctx)
        return;
    if (!unpin(b))
        return; /* still registered, portable: usable in cur as it is */
    CUresult r = at_cu.cuMemHostRegister(b->p, b->size,
                                         CU_MEMHOSTREGISTER_PORTABLE);
    /* A failure (a memlock limit, little memory left) is tolerated: the
     * buffer is used pageable, its copies only slower. */
    b->ctx = r == CUDA_SUCCESS ? cur : NULL;
}

/* Frees a list of buffers, each unregistered first; one that may still be
 * registered is left allocated (unpin says why). */
static void release(buf *b)
{
    while (b) {
        buf *next = b->next;
        if (unpin(b))
            free(b->p);
        free(b);
        b = next;
    }
}

static buf *fresh(size_t bytes, at_err *e)
{
    if (bytes > SIZE_MAX - HUGE_PAGE) {
        at_fail(e, AUTOTUNE_ENOMEM, "host buffer of %zu bytes", bytes);
        return NULL;
    }
    size_t size = bytes ? (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1)
                        : HUGE_PAGE;
    buf *b = calloc(1, sizeof *b);
    void *p = NULL;
    if (!b || posix_memalign(&p, HUGE_PAGE, size) != 0) {
        free(b);
        at_fail(e, AUTOTUNE_ENOMEM, "host buffer of %zu bytes", size);
        return NULL;
    }
    /* First touch then faults in 2 MiB at a time, not 4 KiB; where
     * transparent huge pages are off this fails, harmlessly. */
    (void)madvise(p, size, MADV_HUGEPAGE);
    b->p = p;
    b->size = size;
    return b;
}

void *at_host_take(size_t bytes, at_err *e)
{
    pthread_mutex_lock(&mu);
    buf **best = NULL;
    for (buf **q = &idle; *q; q = &(*q)->next)
        if ((*q)->size >= bytes && (!best || (*q)->size < (*best)->size))
            best = q;
    buf *b = NULL;
    if (best) {
        b = *best;
        *best = b->next;
        idle_count--;
        idle_bytes -= b->size;
        b->next = taken;
        taken = b;
    }
    pthread_mutex_unlock(&mu);
    if (!b) {
        if (!(b = fresh(bytes, e)))
            return NULL;
        pthread_mutex_lock(&mu);
        b->next = taken;
        taken = b;
        pthread_mutex_unlock(&mu);
    }
    /* b is the caller's alone until given back. One too big to be kept
     * is not pinned: pinning it would cost about what it saves once. */
    if (b->size <= AT_HOST_POOL_MAX)
        pin(b);
    return b->p;
}

void at_host_give(void *p)
{
    if (!p)
        return;
    buf *drop = NULL;
    pthread_mutex_lock(&mu);
    buf **q = &taken;
    while (*q && (*q)->p != p)
        q = &(*q)->next;
    if (!*q) {
        pthread_mutex_unlock(&mu);
        fprintf(stderr, "autotune: at_host_give(%p): not a taken host "
                "buffer\n", p);
        abort(); /* as free() does on a double free */
    }
    buf *b = *q;
    *q = b->next;
    if (b->size > AT_HOST_POOL_MAX) {
        b->next = NULL;
        drop = b;
    } else {
        /* The least recently given idle buffers make room: the sizes
         * asked for now are the likeliest next. */
        while (idle_bytes + b->size > AT_HOST_POOL_MAX) {
            buf **last = &idle;
            while ((*last)->next)
                last = &(*last)->next;
            buf *old = *last;
            *last = NULL;
            idle_count--;
            idle_bytes -= old->size;
            old->next = drop;
            drop = old;
        }
        b->next = idle;
        idle = b;
        idle_count++;
        idle_bytes += b->size;
    }
    pthread_mutex_unlock(&mu);
    release(drop);
}

void at_host_pool_trim(void)
{
    pthread_mutex_lock(&mu);
    buf *all = idle;
    idle = NULL;
    idle_count = idle_bytes = 0;
    pthread_mutex_unlock(&mu);
    release(all);
}

void at_host_pool_idle(size_t *buffers, size_t *bytes)
{
    pthread_mutex_lock(&mu);
    if (buffers)
        *buffers = idle_count;
    if (bytes)
        *bytes = idle_bytes;
    pthread_mutex_unlock(&mu);
}
