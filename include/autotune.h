/* autotune: public C API.
 *
 * A context owns a CUDA device (its primary context, so pointers from
 * cudaMalloc work) and a tuning cache. Asking for a kernel tunes on a cache
 * miss and loads the cached cubin on a hit; later asks are a lookup.
 *
 *   autotune_ctx *ctx;  autotune_problem *p;  autotune_kernel *k;
 *   const void *args[] = {d_in, d_out};
 *   if (autotune_create(&ctx, NULL) ||
 *       autotune_problem_create(ctx, "transpose", "f32", &p) ||
 *       autotune_problem_set_text(p, "rows=8192 cols=8192") ||
 *       autotune_get(ctx, p, &k) ||
 *       autotune_launch(k, args, 2, stream))
 *       fprintf(stderr, "%s\n", autotune_last_error(ctx));
 *
 * A problem is a family, an element type and the family's fields, set by
 * name: this header names no family's fields (README, "The API", lists
 * each family's; `autotune space FAMILY` prints them). A launch takes the
 * kernel's arguments as an array, for every family.
 *
 * Every function returns 0 or a negative AUTOTUNE_E* code; the context keeps
 * a message naming the call, the CUDA/NVRTC/SQLite code and the variant
 * (autotune_last_error(NULL) gives autotune_create's; with a context, the
 * calling thread's last failure on it). Several threads may use one
 * context at once: each call takes a cache connection of its own, a
 * process tunes one problem at a time (a thread asking for a problem
 * being tuned waits and takes its answer; AUTOTUNE_ESTIMATE never
 * waits), and kernels launch from any thread on any stream, one launch
 * of a kernel with its own workspace at a time. Several processes may
 * share one cache file. */
#ifndef AUTOTUNE_H
#define AUTOTUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AUTOTUNE_VERSION_MAJOR 1
#define AUTOTUNE_VERSION_MINOR 0
#define AUTOTUNE_VERSION_PATCH 0
#define AUTOTUNE_VERSION "1.0.0"

/* The library's version, as linked (the header's may be older). */
const char *autotune_version(void);

/* X-macro: name, value, message. */
#define AUTOTUNE_ERRORS(X)                                                   \
    X(OK, 0, "success")                                                      \
    X(INVALID, -1, "invalid argument")                                       \
    X(NOMEM, -2, "out of host memory")                                       \
    X(NO_DRIVER, -3, "CUDA driver library not found")                        \
    X(NO_DEVICE, -4, "no CUDA device")                                       \
    X(CUDA, -5, "CUDA driver call failed")                                   \
    X(NO_NVRTC, -6, "NVRTC library not found")                               \
    X(NVRTC, -7, "NVRTC call failed")                                        \
    X(COMPILE, -8, "kernel variant failed to compile")                       \
    X(WRONG, -9, "kernel variant gave a wrong answer")                       \
    X(SQLITE, -10, "cache (SQLite) call failed")                             \
    X(IO, -11, "file I/O failed")                                            \
    X(NOT_FOUND, -12, "no such family, type or entry")                       \
    X(NO_VARIANT, -13, "no variant of the space passed verification")        \
    X(RANGE, -14, "size out of range")                                      \
    X(FAULT, -15, "kernel variant faulted or hung on the GPU")              \
    X(LAUNCH, -16, "kernel variant cannot launch on this device")           \
    X(STORE, -17, "shared store (PostgreSQL) call failed")

enum autotune_error {
#define AUTOTUNE_ENUM_(name, value, msg) AUTOTUNE_E##name = value,
    AUTOTUNE_ERRORS(AUTOTUNE_ENUM_)
#undef AUTOTUNE_ENUM_
};

/* Short text for a code (never NULL). */
const char *autotune_strerror(int code);

struct CUstream_st; /* same type as CUstream and cudaStream_t */
typedef struct autotune_ctx autotune_ctx;
typedef struct autotune_problem autotune_problem;
typedef struct autotune_kernel autotune_kernel;

typedef struct autotune_options {
    int device;             /* CUDA device ordinal */
    const char *cache_path; /* NULL: $AUTOTUNE_CACHE, else XDG default */
    int verbose;            /* 1: progress lines on stderr while tuning */
    int effort;             /* autotune_get's: AUTOTUNE_EFFORT_*; 0:
                             * AUTOTUNE_EXHAUSTIVE */
} autotune_options;

/* How hard autotune_get works for a problem the cache lacks, in the
 * spirit of FFTW's planner flags. An entry tuned at an effort serves
 * every effort up to it. */
