/* A kernel family: everything that differs between families, as one
 * table entry. Generic code (tuner, measurement, cache, planner, emission,
 * command line) calls these and never reads a problem's fields itself.
 * Families live in a table looked up by name (family.c); each is a file of
 * its own (transpose.c) plus its template. */
#ifndef AT_FAMILY_H
#define AT_FAMILY_H

#include <stdio.h>

#include "problem.h"
#include "space.h"

/* One field of a family's problem. */
typedef struct at_field {
    const char *name;  /* "ld_in": --ld-in on the command line, ld_in= in text */
    const char *help;  /* one line, with the default's meaning */
    int64_t def;       /* until set; 0 may mean "derived" (finish says) */
    int64_t min, max;  /* accepted when set */
    const char *const *choices; /* NULL: a number; else NULL-terminated
                                 * names, the value being the index */
    int flag; /* 1: the command line may give it bare ("--deterministic"),
               * meaning its last choice */
    int real; /* a real number (a double's bits in the problem's value);
               * min and max unused */
} at_field;

typedef struct at_launch {
    unsigned grid[3], block[3];
    unsigned smem; /* dynamic shared memory, bytes */
    /* 2: a second pass follows, the same kernel on grid2 (same block and
     * shared memory) with the arguments of pass 1; 0 or 1: one pass. */
    int passes;
    unsigned grid2[3];
} at_launch;

/* Kernel arguments for cuLaunchKernel: values stored here, pointers to
 * them in ptr. */
typedef struct at_args {
    int n;
    void *ptr[12];
    unsigned char store[12][8];
    unsigned char bytes[12]; /* each argument's size */
} at_args;

/* Device state a run needs besides its arguments, copied from the input
 * before each checked run: into the output at dst (an inout buffer's
 * first contents; the rest of the output is poison), or, with symbol
 * set, into that __constant__ symbol of the variant's module. */
typedef struct at_copy {
    const char *symbol; /* NULL: into the output */
    size_t src, dst, bytes;
    int arg; /* the argument whose contents it is (user_args' index) */
} at_copy;

enum { AT_MAX_COPIES = 12 };

/* A stretch of the output checked by a rule of its own (a spec's output
 * with a mismatch budget, or compared by its sum): bytes [first, end) of
 * the output. The rest of the output (and its guards) is checked as the
 * family's verify_kernel says, with no mismatch allowed. */
typedef struct at_check_seg {
    size_t first, end;
    uint64_t budget; /* elements that may differ (elementwise) */
    int elem_bytes;  /* an element's bytes: the budget counts elements */
    int sum;         /* compared by the sum of its lanes instead */
    int fp;          /* sum: lane bytes (4 or 8) */
    double atol, rtol; /* sum: |sum - ref| <= atol + rtol * |ref| */
    const char *name;
} at_check_seg;

enum { AT_MAX_SEGS = 12 };

/* Capabilities: what a family has, read as data (at_family.caps). Set
 * by at_family_fill from the hooks a family gives, or by the family
 * (AT_CAP_TOOLKIT_HEADERS). */
enum {
    AT_CAP_CPU_REFERENCE = 1,    /* reference: out = f(in) on the CPU */
    AT_CAP_DEVICE_REFERENCE = 2, /* ref_source: a reference kernel */
    AT_CAP_TOLERANCE = 4,        /* outputs within a tolerance (bounds) */
    AT_CAP_INIT_KERNEL = 8,      /* init_source: inputs made on the device */
    /* Its sources may include the CUDA toolkit's headers (<cub/...>,
     * <cuda/std/...>): compiled with the toolkit's include folders. */
    AT_CAP_TOOLKIT_HEADERS = 16,
    AT_CAP_INPUT = 32,           /* input: values of its own, not words */
    AT_CAP_CHECK_SEGMENTS = 64,  /* check_segments: rules of their own */
    /* Its emitted launcher writes the module's state (a spec's
     * __constant__ arguments), which a tuned cubin loaded beside it
     * would not see: its files run nvcc's build (gen/emit_tuned.c). */
    AT_CAP_MODULE_STATE = 128,
};

/* What a family does: its hooks. MUST: every family gives it. MAY:
 * at_family_fill puts the default (named in brackets) where a family
 * leaves it NULL, so generic code calls every hook as it is, never tests
 * one for NULL, and never asks which family it has (curl's
 * lib/protocol.h, BLIS's reference defaults). */
