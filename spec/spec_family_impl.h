/* Inside a spec's family (spec/spec.h): the state its files share.
 * spec_family.c builds the table and answers for the space;
 * spec_run.c for the launch, the arguments, the reference and the init
 * kernel; spec_layout.c for the buffers and the checks' segments;
 * spec_input.c makes the inputs; spec_emit.c writes the launcher and
 * spec_canon.c the spec's meaning for the cache key. */
#ifndef AT_SPEC_FAMILY_IMPL_H
#define AT_SPEC_FAMILY_IMPL_H

#include "spec/spec.h"

enum { SF_MAX_FIELDS = 3 + AT_SPEC_MAX_SCALARS,
       SF_MAX_SLOTS = AT_MAX_AXES + 3 + AT_SPEC_MAX_SCALARS + 3 };

typedef struct spec_family {
    at_family f; /* first: a problem's family pointer is this */
    at_spec s;
    at_field fields[SF_MAX_FIELDS];
    char field_help[SF_MAX_FIELDS][96]; /* the fields' help, defaults said */
    char types[8];
    char *meaning;
    char *origin;
    char *text; /* the spec's text (definition) */
    char options[512]; /* NVRTC's: the spec's but its -D (#defines) */
    int cmp_fp; /* lane bytes the outputs are compared in: 0 exact, 4, 8 */
    struct spec_family *next; /* the families alive (spec_family.c) */
} spec_family;

static inline const spec_family *at_sf_of(const at_problem *p)
{
    return (const spec_family *)p->family;
}

/* The packed buffers of a problem: each argument's offset in the input
 * (in, inout, constant) and the output (out, inout), and its bytes. */
typedef struct at_sf_layout {
    size_t in_off[AT_SPEC_MAX_ARGS], out_off[AT_SPEC_MAX_ARGS];
    size_t bytes[AT_SPEC_MAX_ARGS];
    size_t in_bytes, out_bytes;
} at_sf_layout;

/* Slots for the problem's sizes and scalars at point pt (NULL: the
 * parameters 0) and limits l (NULL: 0; the launch reads none). */
void at_sf_slots(const spec_family *sf, const at_problem *p, const int *pt,
              const at_limits *l, int64_t *slots);
int at_sf_layout_make(const spec_family *sf, const at_problem *p,
                   at_sf_layout *lay, at_err *e);
/* The value of x, 0 if it cannot be evaluated (valid() refused those). */
int64_t at_sf_eval(const at_expr *x, const int64_t *slots);
int at_sf_is_input(const at_spec_arg *a);
/* Whether v is a value of scalar type t (integers: its range). */
int at_sf_scalar_fits(const at_type *t, int64_t v);
int at_sf_is_output(const at_spec_arg *a);
/* A real scalar argument's value at problem p. */
double at_sf_real_value(const at_problem *p, const at_spec_arg *a);

/* spec_problem.c: the table's problem hooks. */
int at_sf_finish(at_problem *p, at_err *e);
void at_sf_describe(const at_problem *p, char *buf, size_t n);
void at_sf_file_stem(const at_problem *p, char *buf, size_t n);

/* spec_check.c: AUTOTUNE_EINVALID naming the spec for what the family
 * cannot do (and the options joined into sf->options); the fields. */
int at_sf_check(spec_family *sf, at_err *e);
void at_sf_fill_fields(spec_family *sf);

/* spec_run.c: the launch, arguments, reference and init kernel hooks. */
void at_sf_launch(const at_problem *p, const at_point *pt, at_launch *g);
void at_sf_args(const at_problem *p, const at_point *pt, uint64_t in,
             uint64_t out, uint64_t ws, int pass, at_args *a);
void at_sf_user_args(const at_problem *p, const at_point *pt,
                     const uint64_t *ptr, uint64_t ws, int pass, at_args *a);
char *at_sf_ref_source(const at_problem *p, const at_limits *l, at_point *pt,
                    char *kernel, size_t n, at_err *e);
void at_sf_ref_launch(const at_problem *p, const at_point *pt, at_launch *g);
void at_sf_ref_bounds(const at_problem *p, const void *ref, void *bound);
char *at_sf_init_source(const at_problem *p, const at_limits *l, at_point *pt,
                     char *kernel, size_t n, at_err *e);
void at_sf_init_launch(const at_problem *p, const at_point *pt, at_launch *g);
void at_sf_init_args(const at_problem *p, uint64_t in, at_args *a);
/* The launch at the slots; 0, or -1 with the reason in why. */
int at_sf_geometry(const at_spec *s, const int64_t *slots, at_launch *g,
                char *why, size_t n);

/* spec_layout.c: the table's data hooks. */
int at_sf_copies(const at_problem *p, at_copy *c, int max);
void at_sf_where(const at_problem *p, size_t elem, char *buf, size_t n);
double at_sf_bytes_moved(const at_problem *p);
size_t at_sf_copy_bytes(const at_problem *p);
double at_sf_flops(const at_problem *p);
int at_sf_check_segments(const at_problem *p, at_check_seg *s, int max);

/* spec_input.c: the inputs' first contents (the table's input hook). */
void at_sf_input(const at_problem *p, uint64_t seed, uint64_t stream,
              uint32_t *w, size_t first, size_t end);

/* spec_canon.c: the spec's meaning as text (the cache key's; malloc'd,
 * NULL on no memory): what it says, not how it is spelled, with a hash
 * of every file it names. */
char *at_sf_canonical(const at_spec *s);
/* x as C (at_expr_c with the spec's names), whole: malloc'd (NULL on no
 * memory). */
char *at_sf_expr_c(const at_spec *s, const at_expr *x);

/* spec_emit.c */
void at_sf_emit_launcher(FILE *f, const at_problem *p, const at_point *pt,
                      const char *name);
void at_sf_usage(const at_problem *p, const char *name, char *buf, size_t n);

#endif