enum autotune_effort {
    AUTOTUNE_EFFORT_DEFAULT = 0, /* the context's (autotune_options) */
    /* No search: the cache's exact entry; else a point reused from the
     * nearest tuned problems of the family, type and GPU (the one
     * fastest across their kept timings, README "Effort levels"); else
     * the family's default point. At most one variant compiled (or taken
     * from the compiled-variant cache), verified on the problem, not
     * timed, not stored. */
    AUTOTUNE_ESTIMATE = 1,
    /* A budgeted search (10% of the space by default), stored. */
    AUTOTUNE_MEASURE = 2,
    AUTOTUNE_EXHAUSTIVE = 3,     /* the whole space, stored */
    /* The cache's exact entry, else AUTOTUNE_ENOT_FOUND. */
    AUTOTUNE_WISDOM_ONLY = 4,
};
/* OR'd into autotune_get_with's effort: answer as AUTOTUNE_ESTIMATE now
 * and tune (at the context's effort, MEASURE at least) in a background
 * thread; autotune_kernel_refresh then swaps the tuned kernel in. */
#define AUTOTUNE_BACKGROUND 0x100

/* A problem: a family ("transpose", "reduce" or a loaded spec's), an
 * element type (i8 u8 f16 bf16 f32 f64 c64 c128 f32x4 i32, as the family
 * takes; NULL for a family of one type, a spec's) and every field of the
 * family at its default. ctx takes its errors (NULL:
 * autotune_last_error(NULL)); the problem is the caller's to destroy, and
 * may be destroyed as soon as autotune_get returns. */
int autotune_problem_create(autotune_ctx *ctx, const char *family,
                            const char *type, autotune_problem **p);
/* Sets a field by name from text: a number ("8192"), a real ("2.5") or
 * a choice's name ("max"). AUTOTUNE_ENOT_FOUND for a field the family
 * does not have, AUTOTUNE_ERANGE for a value out of its range, each
 * naming both. */
int autotune_problem_set(autotune_problem *p, const char *field,
                         const char *value);
int autotune_problem_set_int(autotune_problem *p, const char *field,
                             int64_t value);
/* Several fields at once: "rows=8192 cols=8192 ld_in=8448". */
int autotune_problem_set_text(autotune_problem *p, const char *text);
/* The family's fields: the i-th one's name (NULL past the last), and
 * its value as set, as text in buf ("8192", "max"; a field derived from
 * others reads "0" while not set: autotune_get finishes a copy). */
const char *autotune_problem_field(const autotune_problem *p, int i,
                                   char *buf, size_t n);
void autotune_problem_destroy(autotune_problem *p);

typedef struct autotune_figures {
    double median_ms;  /* kernel time, median of samples */
    double gbps;       /* bytes read + written / time */
    double copy_gbps;  /* device-to-device copy of the same bytes, same run */
    double frac_copy;  /* gbps / copy_gbps */
    int registers, shared_bytes, local_bytes;
    int from_cache;    /* 1: loaded from the cache, no tuning in this call */
    int how;           /* how the kernel was obtained: AUTOTUNE_HOW_* */
    int effort;        /* of the search that found it (AUTOTUNE_*); 0 for
                        * a reused or default point */
    char from[512];    /* AUTOTUNE_HOW_REUSED: the tuned problem whose
                        * point this is ("rows=4096 cols=4096 ...") */
} autotune_figures;

/* How the planner answered (autotune_figures.how). */
enum autotune_how {
    AUTOTUNE_HOW_TUNED = 0,   /* tuned in this call */
    AUTOTUNE_HOW_CACHED = 1,  /* the tuning cache's entry for this problem */
    AUTOTUNE_HOW_DEFAULT = 2, /* the family's default point, not tuned */
    AUTOTUNE_HOW_REUSED = 3,  /* a point of the nearest tuned
                               * problem (figures.from), not timed here */
};

/* opts may be NULL for defaults (device 0, default cache, quiet). */
int autotune_create(autotune_ctx **ctx, const autotune_options *opts);
void autotune_destroy(autotune_ctx *ctx);
const char *autotune_last_error(const autotune_ctx *ctx);

/* Tuned kernel for a problem: tunes on a cache miss, loads on a hit. */
int autotune_get(autotune_ctx *ctx, const autotune_problem *p,
                 autotune_kernel **k);
/* The same at an effort (AUTOTUNE_EFFORT_* | AUTOTUNE_BACKGROUND). */
int autotune_get_with(autotune_ctx *ctx, const autotune_problem *p,
                      int effort, autotune_kernel **k);
/* A kernel answered with AUTOTUNE_BACKGROUND: 1 when its tuned kernel
 * has replaced it (same handle; call it from the thread that launches k,
 * between launches), 0 while the tune runs or when nothing better came,
 * < 0 the background tune's error. */