typedef struct at_family_ops {
    /* The problem. */
    /* MUST. Checks the fields, fills derived defaults and the buffer
     * sizes. */
    int (*finish)(at_problem *p, at_err *e);
    /* MUST. After "family type ": "8192x8192 ld_in=8192 ld_out=8192". */
    void (*describe)(const at_problem *p, char *buf, size_t n);
    /* MUST. The default output file's stem after "family_type_":
     * "8192x8192". */
    void (*file_stem)(const at_problem *p, char *buf, size_t n);

    /* The space. */
    /* MUST. Constraint predicate: 1 if the point may be compiled for this
     * problem and target; else 0, with the reason in why (if why !=
     * NULL). */
    int (*valid)(const at_problem *p, const at_point *pt, const at_limits *l,
                 char *why, size_t n);
    /* MAY [every value]. 0 where no point with this value of axis a passes
     * valid for this problem, whatever its other values: the walk of the
     * space skips them (a speed-up alone; valid still refuses them). */
    int (*value_ok)(const at_problem *p, int a, int value);
    /* MUST. "tile64x64_blk16x8_ept32_vec4_pad1_ldg_rst": tells points
     * apart. */
    void (*point_name)(const struct at_family *f, const at_point *pt,
                       char *buf, size_t n);
    /* MUST. The point used when nothing was tuned for an architecture. */
    void (*default_point)(const at_problem *p, int sm, at_point *pt);

    /* A variant: its source and launch. */
    /* MAY [none]. The template's optional code paths (bits of the
     * family's own) that the problem needs at this point. NVRTC's time
     * grows with every path compiled, so a variant holds only these;
     * compiled without a path, a variant still gives the right answer on
     * every problem its launcher accepts, by another path, or its
     * launcher sends the problem to another kernel (check_fits, takes). */
    unsigned (*paths)(const at_problem *p, const at_point *pt);
    /* MAY [""]. "skewed stores; 32-bit tile indices": the paths in
     * words. */
    void (*paths_text)(unsigned paths, char *buf, size_t n);
    /* MUST. "#define AT_... v" lines that specialise the template: the
     * point and the paths (AT_PATHS_ALL: every one). */
    void (*defines)(const at_problem *p, const at_point *pt, unsigned paths,
                    char *buf, size_t n);
    /* MUST. */
    void (*launch)(const at_problem *p, const at_point *pt, at_launch *g);
    /* MAY [0]. Bytes of device workspace a launch needs. It is zero
     * before the first launch, and each launch leaves it zero again. */
    size_t (*workspace)(const at_problem *p, const at_point *pt);
    /* MUST. The kernel's arguments for pass (0, or 1: at_launch.passes)
     * with device pointers in, out and the workspace ws. */
    void (*args)(const at_problem *p, const at_point *pt, uint64_t in,
                 uint64_t out, uint64_t ws, int pass, at_args *a);
    /* MAY [2: in and out]. How many arguments a user's launch passes
     * (autotune_launch). */
    int (*user_arg_count)(const at_problem *p);
    /* MAY [args(p, pt, user[0], user[1], ws, pass)]. The kernel's
     * arguments from a user's (user[i]: the i-th one's device pointer; a
     * __constant__ one's contents are copied by the caller, as copies
     * says). */
    void (*user_args)(const at_problem *p, const at_point *pt,
                      const uint64_t *user, uint64_t ws, int pass,
                      at_args *a);
    /* MAY [yes]. Whether the point's kernel, compiled for p, takes the
     * user's buffers (user[i] as user_args gets them: their alignment);
     * where not, autotune_launch runs the point compiled with every path
     * (AT_PATHS_ALL) instead. */
    int (*takes)(const at_problem *p, const at_point *pt,
                 const uint64_t *user);
    /* MAY [kernels in namespaces]. The text that keeps a variant's names
     * apart from the others' in one translation unit: part 0 opens a
     * scope called name, 1 closes it, 2 qualifies a name in it. A family
     * whose source must keep its own extern "C" and __constant__ names
     * gives at_family_scope_none (and program_points 1). */
    void (*scope)(const char *name, int part, char *buf, size_t n);

    /* Verification. */
    /* MAY [the random words left as they are]. The input: random 32-bit
     * words from seed, then words [first, end) remade into the family's
     * values for case stream (0 the problem, k its k-th check problem);
     * a value may depend on the seed and its place alone. */
    void (*input)(const at_problem *p, uint64_t seed, uint64_t stream,
                  uint32_t *w, size_t first, size_t end);
    /* MAY (AT_CAP_CPU_REFERENCE) [1; none]. out = f(in) on the CPU, in
     * independent parts [first, end) of reference_parts(p) (so threads
     * can share the work); where the rule has a tolerance, bound (else
     * NULL) gets each output's error unit, laid out as out. */
    int64_t (*reference_parts)(const at_problem *p);
    void (*reference)(const at_problem *p, const void *in, void *out,
                      void *bound, int64_t first, int64_t end);
    /* MUST. The rule: a kernel of templates/check.cu comparing the
     * output buffer with the reference ("at_compare_bits": bit for
     * bit). */
    const char *(*verify_kernel)(const at_problem *p);
    /* MAY (AT_CAP_TOLERANCE) [0: bit for bit]. The rule's scale for the
     * point (NULL: a contender, any order of operations): an output
     * passes within scale * its bound unit. */
    double (*tolerance)(const at_problem *p, const at_point *pt);
    /* MAY [none: n_checks 0]. Problems every variant is also checked on,
     * beside the problem: the i-th of n_checks (shapes no tile divides,
     * batches...), with a label for messages. */
    int (*check_problem)(const at_problem *p, int i, at_problem *out,
                         const char **label, at_err *e);
    /* MAY [every one]. Whether check problem i is one that the point's
     * kernel, compiled for p (ops.paths), takes: a kernel may be made for
     * shapes like its problem's alone (the transpose's without its
     * element path: whole tiles, rows on its vectors), its launcher
     * sending the rest to one with every path. */
    int (*check_fits)(const at_problem *p, const at_point *pt, int i);
    /* MUST. "out[3][7]" for an element index into the output buffer. */
    void (*where)(const at_problem *p, size_t elem, char *buf, size_t n);
    /* MAY (AT_CAP_DEVICE_REFERENCE) [none]. Where the CPU has no
     * reference, the reference runs on the device: ref_source gives the
     * source of a program holding the kernel it names, compiled from
     * point *pt (chosen for the limits l); ref_launch is its launch,
     * with args(p, pt, ...) into the poisoned output (after the copies);
     * ref_bounds then fills each output's error unit from the reference
     * (host memory, laid out as the output; a negative unit: that output
     * must match bit for bit). */
    char *(*ref_source)(const at_problem *p, const at_limits *l,
                        at_point *pt, char *kernel, size_t n, at_err *e);
    void (*ref_launch)(const at_problem *p, const at_point *pt,
                       at_launch *g);
    void (*ref_bounds)(const at_problem *p, const void *ref, void *bound);
    /* MAY (AT_CAP_INIT_KERNEL) [none]. Where the inputs depend on each
     * other (a spec's init_kernel): a program holding kernel `kernel`,
     * compiled at *pt as ref_source's; its launch and arguments (the
     * input at in), run once on each case's input before its
     * reference. */
    char *(*init_source)(const at_problem *p, const at_limits *l,
                         at_point *pt, char *kernel, size_t n, at_err *e);
    void (*init_launch)(const at_problem *p, const at_point *pt,
                        at_launch *g);
    void (*init_args)(const at_problem *p, uint64_t in, at_args *a);
    /* MAY [0]. The output's stretches with a rule of their own, at most
     * max into s, in order; returns how many. */
    int (*check_segments)(const at_problem *p, at_check_seg *s, int max);
    /* MAY [0]. The copies a run needs, at most max into c; returns how
     * many. */
    int (*copies)(const at_problem *p, at_copy *c, int max);

    /* Figures. */
    /* MUST. Bytes a perfect kernel reads plus writes (for GB/s), and the
     * bytes the device-to-device copy it is compared with moves. */
    double (*bytes_moved)(const at_problem *p);
    size_t (*copy_bytes)(const at_problem *p);
    /* MAY [0: none]. Floating-point operations of a run, for GFLOP/s. */
    double (*flops)(const at_problem *p);

    /* Emission. */
    /* MUST. The host launcher of the .cu, extern "C" NAME(...) (the
     * kernel is NAME_kernel, the template's macros defined above it), and
     * one line for the header on how to call it. */
    void (*emit_launcher)(FILE *f, const at_problem *p, const at_point *pt,
                          const char *name);
    void (*usage)(const at_problem *p, const char *name, char *buf,
                  size_t n);
} at_family_ops;

