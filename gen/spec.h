/* A user's kernel described by a spec file (issue 15, docs/SPEC.md): the
 * kernel and its source, the problem size and scalars, the parameters
 * and restrictions, the launch geometry, the arguments, the verification
 * rule and the metrics. Every expression is parsed once, its names
 * resolved to slots (at_spec_slot): the parameters in order, then size_x,
 * size_y, size_z, the scalars, then the device's limits. A spec that
 * loads is complete and consistent; anything else is an error naming the
 * file, the key and the line. */
#ifndef AT_SPEC_H
#define AT_SPEC_H

#include <stdint.h>

#include "base/error.h"
#include "base/expr.h"
#include "space.h"
#include "types.h"

#define AT_SPEC_VERSION 1

enum { AT_SPEC_MAX_SCALARS = 8, AT_SPEC_MAX_ARGS = 12,
       AT_SPEC_MAX_RESTRICTIONS = 32, AT_SPEC_MAX_DEFINES = 16,
       AT_SPEC_MAX_OPTIONS = 16 };

/* The device limits expressions may read, after the scalars. */
#define AT_SPEC_LIMITS "max_threads max_shared_memory sm"

enum at_arg_kind { AT_ARG_BUFFER, AT_ARG_SCALAR, AT_ARG_CONSTANT };
enum at_arg_dir { AT_DIR_IN, AT_DIR_OUT, AT_DIR_INOUT };
enum at_arg_init { AT_INIT_RANDOM, AT_INIT_ZEROS, AT_INIT_ONES,
                   AT_INIT_IOTA };

typedef struct at_spec_arg {
    char *name;
    enum at_arg_kind kind;
    const at_type *type;
    at_expr *count; /* buffers and constants: elements */
    at_expr *value; /* scalars */
    enum at_arg_dir dir;
    enum at_arg_init init;
    /* Verification of an output: exact, or within atol + rtol * |ref|. */
    int exact;
    double atol, rtol;
    int line;
} at_spec_arg;

typedef struct at_spec_define {
    char *name;
    int64_t value;
} at_spec_define;

typedef struct at_spec {
    char *file;   /* as given */
    char *kernel; /* the __global__ function's name */
    char *source_file, *source; /* path (relative to the spec's folder
                                 * resolved) and its bytes */
    char *options[AT_SPEC_MAX_OPTIONS];
    int n_options;
    at_spec_define defines[AT_SPEC_MAX_DEFINES];
    int n_defines;

    int dims;         /* 1 to 3 */
    int64_t size[3];  /* the default size (1 past dims) */
    char *scalar_names[AT_SPEC_MAX_SCALARS];
    int64_t scalars[AT_SPEC_MAX_SCALARS];
    int n_scalars;

    at_axis params[AT_MAX_AXES]; /* names owned (malloc'd) */
    int n_params;
    at_expr *restrictions[AT_SPEC_MAX_RESTRICTIONS];
    int n_restrictions;

    at_expr *block[3], *grid[3], *smem;

    at_spec_arg args[AT_SPEC_MAX_ARGS];
    int n_args;

    int verify; /* 0: verify: none (named in every report) */
    char *reference_kernel; /* NULL: the reference is reference_point */
    at_expr *ref_block[3], *ref_grid[3]; /* its launch: no parameters */
    int reference_point[AT_MAX_AXES];
    int has_reference_point;

    at_expr *bytes, *flops; /* NULL: not given */
} at_spec;

/* Loads the spec at path (its source read relative to its folder). */
int at_spec_load_file(const char *path, at_spec *s, at_err *e);
/* The same from text; file names it in messages and dir is where the
 * source is (NULL: the current folder). */
int at_spec_load_text(const char *text, const char *file, const char *dir,
                      at_spec *s, at_err *e);
/* The same with the kernel's source given (kernel.source then only names
 * it, for messages and #line). */
int at_spec_load_mem(const char *text, const char *file, const char *source,
                     at_spec *s, at_err *e);
void at_spec_free(at_spec *s);

/* The source of the variant at point pt (the reference kernel too is
 * compiled from some point's source: the tuned kernel beside it needs its
 * parameters): each parameter and fixed define as a #define, then the
 * kernel's source under #line 1 "its file". malloc'd; NULL with e set. */
char *at_spec_variant_source(const at_spec *s, const int *pt, at_err *e);

/* Slots: params, size_x/y/z, scalars, limits; -1 for an unknown name. */
int at_spec_slot(const at_spec *s, const char *name, size_t n);
int at_spec_n_slots(const at_spec *s);
/* The name of slot i (0 <= i < at_spec_n_slots). */
const char *at_spec_slot_name(const at_spec *s, int i);
/* Fills slots for point pt (NULL: every parameter 0), the sizes and the
 * limits l. */
void at_spec_slots(const at_spec *s, const int *pt, const int64_t *size,
                   const at_limits *l, int64_t *slots);

#endif
