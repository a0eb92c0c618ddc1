/* The inputs and references of a measurement: random input (PCG32, a
 * stream per case and per chunk, so it depends on the seed alone) and the
 * family's CPU reference, computed on every core for big problems. */
#include <pthread.h>
#include <unistd.h>

#include "base/pcg.h"
#include "runtime/driver/driver.h"
#include "runtime/measure/measure_impl.h"

/* Host work on big buffers, shared among threads: the random input, the
 * poisoned reference and the reference itself each take a fraction of a
 * second per 256 MiB on one core. */
typedef struct prep {
    const at_problem *p;
    unsigned char *in, *ref, *bound; /* ref: NULL without a CPU reference,
                                      * bound: also for an exact rule */
    size_t in_alloc, guarded;
    uint64_t seed, stream;
    int parts;
    int finite; /* AT_MEASURE_FINITE */
} prep;

/* Words [i, end) of a random input made finite normal floats of the
 * type's lane size: a NaN, infinite or subnormal exponent becomes the
 * exponent of 1. 2-byte lanes are made finite read as f16 (5 exponent
 * bits) and as bf16 (8): the second fix leaves the first's exponent
 * normal, and the lane size does not say which of the two the type is. */
static uint32_t finite_half(uint32_t h)
{
    uint32_t x = (h >> 10) & 0x1F;
    if (x == 0 || x == 0x1F)
        h = (h & ~(0x1Fu << 10)) | (15u << 10);
    x = (h >> 7) & 0xFF;
    if (x == 0 || x == 0xFF)
        h = (h & ~(0xFFu << 7)) | (127u << 7);
    return h;
}

static void make_finite(uint32_t *w, size_t i, size_t end, int fp)
{
    if (fp == 2) {
        for (; i < end; ++i)
            w[i] = finite_half(w[i] >> 16) << 16 | finite_half(w[i] & 0xFFFF);
    } else if (fp == 4) {
        for (; i < end; ++i) {
            uint32_t x = (w[i] >> 23) & 0xFF;
            if (x == 0 || x == 0xFF)
                w[i] = (w[i] & ~(0xFFu << 23)) | (127u << 23);
        }
    } else if (fp == 8) {
        for (i |= 1; i < end; i += 2) { /* the high word of each double */
            uint32_t x = (w[i] >> 20) & 0x7FF;
            if (x == 0 || x == 0x7FF)
                w[i] = (w[i] & ~(0x7FFu << 20)) | (1023u << 20);
        }
    }
}

enum { FILL_WORDS = 1 << 20 }; /* words per PCG stream */

static void prep_part(prep *w, int part)
{
    /* Input: chunk k of FILL_WORDS words from PCG stream (stream, k), so
     * the input depends on the seed alone, not on the thread count. */
    uint32_t *in = (uint32_t *)w->in;
    size_t words = w->in_alloc / 4;
    size_t chunks = (words + FILL_WORDS - 1) / FILL_WORDS;
    for (size_t k = (size_t)part; k < chunks; k += (size_t)w->parts) {
        at_pcg g;
        at_pcg_seed(&g, w->seed, w->stream * 65536 + k);
        size_t end = (k + 1) * FILL_WORDS < words ? (k + 1) * FILL_WORDS
                                                  : words;
        for (size_t i = k * FILL_WORDS; i < end; ++i)
            in[i] = at_pcg_next(&g);
        if (w->p->family->caps & AT_CAP_INPUT)
            w->p->family->ops.input(w->p, w->seed, w->stream, in,
                                    k * FILL_WORDS, end);
        else if (w->finite)
            make_finite(in, k * FILL_WORDS, end, w->p->type->fp);
    }
    uint32_t *ref = (uint32_t *)w->ref, *bound = (uint32_t *)w->bound;
    size_t rw = ref ? w->guarded / 4 : 0; /* no CPU reference: on the GPU */
    for (size_t i = rw * (size_t)part / (size_t)w->parts;
         i < rw * (size_t)(part + 1) / (size_t)w->parts; ++i) {
        ref[i] = AT_POISON;
        if (bound)
            bound[i] = 0; /* the guards: exact */
    }
}

static void ref_part(prep *w, int part)
{
    const at_family *f = w->p->family;
    int64_t n = f->ops.reference_parts(w->p);
    f->ops.reference(w->p, w->in, w->ref + AT_GUARD,
                 w->bound ? w->bound + AT_GUARD : NULL, n * part / w->parts,
                 n * (part + 1) / w->parts);
}

typedef struct prep_thread {
    prep *w;
    int part;
    void (*fn)(prep *, int);
} prep_thread;

static void *prep_main(void *arg)
{
    prep_thread *t = arg;
    t->fn(t->w, t->part);
    return NULL;
}

/* fn(w, part) for every part, on threads (part 0 on this one). */
static void prep_run(prep *w, void (*fn)(prep *, int))
{
    pthread_t th[64];
    prep_thread args[64];
    int started[64] = {0};
    for (int i = 1; i < w->parts; ++i) {
        args[i] = (prep_thread){w, i, fn};
        started[i] = pthread_create(&th[i], NULL, prep_main, &args[i]) == 0;
        if (!started[i])
            fn(w, i);
    }
    fn(w, 0);
    for (int i = 1; i < w->parts; ++i)
        if (started[i])
            pthread_join(th[i], NULL);
}