/* Where a family made at run time came from, so a worker process makes
 * the same family; "" for a built-in one (found by name). */
typedef struct at_family_origin {
    const char *path;   /* a spec file's absolute path; "": made from text */
    const char *text;   /* what it was made from (a spec's text) */
    const char *source; /* and its kernel's source */
    const char *dir;    /* the folder its other files are read in */
} at_family_origin;

typedef struct at_family {
    /* What it is (data). */
    const char *name;
    /* Bump when the kernel's launch, arguments or #defines change meaning
     * without the template's text changing, or when the space gains
     * points that a tune would now pick: it is part of the cache key. */
    int abi;
    const char *template_path; /* as in the source tree, for provenance */
    const char *template_src;  /* the template, embedded at build time */
    /* The element types it takes, "f16 bf16 f32"; NULL: every one. */
    const char *types;
    /* The problem's fields (the public API's names, --NAME flags, the
     * CSV's and JSON's columns). */
    const at_field *fields;
    int n_fields;
    /* The space. */
    const at_axis *axes;
    int n_axes;
    const char *derived; /* parameters that follow from the axes */
    int n_checks;        /* check problems (ops.check_problem) */
    unsigned caps;       /* AT_CAP_* */
    /* Points one NVRTC program may hold (0: as many as the tuner likes;
     * 1: each point alone and unwrapped, with at_family_scope_none). Read
     * through at_family_program_points and at_family_kernel_symbol. */
    int program_points;
    /* Text beside the template that gives it meaning (a spec's canonical
     * form), part of the cache key; "": none. */
    const char *meaning;
    /* Further NVRTC options for its variants and reference, separated
     * by spaces (a spec's options); "": none. */
    const char *nvrtc_options;
    at_family_origin origin;

    /* What it does. */
    at_family_ops ops;
    int filled; /* at_family_fill has run */
} at_family;

