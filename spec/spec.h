/* The spec layer: a family of the user's own kernel from a spec file (docs/SPEC.md) or the C API's description: parsed, checked, and registered as a family like any other. */
#ifndef AT_SPEC_LAYER_H
#define AT_SPEC_LAYER_H

#include <stdint.h>

#include "base/error.h"
#include "base/expr.h"
#include "gen/space.h"
#include "gen/types.h"
#include "gen/family.h"
#include "autotune.h"

/* A user's kernel described by a spec file (issue 15, docs/SPEC.md): the
 * kernel and its source, the problem size and scalars, the parameters
 * and restrictions, the launch geometry, the arguments, the verification
 * rule and the metrics. Every expression is parsed once, its names
 * resolved to slots (at_spec_slot): the parameters in order, then size_x,
 * size_y, size_z, the scalars, then the device's limits. A spec that
 * loads is complete and consistent; anything else is an error naming the
 * file, the key and the line. */

#define AT_SPEC_VERSION 1

enum { AT_SPEC_MAX_PARAMS = 12, AT_SPEC_MAX_SCALARS = 8, AT_SPEC_MAX_ARGS = 12,
       AT_SPEC_MAX_RESTRICTIONS = 32, AT_SPEC_MAX_DEFINES = 16,
       AT_SPEC_MAX_OPTIONS = 16 };

/* Files a spec names (sources, data): at most this many bytes. */
#define AT_SPEC_MAX_FILE ((size_t)1 << 30)

/* The device limits expressions may read, after the scalars. */
#define AT_SPEC_LIMITS "max_threads max_shared_memory sm"

enum at_arg_kind { AT_ARG_BUFFER, AT_ARG_SCALAR, AT_ARG_CONSTANT };
enum at_arg_dir { AT_DIR_IN, AT_DIR_OUT, AT_DIR_INOUT };
/* A buffer's first contents (docs/SPEC.md, "Inputs"). */
enum at_arg_init { AT_INIT_RANDOM, AT_INIT_ZEROS, AT_INIT_ONES,
                   AT_INIT_IOTA, AT_INIT_NORMAL, AT_INIT_UNIFORM,
                   AT_INIT_INTEGERS, AT_INIT_FILE, AT_INIT_COPY };

/* How an output is checked against the reference's. */
enum at_arg_compare { AT_COMPARE_ELEMENTS, AT_COMPARE_SUM };

typedef struct at_spec_arg {
    char *name;
    enum at_arg_kind kind;
    const at_type *type;
    at_expr *count; /* buffers and constants: elements */
    at_expr *value; /* scalars: an integer expression, or NULL and real */
    int real;        /* a real scalar: real_value, or the problem's real
                      * scalar real_scalar (>= 0) */
    double real_value;
    int real_scalar;
    enum at_arg_dir dir;
    enum at_arg_init init;
    double init_a, init_b; /* normal: mean, sd; uniform: [a, b); integers:
                            * [a, b] */
    char *file;           /* AT_INIT_FILE: as given */
    unsigned char *data;  /* its elements' bytes (a .npy's after its
                           * header) */
    size_t data_bytes;
    int copy_of;          /* AT_INIT_COPY: that argument's index */
    /* Verification of an output: exact, or within atol + rtol * |ref|;
     * elementwise with at most max_mismatches elements differing (NULL:
     * none may), or its elements' sum. */
    int exact;
    double atol, rtol;
    at_expr *max_mismatches;
    enum at_arg_compare compare;
    int line;
} at_spec_arg;

/* A #define the variants get: an integer expression of the sizes and
 * scalars (value), or a real number's text (real). */
typedef struct at_spec_define {
    char *name;
    at_expr *value;
    char *real;
} at_spec_define;

/* An argument of the init kernel: a spec argument (its buffer's input
 * copy, or a scalar's value), or a value of a type. */
typedef struct at_init_arg {
    int arg;          /* the spec argument's index, or -1 */
    at_expr *value;   /* else this, as type */
    const at_type *type;
} at_init_arg;

typedef struct at_spec {
    char *file;   /* as given */
    char *kernel; /* the __global__ function's name */
    char *source_file, *source; /* path (relative to the spec's folder
                                 * resolved) and its bytes */
    char *options[AT_SPEC_MAX_OPTIONS];
    int n_options;
    at_spec_define defines[AT_SPEC_MAX_DEFINES];
    int n_defines;

    char *dir;        /* the spec's folder (NULL: from memory: no files) */

    int dims;         /* 1 to 3 */
    int64_t size[3];  /* the default size (1 past dims) */
    char *scalar_names[AT_SPEC_MAX_SCALARS];
    int64_t scalars[AT_SPEC_MAX_SCALARS]; /* a real one: a double's bits */
    int scalar_real[AT_SPEC_MAX_SCALARS];
    int n_scalars;
    const at_type *type; /* problem.type; NULL: none */

    at_axis params[AT_MAX_AXES]; /* names owned (malloc'd) */
    int n_params;
    at_expr *restrictions[AT_SPEC_MAX_RESTRICTIONS];
    int n_restrictions;

    at_expr *block[3], *grid[3], *smem;

    at_spec_arg args[AT_SPEC_MAX_ARGS];
    int n_args;

    int verify; /* 0: verify: none (named in every report) */
    char *reference_kernel; /* NULL: the reference is reference_point */
    at_expr *ref_block[3], *ref_grid[3]; /* its launch: the parameters of
                                          * ref_params only */
    int reference_point[AT_MAX_AXES];
    int has_reference_point;
    char *ref_source_file, *ref_source; /* verify.source (NULL: the
                                         * kernel's) */
    int ref_params[AT_MAX_AXES]; /* verify.params: given[i] says which */
    int ref_given[AT_MAX_AXES];

    /* init_kernel: run once on the inputs before anything reads them. */
    char *init_kernel; /* NULL: none */
    char *init_source_file, *init_source; /* NULL: the kernel's */
    at_init_arg init_args[AT_SPEC_MAX_ARGS];
    int n_init_args;
    at_expr *init_block[3], *init_grid[3];

    at_expr *bytes, *flops; /* NULL: not given */
} at_spec;

