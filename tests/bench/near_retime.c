/* Nearest-size reuse as a user sees it (issue 12): AUTOTUNE_ESTIMATE on a
 * miss reuses the point of the nearest tuned problems; the target is that
 * point's time within 5% of the tuned optimum's, averaged over 30 sizes or
 * more. near_quality judges it from exhaustive records, unfairly both
 * ways: a non-leading point's time there is one raced sample (+-4%,
 * spikes), the optimum a minimum of 1840 of them (biased low). Here both
 * kernels are timed alike through the public API. For each transpose entry
 * of a cache of exhaustive tunes (tests/gpu/near_sweep.sh): a copy of the
 * cache without it answers the estimate, the whole cache the tuned kernel;
 * both are timed interleaved on one stream, in rounds of L launches (a
 * round about ROUND_MS) rotating over buffer pairs that pass three L2
 * caches (at most MAX_SETS pairs), the median round of each. The tuned
 * kernel runs twice a round: the second, a control, gives the noise floor.
 * Usage: near_retime CACHE.db [N_ROUNDS]; 77 without a GPU. Nothing else
 * may write CACHE.db meanwhile (it is copied, its -wal too). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "autotune.h"
#include "base/clock.h"
#include "gen/problem.h"
#include "runtime/store/store.h"
#include "runtime/driver/driver.h"

enum { MAX_SETS = 1024, MIN_LAUNCHES = 10, MAX_LAUNCHES = 100000,
       DEFAULT_ROUNDS = 7, MAX_ROUNDS = 1000, PATH_N = 1100 };
#define ROUND_MS 2.0     /* a round of one kernel */

/* Says "near_retime: ..." on stderr; 1. */
__attribute__((format(printf, 1, 2))) static int say(const char *fmt, ...)
{
    va_list a;
    va_start(a, fmt);
    fputs("near_retime: ", stderr);
    vfprintf(stderr, fmt, a);
    va_end(a);
    return fputc('\n', stderr), 1;
}