const at_family *at_family_find(const char *name); /* NULL if unknown */
/* Fills f's MAY hooks with their defaults, its "" strings and its
 * capabilities (idempotent). Built-in families are filled when first
 * looked up; a family made at run time, before it is used. */
void at_family_fill(at_family *f);
/* Adds a family defined at run time (a spec's, filled): found by name
 * from then on, for the life of the process. AUTOTUNE_EINVALID if the
 * name is taken by another family; registering the same family twice is
 * a no-op. Not thread-safe: register before other threads look families
 * up. */
int at_family_register(const at_family *f, at_err *e);
/* The scope of a family that keeps its source's names (ops.scope). */
void at_family_scope_none(const char *name, int part, char *buf, size_t n);
/* Points of f in one NVRTC program: k, or fewer where f takes fewer. */
int at_family_program_points(const at_family *f, int k);
/* The kernel's symbol of the i-th point in a program of f's. */
void at_family_kernel_symbol(const at_family *f, int i, char *buf,
                             size_t n);
/* What the compiled-variant cache's key of a point compiled alone adds
 * to the walk's options ("" where the walk compiles each point alone). */
const char *at_family_alone_key(const at_family *f);
const at_family *at_family_at(int i);              /* NULL past the end */
/* "transpose": for messages and help. */
void at_family_list(char *buf, size_t n);
/* Index of a field by name, -1 if none. */
int at_field_index(const at_family *f, const char *name);
/* A field's value from text; AUTOTUNE_ERANGE with "needs ..., got 'x'"
 * (the caller names the field or flag). */
int at_field_parse(const at_field *f, const char *value, int64_t *v,
                   at_err *e);
/* Appends an argument of n bytes (at most 8) to a. */
void at_args_put(at_args *a, const void *v, size_t n);
/* Whether f's variants are compared with a reference (a spec's verify:
 * none: not; every report says so): a capability. */
int at_family_verifies(const at_family *f);
/* A hash of f's template and meaning (what the cache key holds of it). */
uint64_t at_family_hash(const at_family *f);
/* Whether f takes type t (its types list). */
int at_family_takes(const at_family *f, const at_type *t);

/* Every optional code path compiled in (the GPU suite's variants, which
 * run on every shape). */
#define AT_PATHS_ALL (~0u)

/* Kernel symbol in NVRTC-compiled variants. */
#define AT_KERNEL_SYMBOL "at_kernel"

#endif