int autotune_kernel_refresh(autotune_kernel *k);
/* Waits for the context's background tunes; 0 or the first's error. */
int autotune_wait(autotune_ctx *ctx);
/* Launches k on stream (NULL: the default stream): args[i] is the
 * kernel's i-th argument, n of them (autotune_kernel_arg_count): a
 * device pointer (cudaMalloc / cuMemAlloc) for a buffer; for a spec's
 * kernel, a host pointer to the contents of a __constant__ one (copied
 * on the stream first) and NULL for a scalar (the spec computes it).
 * Transpose and reduce take {in, out}. A kernel that needs a workspace
 * (a reduction split over blocks) uses its own, allocated by
 * autotune_get: launches of one kernel then go on one stream at a
 * time. A kernel made for buffers aligned to its vectors (a transpose of
 * whole tiles, a reduction's vector loads; cudaMalloc's are) given one
 * that is not (a view into a larger matrix, say) runs its point compiled
 * with every path instead, compiled at the first such launch. */
int autotune_launch(autotune_kernel *k, const void *const *args, int n,
                    struct CUstream_st *stream);
/* How many arguments k's launch takes. */
int autotune_kernel_arg_count(const autotune_kernel *k);
/* Bytes of workspace the kernel needs (0: none), and a launch with the
 * caller's, as CUB takes it: device memory of at least that many bytes,
 * zeroed once before its first launch (each launch leaves it zero); one
 * workspace per stream running at once. */
size_t autotune_kernel_workspace_bytes(const autotune_kernel *k);
int autotune_launch_ws(autotune_kernel *k, const void *const *args, int n,
                       void *workspace, struct CUstream_st *stream);
/* A convenience for kernels of two arguments, input and output
 * (transpose, reduce): autotune_launch with {in, out}. */
int autotune_launch_io(autotune_kernel *k, const void *in, void *out,
                       struct CUstream_st *stream);
/* A family of your own kernel from a spec file (docs/SPEC.md): loaded,
 * checked (a bad spec's error names its file and line) and registered
 * for the life of the process (at most 16 such families, none removed;
 * the same spec loaded again is the same family). *family gets its name,
 * the kernel's, for autotune_problem_create (type NULL); its fields are
 * its sizes and scalars ("size_x", "size_y", ...). Needs no device: ctx
 * may be NULL (errors: autotune_last_error(NULL)). Not thread-safe: load
 * families before other threads use the library. */
int autotune_family_load(autotune_ctx *ctx, const char *path,
                         const char **family);
/* The same from memory: a spec's text (YAML or JSON; its kernel.source
 * only names the source) and the kernel's source. */
int autotune_family_load_text(autotune_ctx *ctx, const char *spec,
                              const char *source, const char **family);

/* A family described in C instead of a spec (docs/SPEC.md has each
 * field's meaning; expressions are text, NULL takes the spec's
 * default). */
typedef struct autotune_param {
    const char *name;  /* a #define in the variant: block_size_x */
    const int *values;
    int n;
} autotune_param;

typedef struct autotune_arg {
    const char *name, *type; /* "f32", "i32", ... */
    const char *count; /* elements: a buffer, or a __constant__ symbol */
    const char *value; /* a scalar's value (count NULL) */
    const char *dir;   /* "in" (NULL), "out", "inout" */
    const char *init;  /* "random" (NULL), "zeros", "ones", "iota" */
    int constant;      /* 1: the __constant__ symbol of that name */
    int exact;         /* an output bit for bit; else within atol, rtol */
    double atol, rtol;
} autotune_arg;

typedef struct autotune_family_desc {
    const char *kernel, *source; /* the __global__ name, the CUDA source */
    int dims;                    /* 1 to 3 */
    long long size[3];           /* the default sizes */
    const autotune_param *params;
    int n_params;
    const char *const *restrictions;
    int n_restrictions;
    /* Kernel Tuner's grid_div lists, "block_size_x, tile_size_x", or
     * explicit grid expressions; the block; dynamic shared memory. */
    const char *grid_div[3], *grid[3], *block[3], *shared_memory;
    const autotune_arg *args;
    int n_args;
    const char *reference_kernel; /* NULL: not verified (said) */
    const char *ref_block[3], *ref_grid[3];
    const char *bytes, *flops;   /* metrics (NULL: none) */
} autotune_family_desc;

int autotune_family_define(autotune_ctx *ctx, const autotune_family_desc *d,
                           const char **family);
const char *autotune_kernel_point(const autotune_kernel *k);
int autotune_kernel_figures(const autotune_kernel *k, autotune_figures *f);
void autotune_kernel_destroy(autotune_kernel *k);

#ifdef __cplusplus
}
#endif
#endif