/* The case's device buffers: the output poisoned, the input and the
 * reference uploaded. Without a CPU reference (w->ref NULL) the reference
 * is poison and its bounds zeros until the device's reference is run
 * (measure_ref.c): set so on the device, with nothing made or copied. */
static int upload(at_case *c, const prep *w, int tol, at_err *e)
{
    const char *label = c->label;
    size_t words = w->guarded / 4;
    int rc;
    if ((rc = at_measure_alloc(&c->in, w->in_alloc, label, e)) ||
        (rc = at_measure_alloc(&c->out_alloc, w->guarded, label, e)) ||
        (rc = at_measure_alloc(&c->ref, w->guarded, label, e)) ||
        (tol && (rc = at_measure_alloc(&c->bound, w->guarded, label, e))))
        return rc;
    c->out = c->out_alloc + AT_GUARD;
    /* Poisoned once here; each check's comparison poisons it again. */
    CUresult r = at_cu.cuMemsetD32(c->out_alloc, AT_POISON, words);
    if (r != CUDA_SUCCESS)
        return at_cu_fail(e, r, "cuMemsetD32(poison)", label);
    if ((r = at_cu.cuMemcpyHtoD(c->in, w->in, w->in_alloc)) != CUDA_SUCCESS)
        return at_cu_fail(e, r, "cuMemcpyHtoD(random input)", label);
    if (!w->ref) {
        if ((r = at_cu.cuMemsetD32(c->ref, AT_POISON, words)) !=
            CUDA_SUCCESS)
            return at_cu_fail(e, r, "cuMemsetD32(poison reference)", label);
        if (tol && (r = at_cu.cuMemsetD32(c->bound, 0, words)) !=
                       CUDA_SUCCESS)
            return at_cu_fail(e, r, "cuMemsetD32(error bounds)", label);
    } else if ((r = at_cu.cuMemcpyHtoD(c->ref, w->ref, w->guarded)) !=
               CUDA_SUCCESS) {
        return at_cu_fail(e, r, "cuMemcpyHtoD(reference output)", label);
    } else if (tol && (r = at_cu.cuMemcpyHtoD(c->bound, w->bound,
                                              w->guarded)) != CUDA_SUCCESS) {
        return at_cu_fail(e, r, "cuMemcpyHtoD(error bounds)", label);
    }
    /* Memsets, and the last stretch of a pageable copy's DMA, may still
     * run on the default stream when these return: finish them before the
     * measurement's non-blocking stream reads the buffers (the device
     * reference, the rotation sets' copies). */
    if ((r = at_cu.cuCtxSynchronize()) != CUDA_SUCCESS)
        return at_cu_fail(e, r, "cuCtxSynchronize(uploads)", label);
    return 0;
}

/* Random input and the CPU reference, uploaded. */
int at_case_init(at_case *c, const at_problem *p, const char *label,
                     uint64_t seed, uint64_t stream, int finite, at_err *e)
{
    c->p = *p;
    c->label = label;
    int rc = 0;
    size_t in_alloc = at_whole_words(p->in_bytes);
    size_t guarded = at_whole_words(p->out_bytes) + 2 * AT_GUARD;
    const int tol = (p->family->caps & AT_CAP_TOLERANCE) != 0;
    const int cpu_ref = (p->family->caps & AT_CAP_CPU_REFERENCE) != 0;
    /* From the pool (runtime/driver/driver.h): resident and page-locked once used, so
     * neither first-touch faults nor pageable copies are paid each time. */
    unsigned char *in = at_host_take(in_alloc, NULL);
    unsigned char *ref = cpu_ref ? at_host_take(guarded, NULL) : NULL;
    unsigned char *bound = cpu_ref && tol ? at_host_take(guarded, NULL)
                                          : NULL;
    if (!in || (cpu_ref && (!ref || (tol && !bound)))) {
        rc = at_fail(e, AUTOTUNE_ENOMEM, "host buffers for %s (%zu + %zu "
                     "bytes)", label, in_alloc, guarded);
        goto out;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    prep w = {p, in, ref, bound, in_alloc, guarded, seed, stream, 1, finite};
    /* Threads for big buffers only: 1 per input chunk (4 MiB), at most
     * 64. On an H100 host (16 cores) 64 MiB took 14 ms filled and 9 ms
     * referenced on 8 threads, 8 and 5 on 16. */
    size_t by_size = p->in_bytes / (4 * (size_t)FILL_WORDS) + 1;
    w.parts = (int)(by_size < (size_t)cores ? by_size : (size_t)cores);
    if (w.parts > 64)
        w.parts = 64;
    if (w.parts < 1)
        w.parts = 1;
    prep_run(&w, prep_part);
    if (cpu_ref) /* else on the device (measure_ref.c) */
        prep_run(&w, ref_part);
    rc = upload(c, &w, tol, e);
out:
    /* Free to reuse: a copy from pinned memory is complete when it
     * returns, one from pageable memory has been staged. */
    at_host_give(in);
    at_host_give(ref);
    at_host_give(bound);
    return rc;
}

void at_case_free(at_case *c)
{
    if (c->in)
        at_cu.cuMemFree(c->in);
    if (c->out_alloc)
        at_cu.cuMemFree(c->out_alloc);
    if (c->ref)
        at_cu.cuMemFree(c->ref);
    if (c->bound)
        at_cu.cuMemFree(c->bound);
    c->in = c->out_alloc = c->out = c->ref = c->bound = 0;
}