/* Loads the spec at path (its source read relative to its folder). */
int at_spec_load_file(const char *path, at_spec *s, at_err *e);
/* The same from text; file names it in messages and dir is where the
 * source is (NULL: the current folder). */
int at_spec_load_text(const char *text, const char *file, const char *dir,
                      at_spec *s, at_err *e);
/* The same with the kernel's source given (kernel.source then only names
 * it, for messages and #line); dir as for at_spec_load_text (NULL: the
 * spec may name no other file). */
int at_spec_load_mem(const char *text, const char *file, const char *dir,
                     const char *source, at_spec *s, at_err *e);
/* Whether kernel option o is a -D (a #define in the variant's source,
 * not an NVRTC option). */
int at_spec_option_is_define(const char *o);
void at_spec_free(at_spec *s);

/* The #defines of point pt at the sizes and scalars of slots (as
 * at_spec_slots fills them): each parameter (a loop_unroll_factor_*
 * parameter as a constexpr int, as Kernel Tuner does), then each define
 * of kernel.defines and each -D of kernel.options. Returns the length
 * needed (as snprintf). */
size_t at_spec_defines(const at_spec *s, const int *pt, const int64_t *slots,
                       char *buf, size_t n);
/* The source of the variant at point pt and sizes size (3 values): its
 * #defines, then the kernel's source under #line 1 "its file".
 * malloc'd; NULL with e set. */
char *at_spec_variant_source(const at_spec *s, const int *pt,
                             const int64_t *size, at_err *e);

/* Slots: params, size_x/y/z, scalars, limits; -1 for an unknown name. */
int at_spec_slot(const at_spec *s, const char *name, size_t n);
int at_spec_n_slots(const at_spec *s);
/* The name of slot i (0 <= i < at_spec_n_slots). */
const char *at_spec_slot_name(const at_spec *s, int i);
/* Fills slots for point pt (NULL: every parameter 0), the sizes and the
 * limits l (a real scalar's slot holds its bits; expressions cannot read
 * it). */
void at_spec_slots(const at_spec *s, const int *pt, const int64_t *size,
                   const at_limits *l, int64_t *slots);

/* A spec (spec/spec.h) as a kernel family (gen/family.h), made at run time:
 * its sizes and scalars are the problem's fields, its parameters the
 * axes, its restrictions and the launch limits the constraint. The
 * buffers are packed into the one input and one output every family has
 * (spec_layout.c): inputs, inout buffers' first contents and __constant__
 * contents in the input; out and inout buffers in the output, apart by a
 * poisoned gap, so a write past one is caught. The reference runs on the
 * device. Generic code sees only the family table. */

/* Makes the family of *s, taking s over (s is zeroed). The family's name
 * is the kernel's; free with at_spec_family_free (not while registered
 * and in use). AUTOTUNE_EINVALID naming the spec's file for what the
 * family cannot do (an expression of the launch that reads a device
 * limit, a tolerance on a type other than f32 or f64 lanes, ...). */
int at_spec_family_make(at_spec *s, const at_family **out, at_err *e);
void at_spec_family_free(const at_family *f);
/* The spec a family was made from; NULL for another family. */
const at_spec *at_spec_of(const at_family *f);
/* Loads the spec at path, makes its family and registers it; the same
 * spec loaded again gives the family registered first, a different one
 * of the same kernel name AUTOTUNE_EINVALID. */
int at_spec_family_load(const char *path, const at_family **out,
                        at_err *e);
/* The same from a spec's text and its kernel's source (file names the
 * spec in messages; kernel.source then only names the source); the
 * other files it names are read in dir (NULL: it may name none). */
int at_spec_family_load_mem(const char *text, const char *file,
                            const char *dir, const char *source,
                            const at_family **out, at_err *e);

/* For a test harness that calls the emitted NAME_argv as a user would
 * (tests/gpu/kt_harness.cu): the problem's launcher parameters in order,
 * where each buffer's first contents lie in the packed input and its
 * reference in the packed output, and how each output is checked, as
 * text (docs/SPEC.md, "The data of a problem"). AUTOTUNE_EINVALID if p
 * is not a spec's. */
int at_spec_manifest(const at_problem *p, const char *launcher, FILE *f,
                     at_err *e);

/* A family described in C (autotune_family_desc, include/autotune.h)
 * written as a spec's text, so it loads through the one spec loader and
 * a worker process makes it again from that text. */

/* The spec (JSON, which the loader reads as YAML) of d; malloc'd, NULL
 * with e set. */
char *at_spec_text_of(const autotune_family_desc *d, at_err *e);

#endif
