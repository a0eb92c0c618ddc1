#include "bench.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../gen/templates.h"
#include "../search/pcg.h"
#include "compile.h"

/* Rotation sets for timing: enough that one round moves three L2 caches,
 * up to this many. */
enum { MAX_SETS = 1024 };
/* Poisoned bytes on each side of every checked output: a write just past
 * either end is caught as well as one into the padding. */
enum { GUARD = 4096 };

/* A problem with device buffers: input, output (inside its guards), and
 * the expected output with the same guards. */
typedef struct case_ {
    at_problem p;
    const char *label;
    CUdeviceptr in, out_alloc, ref, out; /* out = out_alloc + GUARD */
} case_;

/* The odd shapes every variant must also get right: primes, a multiple of
 * no tile size, with wider leading dimensions: odd ones (the element path
 * everywhere) and multiples of 32 elements (vector path, packed words and
 * edge tiles together); and batches with strides wider than the matrices,
 * of edge tiles only and of whole tiles and edges. */
static const struct {
    int64_t rows, cols, ld_in, ld_out, batch, stride_in, stride_out;
    const char *label;
} odd_shapes[] = {
    {211, 379, 383, 223, 1, 0, 0, "odd shape 211x379 ld 383/223"},
    {211, 379, 384, 224, 1, 0, 0, "odd shape 211x379 ld 384/224"},
    {37, 53, 64, 48, 3, 37 * 64 + 16, 53 * 48 + 32,
     "batch 3 of 37x53 ld 64/48 strides 2384/2576"},
    {96, 160, 176, 112, 4, 96 * 176 + 32, 160 * 112 + 16,
     "batch 4 of 96x160 ld 176/112 strides 16928/17936"},
};
enum { N_CASES = 1 + sizeof odd_shapes / sizeof odd_shapes[0] };

struct at_bench {
    const at_device *d;
    case_ cases[N_CASES]; /* the problem, then the odd shapes */
    int sets;             /* rotation sets for timing */
    int past_l2;          /* 1 if a round of sets is at least two L2 caches */
    CUdeviceptr *in_set, *out_set;
    CUmodule check_mod;
    CUfunction compare;
    CUdeviceptr bad; /* per case 2 x u64: mismatch count, first word */
    CUstream stream;
    CUevent start, stop;
};

static int alloc(CUdeviceptr *p, size_t n, const char *what, at_err *e)
{
    CUresult r = at_cu.cuMemAlloc(p, n);
    if (r != CUDA_SUCCESS) {
        *p = 0;
        char call[96];
        snprintf(call, sizeof call, "cuMemAlloc(%zu bytes for %s)", n, what);
        return at_cu_fail(e, r, call, NULL);
    }
    return 0;
}

/* bytes rounded up to whole 32-bit words: the input is filled and the
 * output compared a word at a time (the bytes past the matrix's end are
 * poison like the guards). */
static size_t whole_words(size_t bytes)
{
    return (bytes + 3) & ~(size_t)3;
}

static size_t out_words_bytes(const at_problem *p)
{
    return whole_words(p->out_bytes);
}

/* Host work on big buffers, shared among threads: the random input, the
 * poisoned reference and the reference itself each take a fraction of a
 * second per 256 MiB on one core. */
typedef struct prep {
    const at_problem *p;
    unsigned char *in, *ref;
    size_t in_alloc, guarded;
    uint64_t seed, stream;
    int parts;
    int finite; /* AT_BENCH_FINITE */
} prep;

/* Words [i, end) of a random input made finite normal floats of the
 * type's lane size: a NaN, infinite or subnormal exponent becomes the
 * exponent of 1. */
static void make_finite(uint32_t *w, size_t i, size_t end, int fp)
{
    if (fp == 4) {
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
        if (w->finite)
            make_finite(in, k * FILL_WORDS, end, w->p->type->fp);
    }
    uint32_t *ref = (uint32_t *)w->ref;
    size_t rw = w->guarded / 4;
    for (size_t i = rw * (size_t)part / (size_t)w->parts;
         i < rw * (size_t)(part + 1) / (size_t)w->parts; ++i)
        ref[i] = AT_POISON;
}