/* A driver call's result: 0, or 1 said with the call's name. */
static int cu(CUresult r, const char *call)
{
    at_err e = {0};
    return r == CUDA_SUCCESS ? 0 : (at_cu_fail(&e, r, call, NULL),
                                    say("%s", e.msg));
}
#define CU(fn, ...)                                                          \
    do {                                                                     \
        if (cu(at_cu.fn(__VA_ARGS__), #fn))                                  \
            return 1;                                                        \
    } while (0)

typedef struct handle {
    autotune_kernel *k;
    autotune_ctx *ctx; /* for its messages */
} handle;

typedef struct run {
    const char *cache;
    autotune_ctx *full; /* on CACHE.db: every entry */
    int rounds, l2;
    CUdevice dev;
    CUcontext cx;
    CUstream s;
    CUevent ev[2];
    CUdeviceptr in[MAX_SETS], out[MAX_SETS];
    int sets, next; /* buffer pairs; the next launch's */
    int reused, other, skipped, within5, short_sets;
    double sum, worst, ctl_sum;
} run;

/* rows, cols, ld_in, ld_out and batch of a transpose's key text (the
 * canonical at_problem_key_text: fields in table order); 0 read. */
static int fields(const char *t, long long v[5])
{
    return sscanf(t, "rows=%lld cols=%lld ld_in=%lld ld_out=%lld batch=%lld",
                  &v[0], &v[1], &v[2], &v[3], &v[4]) == 5 ? 0 : -1;
}

/* "4096x2048" of a problem text. */
static void dims(const char *text, char *buf, size_t n)
{
    long long v[5];
    if (fields(text, v))
        snprintf(buf, n, "%.24s", text[0] ? text : "-");
    else
        snprintf(buf, n, "%lldx%lld", v[0], v[1]);
}

/* autotune_figures.how (AUTOTUNE_HOW_*) in words. */
static const char *const how_name[] = {"tuned", "cached", "default",
                                       "reused"};

/* The entry's problem, and its buffers' bytes (in, out); 0, or 1 with
 * why it is skipped. */
static int problem_of(const at_entry *en, autotune_problem **u,
                      size_t bytes[2], char *why, size_t n)
{
    at_problem p;
    at_err e = {0};
    long long v[5];
    if (strcmp(en->key.family, "transpose") != 0)
        snprintf(why, n, "family %s, not transpose", en->key.family);
    else if (at_problem_make(&p, en->key.family, en->key.type,
                             en->key.problem, &e) ||
             fields(en->key.problem, v))
        snprintf(why, n, "not a transpose problem here: %s", e.msg);
    else if (v[4] != 1)
        snprintf(why, n, "batch %lld, not 1", v[4]);
    else {
        if (autotune_problem_create(NULL, en->key.family, en->key.type, u) ||
            autotune_problem_set_text(*u, en->key.problem)) {
            snprintf(why, n, "%s", autotune_last_error(NULL));
            autotune_problem_destroy(*u);
            return 1;
        }
        bytes[0] = p.in_bytes;
        bytes[1] = p.out_bytes;
        return 0;
    }
    return 1;
}

/* Entries by rows, cols, then the rest: a problem's entries (one per GPU
 * or driver) come together, and only they compare equal. */
static int by_size(const void *pa, const void *pb)
{
    const at_entry *a = pa, *b = pb;
    long long x[5] = {0}, y[5] = {0};
    fields(a->key.problem, x);
    fields(b->key.problem, y);
    int i = x[0] != y[0] ? 0 : 1, c = (x[i] > y[i]) - (x[i] < y[i]);
    c = c ? c : strcmp(a->key.family, b->key.family);
    c = c ? c : strcmp(a->key.type, b->key.type);
    return c ? c : strcmp(a->key.problem, b->key.problem);
}

/* Copies the file from to a new file to, mode 0600 (to is mkstemp's
 * template when templ, emptied if no file was made); 0, or 1 said. */
static int copy_file(const char *from, char *to, int templ)
{
    static char buf[1 << 16];
    FILE *dst = NULL, *src = fopen(from, "rb");
    int fd = !src ? -1 : templ ? mkostemp(to, O_CLOEXEC)
                       : open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                                      O_CLOEXEC, 0600);
    if (fd >= 0 && !(dst = fdopen(fd, "wb")))
        close(fd);
    int bad = !dst, err = errno;
    size_t got;
    while (!bad && (got = fread(buf, 1, sizeof buf, src)) > 0)
        if (fwrite(buf, 1, got, dst) != got)
            bad = 1, err = errno;
    if (!bad && ferror(src))
        bad = 1, err = errno;
    if (src && fclose(src) != 0 && !bad)
        bad = 1, err = errno;
    if (dst && fclose(dst) != 0 && !bad)
        bad = 1, err = errno;
    if (bad)
        say("copying %s to %s: %s", from, to, strerror(err));
    if (fd < 0 && templ)
        to[0] = '\0';
    return bad;
}

/* The copy of the cache and what SQLite or the library put beside it. */
static void remove_loo(const char *tmp)
{
    static const char *const suffix[] = {"", "-wal", "-shm", "-journal",
                                         ".lock"};
    for (size_t i = 0; tmp[0] && i < sizeof suffix / sizeof *suffix; ++i) {
        char f[PATH_N + 16];
        snprintf(f, sizeof f, "%s%s", tmp, suffix[i]);
        if (unlink(f) != 0 && errno != ENOENT)
            say("warning: cannot remove %s: %s", f, strerror(errno));
    }
}

/* tmp[PATH_N]: a copy of the cache, beside it, without the entries of
 * its problem; 0, or 1 said. tmp, when not empty, names a file to remove
 * either way. */
static int make_loo(const char *cache, const at_entry *it, char *tmp)
{
    char wal[PATH_N + 8], tmp_wal[PATH_N + 8];
    struct stat st;
    snprintf(wal, sizeof wal, "%s-wal", cache); /* cache: < 1024 bytes */
    snprintf(tmp, PATH_N, "%s.loo.XXXXXX", cache);
    if (copy_file(cache, tmp, 1))
        return 1;
    /* Frames not yet in the file while CACHE.db is open (the context on
     * it): SQLite takes them from the copy's -wal (no -shm needed). */
    snprintf(tmp_wal, sizeof tmp_wal, "%s-wal", tmp);
    if (stat(wal, &st) == 0 && st.st_size > 0 && copy_file(wal, tmp_wal, 0))
        return 1;
    at_cache *c;
    at_err e = {0};
    at_cache_filter all = {0};
    at_entry *en = NULL;
    size_t n = 0, one = 0, removed = 0;
    int rc = at_cache_open(&c, tmp, &e);
    if (!rc)
        rc = at_cache_select(c, &all, &en, NULL, &n, stderr, &e);
    for (size_t i = 0; !rc && i < n; removed += one, one = 0, ++i)
        if (by_size(&en[i], it) == 0)
            rc = at_cache_remove(c, &en[i], 1, &one, &e);
    at_cache_entries_free(en, n);
    at_cache_close(c);
    if (rc)
        return say("the copy %s: %s", tmp, e.msg);
    if (removed == 0)
        return say("the copy %s holds no entry of %s", tmp,
                   it->key.problem);
    return 0;
}

/* The buffer pairs for a problem: enough to pass three L2 caches, at most
 * MAX_SETS, fewer if the device runs out of memory; inputs filled (any
 * value: a transpose's speed does not depend on it). */
static int alloc_sets(run *r, const size_t bytes[2])
{
    size_t pair = bytes[0] + bytes[1];
    size_t want = (3 * (size_t)r->l2 + pair - 1) / pair;
    want = want < 1 ? 1 : want > MAX_SETS ? MAX_SETS : want;
    r->sets = r->next = 0;
    while (r->sets < (int)want) {
        CUdeviceptr in = 0, out = 0;
        CUresult e = at_cu.cuMemAlloc(&in, bytes[0]);
        if (e == CUDA_SUCCESS &&
            (e = at_cu.cuMemAlloc(&out, bytes[1])) != CUDA_SUCCESS)
            CU(cuMemFree, in);
        if (e == CUDA_ERROR_OUT_OF_MEMORY && r->sets > 0)
            break; /* as many as fit */
        if (cu(e, "cuMemAlloc"))
            return 1;
        r->in[r->sets] = in;
        r->out[r->sets++] = out;
        if (bytes[0] >= 4)
            CU(cuMemsetD32, in, 0x3f800000u, bytes[0] / 4);
    }
    CU(cuCtxSynchronize);
    r->short_sets += (size_t)r->sets * pair < 3 * (size_t)r->l2;
    return 0;
}

static int free_sets(run *r)
{
    int bad = 0;
    for (int i = 0; i < r->sets; ++i)
        bad |= cu(at_cu.cuMemFree(r->in[i]), "cuMemFree") |
               cu(at_cu.cuMemFree(r->out[i]), "cuMemFree");
    r->sets = 0;
    return bad;
}

/* L launches of h on the next buffer pairs between two events: *ms per
 * launch. */
static int batch(run *r, const handle *h, int L, double *ms)
{
    CU(cuEventRecord, r->ev[0], r->s);
    for (int i = 0; i < L; ++i) {
        int j = r->next;
        r->next = (r->next + 1) % r->sets;
        if (autotune_launch_io(h->k, (const void *)(uintptr_t)r->in[j],
                               (void *)(uintptr_t)r->out[j],
                               (struct CUstream_st *)r->s))
            return say("%s", autotune_last_error(h->ctx));
    }
    CU(cuEventRecord, r->ev[1], r->s);
    CU(cuEventSynchronize, r->ev[1]);
    float el;
    CU(cuEventElapsedTime, &el, r->ev[0], r->ev[1]);
    *ms = el / L;
    return 0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* h[0] tuned, h[1] the estimate, h[2] tuned again (the control): after a
 * warm-up, rounds of L launches each, the order turning every round;
 * ms[i] h[i]'s median round, per launch. */
static int time_three(run *r, const handle h[3], double ms[3], int *L)
{
    double t;
    int warm = r->sets > MIN_LAUNCHES ? r->sets : MIN_LAUNCHES;
    if (batch(r, &h[0], warm, &t) || batch(r, &h[1], warm, &t))
        return 1; /* first launches; clocks up */
    if (batch(r, &h[0], warm, &t)) /* calibration */
        return 1;
    double want = t > 0 ? ceil(ROUND_MS / t) : MAX_LAUNCHES;
    *L = want > MAX_LAUNCHES ? MAX_LAUNCHES
         : want < MIN_LAUNCHES ? MIN_LAUNCHES : (int)want;
    static double v[3][MAX_ROUNDS];
    for (int i = 0; i < r->rounds; ++i)
        for (int j = 0; j < 3; ++j)
            if (batch(r, &h[(i + j) % 3], *L, &v[(i + j) % 3][i]))
                return 1;
    for (int w = 0; w < 3; ++w)
        ms[w] = median(v[w], r->rounds);
    return 0;
}

static void report(run *r, const char *size, const handle h[3],
                   const autotune_figures *fe, const double ms[3], int L)
{
    char from[48];
    int reused = fe->how == AUTOTUNE_HOW_REUSED;
    if (reused)
        dims(fe->from, from, sizeof from);
    else
        snprintf(from, sizeof from, "(%s)", how_name[fe->how & 3]);
    const char *pe = autotune_kernel_point(h[1].k);
    const char *pt = autotune_kernel_point(h[0].k);
    double ratio = ms[1] / ms[0], ctl = ms[2] / ms[0];
    printf("%-13s %-13s %9.4f %9.4f %7.3f %7.3f %4d %6d  %s  %s%s\n", size,
           from, ms[0], ms[1], ratio, ctl, r->sets, L, pe,
           strcmp(pe, pt) ? pt : "(same)", reused ? "" : "  not counted");
    fflush(stdout);
    r->other += !reused;
    if (reused) {
        ++r->reused;
        r->sum += ratio;
        r->worst = ratio > r->worst ? ratio : r->worst;
        r->within5 += ratio <= 1.05;
        r->ctl_sum += fabs(ctl - 1);
    }
}

/* One size, left out; 0 measured or skipped, 1 failed (said). */
static int one_size(run *r, const at_entry *en)
{
    handle h[3] = {{NULL, r->full}, {NULL, NULL}, {NULL, r->full}};
    char tmp[PATH_N] = "", size[48], why[1200];
    autotune_problem *u = NULL;
    size_t bytes[2];
    dims(en->key.problem, size, sizeof size);
    if (problem_of(en, &u, bytes, why, sizeof why)) {
        printf("skipped %s %s %.64s: %s\n", en->key.family, en->key.type,
               en->key.problem, why);
        return ++r->skipped, 0;
    }
    int rc = autotune_get_with(r->full, u, AUTOTUNE_WISDOM_ONLY, &h[0].k);
    if (rc == AUTOTUNE_ENOT_FOUND) { /* another GPU's or driver's entry */
        printf("%-13s skipped: %s\n", size, autotune_last_error(r->full));
        autotune_problem_destroy(u);
        return ++r->skipped, 0;
    }
    if (rc) {
        autotune_problem_destroy(u);
        return say("%s: %s", size, autotune_last_error(r->full));
    }
    h[2].k = h[0].k;
    autotune_options o = {0, tmp, 0, AUTOTUNE_ESTIMATE};
    autotune_figures ft, fe;
    double ms[3];
    int L = 0, bad = make_loo(r->cache, en, tmp);
    if (!bad && autotune_create(&h[1].ctx, &o))
        bad = say("%s", autotune_last_error(NULL));
    if (!bad && autotune_get_with(h[1].ctx, u, AUTOTUNE_ESTIMATE,
                                  &h[1].k))
        bad = say("%s: estimate: %s", size, autotune_last_error(h[1].ctx));
    if (!bad && (autotune_kernel_figures(h[0].k, &ft) ||
                 autotune_kernel_figures(h[1].k, &fe)))
        bad = say("autotune_kernel_figures failed");
    if (!bad && (ft.how != AUTOTUNE_HOW_CACHED ||
                 fe.how == AUTOTUNE_HOW_CACHED))
        bad = say("%s: the tuned kernel answered %s, the estimate %s (left "
                  "out: not cached)", size, how_name[ft.how & 3],
                  how_name[fe.how & 3]);
    if (!bad)
        bad = alloc_sets(r, bytes);
    if (!bad && !(bad = time_three(r, h, ms, &L)))
        report(r, size, h, &fe, ms, L);
    bad |= free_sets(r);
    autotune_kernel_destroy(h[1].k);
    autotune_destroy(h[1].ctx);
    autotune_kernel_destroy(h[0].k);
    autotune_problem_destroy(u);
    remove_loo(tmp);
    return bad;
}

static int device_up(run *r)
{
    CU(cuDeviceGet, &r->dev, 0);
    CU(cuDevicePrimaryCtxRetain, &r->cx, r->dev);
    CU(cuCtxPushCurrent, r->cx);
    CU(cuDeviceGetAttribute, &r->l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
       r->dev);
    CU(cuStreamCreate, &r->s, CU_STREAM_NON_BLOCKING);
    CU(cuEventCreate, &r->ev[0], CU_EVENT_DEFAULT);
    CU(cuEventCreate, &r->ev[1], CU_EVENT_DEFAULT);
    return 0;
}

static int device_down(run *r)
{
    int bad = 0;
    CUcontext was;
    for (int i = 0; i < 2; ++i)
        bad |= r->ev[i] && cu(at_cu.cuEventDestroy(r->ev[i]),
                              "cuEventDestroy");
    bad |= r->s && cu(at_cu.cuStreamDestroy(r->s), "cuStreamDestroy");
    if (r->cx)
        bad |= cu(at_cu.cuCtxPopCurrent(&was), "cuCtxPopCurrent") |
               cu(at_cu.cuDevicePrimaryCtxRelease(r->dev),
                  "cuDevicePrimaryCtxRelease");
    return bad;
}

static int measure_all(run *r)
{
    at_cache *c;
    at_err e = {0};
    at_cache_filter all = {0};
    at_entry *en = NULL;
    size_t n = 0;
    double t0 = at_now_s();
    int bad = (at_cache_open(&c, r->cache, &e) ||
               at_cache_select(c, &all, &en, NULL, &n, stderr, &e)) &&
              say("%s", e.msg);
    at_cache_close(c);
    qsort(en, n, sizeof *en, by_size);
    if (!bad && !(bad = device_up(r)))
        printf("%-13s %-13s %9s %9s %7s %7s %4s %6s  %s\n", "problem",
               "reused from", "tuned_ms", "est_ms", "est/tun", "control",
               "sets", "L", "estimate's point, tuned point");
    for (size_t i = 0; !bad && i < n; ++i) /* a problem's entries: once */
        if (i == 0 || by_size(&en[i - 1], &en[i]) != 0)
            bad = one_size(r, &en[i]);
    bad |= device_down(r);
    int k = r->reused;
    if (!bad) {
        printf("sizes %d (reused %d, answered otherwise %d, skipped %d); "
               "estimate / tuned: mean %.3f, worst %.3f, %d of %d within "
               "5%%; control |tuned'/tuned - 1|: mean %.4f\n", k + r->other,
               k, r->other, r->skipped, k ? r->sum / k : 0, r->worst,
               r->within5, k, k ? r->ctl_sum / k : 0);
        printf("(medians of %d rounds of about %.0f ms per kernel; %d sizes "
               "with buffers under three L2 caches; %.1f s)\n", r->rounds,
               ROUND_MS, r->short_sets, at_now_s() - t0);
    }
    if (!bad && k == 0)
        bad = say("no size answered with a reused point: nothing measured");
    at_cache_entries_free(en, n);
    return bad;
}

int main(int argc, char **argv)
{
    run r = {.rounds = DEFAULT_ROUNDS, .cache = argv[1]};
    char *end = NULL;
    if (argc == 3)
        r.rounds = (int)strtol(argv[2], &end, 10);
    if (argc < 2 || argc > 3 || (end && (*end || end == argv[2])) ||
        r.rounds < 1 || r.rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: near_retime CACHE.db [N_ROUNDS (1 to %d, "
                "default %d)]\n", MAX_ROUNDS, DEFAULT_ROUNDS);
        return 2;
    }
    struct stat st; /* not made by autotune_create */
    if (stat(r.cache, &st) != 0 || !S_ISREG(st.st_mode))
        return say("%s: no such cache file", r.cache);
    /* The compiled-variant cache goes by the tuning cache's name: the
     * copies share CACHE.db's, rather than each starting an empty one. */
    char cubins[1024];
    at_err e = {0};
    if (!getenv("AUTOTUNE_CUBIN_CACHE") &&
        (at_cubins_default_path(r.cache, cubins, sizeof cubins, &e) ||
         setenv("AUTOTUNE_CUBIN_CACHE", cubins, 1) != 0))
        return say("compiled-variant cache: %s",
                   e.msg[0] ? e.msg : strerror(errno));
    autotune_options o = {0, r.cache, 0, AUTOTUNE_WISDOM_ONLY};
    int rc = autotune_create(&r.full, &o);
    if (rc == AUTOTUNE_ENO_DRIVER || rc == AUTOTUNE_ENO_DEVICE) {
        say("no GPU, nothing measured: %s", autotune_last_error(NULL));
        return 77;
    }
    if (rc)
        return say("%s", autotune_last_error(NULL));
    int bad = measure_all(&r);
    autotune_destroy(r.full);
    return bad;
}