static void ref_part(prep *w, int part)
{
    int64_t rows = w->p->rows * w->p->batch;
    w->p->family->reference(w->p, w->in, w->ref + GUARD,
                            rows * part / w->parts,
                            rows * (part + 1) / w->parts);
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

/* Random input and the CPU reference, uploaded. */
static int case_init(case_ *c, const at_problem *p, const char *label,
                     uint64_t seed, uint64_t stream, int finite, at_err *e)
{
    c->p = *p;
    c->label = label;
    int rc = 0;
    size_t in_alloc = whole_words(p->in_bytes);
    size_t guarded = out_words_bytes(p) + 2 * GUARD;
    unsigned char *in = malloc(in_alloc), *ref = malloc(guarded);
    if (!in || !ref) {
        rc = at_fail(e, AUTOTUNE_ENOMEM, "host buffers for %s (%zu + %zu "
                     "bytes)", label, in_alloc, guarded);
        goto out;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    prep w = {p, in, ref, in_alloc, guarded, seed, stream, 1, finite};
    /* Threads for big buffers only: 1 per 8 MiB, at most 64. */
    size_t by_size = p->in_bytes / (8u << 20) + 1;
    w.parts = (int)(by_size < (size_t)cores ? by_size : (size_t)cores);
    if (w.parts > 64)
        w.parts = 64;
    if (w.parts < 1)
        w.parts = 1;
    prep_run(&w, prep_part);
    prep_run(&w, ref_part);
    if ((rc = alloc(&c->in, in_alloc, label, e)) ||
        (rc = alloc(&c->out_alloc, guarded, label, e)) ||
        (rc = alloc(&c->ref, guarded, label, e)))
        goto out;
    c->out = c->out_alloc + GUARD;
    /* Poisoned once here; each check's comparison poisons it again. */
    CUresult r = at_cu.cuMemsetD32(c->out_alloc, AT_POISON, guarded / 4);
    if (r != CUDA_SUCCESS) {
        rc = at_cu_fail(e, r, "cuMemsetD32(poison)", label);
        goto out;
    }
    r = at_cu.cuMemcpyHtoD(c->in, in, in_alloc);
    if (r != CUDA_SUCCESS)
        rc = at_cu_fail(e, r, "cuMemcpyHtoD(random input)", label);
    else if ((r = at_cu.cuMemcpyHtoD(c->ref, ref, guarded)) != CUDA_SUCCESS)
        rc = at_cu_fail(e, r, "cuMemcpyHtoD(reference output)", label);
out:
    free(in);
    free(ref);
    return rc;
}

static void case_free(case_ *c)
{
    if (c->in)
        at_cu.cuMemFree(c->in);
    if (c->out_alloc)
        at_cu.cuMemFree(c->out_alloc);
    if (c->ref)
        at_cu.cuMemFree(c->ref);
    c->in = c->out_alloc = c->out = c->ref = 0;
}

/* The comparison kernel, from the compiled-variant cache if it has it. */
static int load_compare(at_bench *b, at_cubins *cache, at_err *e)
{
    void *cubin = NULL;
    size_t size = 0;
    at_compile_opts co = {.sm = b->d->sm};
    char opts[128];
    at_compile_options_text(&co, opts, sizeof opts);
    at_cubin_key key = {co.sm, b->d->nvrtc, opts};
    at_err warn = {0};
    char kernel[AT_KERNEL_NAME];
    int rc = cache ? at_cubins_get(cache, &key, at_tmpl_check, &cubin, &size,
                                   kernel, &warn)
                   : 0;
    if (rc < 0)
        return at_fail(e, rc, "%s", warn.msg);
    if (rc == 0) {
        if ((rc = at_compile(at_tmpl_check, "check.cu", &co, &cubin, &size,
                             e)))
            return rc;
        const char *srcs[] = {at_tmpl_check}, *kernels[] = {"at_compare"};
        if (cache && (rc = at_cubins_put(cache, &key, 1, srcs, kernels,
                                         cubin, size, e))) {
            free(cubin);
            return rc;
        }
    }
    CUresult r = at_cu.cuModuleLoadData(&b->check_mod, cubin);
    free(cubin);
    if (r != CUDA_SUCCESS)
        return at_cu_fail(e, r, "cuModuleLoadData", "check.cu");
    AT_CU_TRY(e, "check.cu", cuModuleGetFunction, &b->compare, b->check_mod,
              "at_compare");
    return 0;
}

int at_bench_create(at_bench **out, const at_device *d, const at_problem *p,
                    uint64_t seed, unsigned flags, at_cubins *cache,
                    at_err *e)
{
    const int warm_l2 = (flags & AT_BENCH_WARM_L2) != 0;
    const int finite = (flags & AT_BENCH_FINITE) != 0;
    at_bench *b = calloc(1, sizeof *b);
    if (!b)
        return at_fail(e, AUTOTUNE_ENOMEM, "bench");
    b->d = d;
    *out = b;
    int rc;
    AT_CU_TRY(e, NULL, cuStreamCreate, &b->stream, CU_STREAM_NON_BLOCKING);
    AT_CU_TRY(e, NULL, cuEventCreate, &b->start, CU_EVENT_DEFAULT);
    AT_CU_TRY(e, NULL, cuEventCreate, &b->stop, CU_EVENT_DEFAULT);
    if ((rc = alloc(&b->bad, 16 * N_CASES, "mismatch counters", e)) ||
        (rc = load_compare(b, cache, e)))
        return rc;

    if ((rc = case_init(&b->cases[0], p, "the problem", seed, 0, finite,
                        e)))
        return rc;
    for (int k = 1; k < N_CASES; ++k) {
        autotune_problem u = {p->family->name, p->type->name,
                              odd_shapes[k - 1].rows, odd_shapes[k - 1].cols,
                              odd_shapes[k - 1].ld_in,
                              odd_shapes[k - 1].ld_out,
                              odd_shapes[k - 1].batch,
                              odd_shapes[k - 1].stride_in,
                              odd_shapes[k - 1].stride_out};
        at_problem odd;
        if ((rc = at_problem_init(&odd, &u, e)) ||
            (rc = case_init(&b->cases[k], &odd, odd_shapes[k - 1].label,
                            seed, (uint64_t)k, finite, e)))
            return rc;
    }

    /* Enough sets that the inputs and outputs of one round of launches are
     * three L2 caches, so no launch finds its input in L2. */
    size_t per_set = p->in_bytes + p->out_bytes;
    size_t want = warm_l2 ? 1 : 3 * (size_t)d->l2_bytes / per_set + 1;
    b->sets = want > MAX_SETS ? MAX_SETS : (int)want;
    /* Below two L2 caches a round may still be served largely from L2. */
    b->past_l2 = (size_t)b->sets * per_set >= 2 * (size_t)d->l2_bytes;
    b->in_set = calloc((size_t)b->sets, sizeof *b->in_set);
    b->out_set = calloc((size_t)b->sets, sizeof *b->out_set);
    if (!b->in_set || !b->out_set)
        return at_fail(e, AUTOTUNE_ENOMEM, "rotation sets");
    /* Inputs are only read: set 0 is the checked input. Outputs are
     * apart from the checked output, which must stay poisoned between
     * checks. */
    b->in_set[0] = b->cases[0].in;
    for (int s = 0; s < b->sets; ++s) {
        if ((rc = alloc(&b->out_set[s], p->out_bytes, "rotation set", e)))
            return rc;
        if (s == 0)
            continue;
        if ((rc = alloc(&b->in_set[s], p->in_bytes, "rotation set", e)))
            return rc;
        AT_CU_TRY(e, "rotation set", cuMemcpyDtoD, b->in_set[s],
                  b->cases[0].in, p->in_bytes);
    }
    /* The uploads and copies above are not ordered with the bench's
     * non-blocking stream: finish them before anything reads them. */
    AT_CU_TRY(e, NULL, cuCtxSynchronize);
    return 0;
}

void at_bench_destroy(at_bench *b)
{
    if (!b)
        return;
    for (int s = 0; s < b->sets && b->in_set && b->out_set; ++s) {
        if (s > 0 && b->in_set[s])
            at_cu.cuMemFree(b->in_set[s]);
        if (b->out_set[s])
            at_cu.cuMemFree(b->out_set[s]);
    }
    free(b->in_set);
    free(b->out_set);
    for (int k = 0; k < N_CASES; ++k)
        case_free(&b->cases[k]);
    if (b->bad)
        at_cu.cuMemFree(b->bad);
    if (b->check_mod)
        at_cu.cuModuleUnload(b->check_mod);
    if (b->start)
        at_cu.cuEventDestroy(b->start);
    if (b->stop)
        at_cu.cuEventDestroy(b->stop);
    if (b->stream)
        at_cu.cuStreamDestroy(b->stream);
    free(b);
}

int at_bench_sets(const at_bench *b) { return b->sets; }

int at_bench_past_l2(const at_bench *b) { return b->past_l2; }

int at_bench_prepare(const at_problem *p, const at_point *pt, CUfunction fn,
                     const char *variant, at_err *e)
{
    at_launch g;
    p->family->launch(p, pt, &g);
    AT_CU_TRY(e, variant, cuFuncSetAttribute, fn,
              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)g.smem);
    return 0;
}

int at_launch_variant(const at_problem *p, const at_point *pt, CUfunction fn,
                      CUdeviceptr in, CUdeviceptr out, CUstream stream,
                      const char *variant, at_err *e)
{
    at_launch g;
    at_args a;
    p->family->launch(p, pt, &g);
    p->family->args(p, in, out, &a);
    AT_CU_TRY(e, variant, cuLaunchKernel, fn, g.grid[0], g.grid[1],
              g.grid[2], g.block[0], g.block[1], g.block[2], g.smem, stream,
              a.ptr, NULL);
    return 0;
}

/* What is checked or timed: a kernel variant at a point (on any case's
 * problem), or an operation of the caller's (on the problem only). */
typedef struct runner {
    const at_point *pt;
    CUfunction fn;
    at_bench_op op;
    void *ctx;
    const char *name;
} runner;

static int run_once(at_bench *b, const runner *r, const at_problem *p,
                    CUdeviceptr in, CUdeviceptr out, at_err *e)
{
    if (r->op)
        return r->op(r->ctx, in, out, b->stream, e);
    return at_launch_variant(p, r->pt, r->fn, in, out, b->stream, r->name, e);
}

/* Queues the check of one case: the runner into the poisoned output, the
 * comparison into the case's counters (which poisons the output again). */
static int queue_case(at_bench *b, int k, const runner *run, at_err *e)
{
    case_ *c = &b->cases[k];
    const at_problem *p = &c->p;
    size_t words = (out_words_bytes(p) + 2 * GUARD) / 4;
    CUdeviceptr bad = b->bad + 16 * (size_t)k;
    int rc = run_once(b, run, p, c->in, c->out, e);
    if (rc)
        return rc;
    AT_CU_TRY(e, run->name, cuMemsetD32Async, bad, 0, 2, b->stream);
    AT_CU_TRY(e, run->name, cuMemsetD32Async, bad + 8, 0xFFFFFFFFu, 2,
              b->stream);
    unsigned long long n = words;
    unsigned poison = AT_POISON;
    void *args[] = {&c->out_alloc, &c->ref, &n, &bad, &poison};
    unsigned grid = (unsigned)((words + 255) / 256);
    if (grid > (unsigned)b->d->sms * 16)
        grid = (unsigned)b->d->sms * 16;
    AT_CU_TRY(e, run->name, cuLaunchKernel, b->compare, grid, 1, 1, 256, 1,
              1, 0, b->stream, args, NULL);
    return 0;
}

/* "out[3][7]", or "out[z][3][7]" in a batch, for an element index. */
static void where_elem(const at_problem *p, size_t elem, char *buf, size_t n)
{
    size_t z = elem / (size_t)p->stride_out, rem = elem % (size_t)p->stride_out;
    if (p->batch > 1)
        snprintf(buf, n, "out[%zu][%zu][%zu]", z, rem / (size_t)p->ld_out,
                 rem % (size_t)p->ld_out);
    else
        snprintf(buf, n, "out[%zu][%zu]", rem / (size_t)p->ld_out,
                 rem % (size_t)p->ld_out);
}

/* Says where case k went wrong (bad: its counters). */
static int report(at_bench *b, int k, const runner *run,
                  const unsigned long long *bad, at_err *e)
{
    case_ *c = &b->cases[k];
    const at_problem *p = &c->p;
    size_t words = (out_words_bytes(p) + 2 * GUARD) / 4;
    size_t byte = (size_t)bad[1] * 4;
    unsigned got = 0, want = 0;
    const char *variant = run->name;
    /* The comparison poisoned the output again: run once more to read
     * what was written there, then poison it back. */
    int rc = run_once(b, run, p, c->in, c->out, e);
    if (rc)
        return rc;
    AT_CU_TRY(e, variant, cuStreamSynchronize, b->stream);
    AT_CU_TRY(e, variant, cuMemcpyDtoH, &got, c->out_alloc + byte, 4);
    AT_CU_TRY(e, variant, cuMemsetD32, c->out_alloc, AT_POISON, words);
    AT_CU_TRY(e, variant, cuMemcpyDtoH, &want, c->ref + byte, 4);
    char where[96];
    if (byte < GUARD || byte >= GUARD + p->out_bytes) {
        snprintf(where, sizeof where, "%zu bytes %s the output buffer",
                 byte < GUARD ? GUARD - byte : byte - GUARD - p->out_bytes,
                 byte < GUARD ? "before" : "past the end of");
    } else {
        where_elem(p, (byte - GUARD) / (size_t)p->type->bytes, where,
                   sizeof where);
    }
    char shape[96] = "";
    if (p->batch > 1)
        snprintf(shape, sizeof shape, "%lld x ", (long long)p->batch);
    return at_fail(e, AUTOTUNE_EWRONG,
                   "wrong answer [variant %s] on %s (%s%lldx%lld %s): %llu of "
                   "%zu words differ, first at %s: got 0x%08x, want "
                   "0x%08x%s",
                   variant, c->label, shape, (long long)p->rows,
                   (long long)p->cols, p->type->name, bad[0], words, where,
                   got, want,
                   want == AT_POISON ? " (written outside the matrix)" : "");
}

/* Checks run on cases [0, n): every case queued, then one wait: a
 * kernel's own fault (illegal address, ...) surfaces there. */
static int verify(at_bench *b, const runner *run, int n, at_err *e)
{
    for (int k = 0; k < n; ++k) {
        int rc = queue_case(b, k, run, e);
        if (rc)
            return rc;
    }
    unsigned long long bad[2 * N_CASES];
    AT_CU_TRY(e, run->name, cuStreamSynchronize, b->stream);
    AT_CU_TRY(e, run->name, cuMemcpyDtoH, bad, b->bad,
              sizeof bad[0] * 2 * (size_t)n);
    for (int k = 0; k < n; ++k)
        if (bad[2 * k])
            return report(b, k, run, &bad[2 * k], e);
    return 0;
}

int at_bench_verify(at_bench *b, const at_point *pt, CUfunction fn,
                    const char *variant, at_err *e)
{
    runner r = {pt, fn, NULL, NULL, variant};
    return verify(b, &r, N_CASES, e);
}

int at_bench_verify_op(at_bench *b, at_bench_op op, void *ctx,
                       const char *name, at_err *e)
{
    runner r = {NULL, NULL, op, ctx, name};
    return verify(b, &r, 1, e);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The device-to-device copy of the problem's elements, as an op. */
static int op_copy(void *ctx, CUdeviceptr in, CUdeviceptr out, CUstream s,
                   at_err *e)
{
    const at_problem *p = ctx;
    size_t bytes = (size_t)at_problem_elems(p) * (size_t)p->type->bytes;
    AT_CU_TRY(e, "device-to-device copy", cuMemcpyDtoDAsync, out, in, bytes,
              s);
    return 0;
}

/* One run on the problem's next rotation set (*s counts them). */
static int run_next_set(at_bench *b, const runner *run, int *s, at_err *e)
{
    int k = (*s)++ % b->sets;
    return run_once(b, run, &b->cases[0].p, b->in_set[k], b->out_set[k], e);
}

/* One sample: per launches between two events. A kernel's own fault
 * surfaces at cuEventSynchronize. */
static int sample(at_bench *b, const runner *run, int per, int *s, float *ms,
                  at_err *e)
{
    const char *variant = run->name;
    AT_CU_TRY(e, variant, cuEventRecord, b->start, b->stream);
    for (int i = 0; i < per; ++i) {
        int rc = run_next_set(b, run, s, e);
        if (rc)
            return rc;
    }
    AT_CU_TRY(e, variant, cuEventRecord, b->stop, b->stream);
    AT_CU_TRY(e, variant, cuEventSynchronize, b->stop);
    AT_CU_TRY(e, variant, cuEventElapsedTime, ms, b->start, b->stop);
    return 0;
}

/* Racing: a variant whose first samples are all clearly slower than the
 * cutoff cannot lead, and stops there; its few samples are its time. One
 * sample must be 10% slower, two 3% (samples spread well under 1%). */
static int raced(const double *x, int k, double cutoff_ms)
{
    static const double margin[] = {0, 1.10, 1.03};
    if (cutoff_ms <= 0 || k > AT_QUICK_SAMPLES)
        return 0;
    for (int q = 0; q < k; ++q)
        if (x[q] <= margin[k] * cutoff_ms)
            return 0;
    return 1;
}

static int time_run(at_bench *b, const runner *run, int samples,
                    double cutoff_ms, int warm, at_timing *t, at_err *e)
{
    int rc, s = 0;
    float ms = 0;
    /* Warm-up (unless it has just run), then one timed round over the
     * sets to size the samples. */
    if (!warm && (rc = run_next_set(b, run, &s, e)))
        return rc;
    if ((rc = sample(b, run, b->sets, &s, &ms, e)))
        return rc;
    double one = ms / b->sets;
    /* Each sample at least AT_SAMPLE_MS, so event resolution and launch
     * gaps are small beside it; at least one full round of the sets. */
    int per = one > 0 ? (int)(AT_SAMPLE_MS / one) + 1 : 1000;
    if (per < b->sets)
        per = b->sets;
    if (per > 1000)
        per = 1000;
    double *x = malloc((size_t)samples * sizeof *x);
    if (!x)
        return at_fail(e, AUTOTUNE_ENOMEM, "timing samples");
    int k = 0;
    if (per == b->sets) { /* the sizing round was a sample like the others */
        x[k++] = (double)ms / per;
        if (raced(x, k, cutoff_ms))
            samples = k;
    }
    for (; k < samples; ++k) {
        rc = sample(b, run, per, &s, &ms, e);
        if (rc) {
            free(x);
            return rc;
        }
        x[k] = (double)ms / per;
        if (raced(x, k + 1, cutoff_ms)) {
            ++k;
            break;
        }
    }
    qsort(x, (size_t)k, sizeof *x, cmp_double);
    t->samples = k;
    t->launches_per_sample = per;
    t->min_ms = x[0];
    t->max_ms = x[k - 1];
    t->median_ms = k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2;
    free(x);
    return 0;
}

int at_bench_time(at_bench *b, const at_point *pt, CUfunction fn,
                  const char *variant, int samples, double cutoff_ms,
                  int warm, at_timing *t, at_err *e)
{
    runner r = {pt, fn, NULL, NULL, variant};
    return time_run(b, &r, samples, cutoff_ms, warm, t, e);
}

int at_bench_time_copy(at_bench *b, int samples, at_timing *t, at_err *e)
{
    runner r = {NULL, NULL, op_copy, &b->cases[0].p, "device-to-device copy"};
    return time_run(b, &r, samples, 0, 0, t, e);
}

int at_bench_time_op(at_bench *b, at_bench_op op, void *ctx,
                     const char *name, int samples, at_timing *t, at_err *e)
{
    runner r = {NULL, NULL, op, ctx, name};
    return time_run(b, &r, samples, 0, 0, t, e);
}
