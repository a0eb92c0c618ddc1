/* A problem: a family, an element type and the family's own fields (a
 * transpose's rows, cols, leading dimensions...; a reduction's length,
 * op and axis). Generic code never reads a field by meaning: it parses,
 * prints, keys and compares them through the family's field table
 * (family.h), and only the family's own file gives them meaning. Part of
 * every cache key. */
#ifndef AT_PROBLEM_H
#define AT_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "types.h"

struct at_family;

enum { AT_MAX_FIELDS = 16 };

typedef struct at_problem {
    const struct at_family *family;
    const at_type *type;
    int64_t v[AT_MAX_FIELDS]; /* the family's fields, in its table's order */
    size_t in_bytes, out_bytes; /* the buffers, as allocated */
    /* The SMs of the device it runs on, set where a problem meets one (the
     * tuner, the measurement, the API); 0 elsewhere, where a family
     * assumes a nominal count. Not a field and not in the key text: the
     * cache key's device has it. A split in waves of the device (reduce)
     * reads it. */
    int sms;
} at_problem;

/* Starts p: the family and type named (AUTOTUNE_ENOT_FOUND naming the
 * known ones otherwise), every field at its default. */
int at_problem_begin(at_problem *p, const char *family, const char *type,
                     at_err *e);
/* Sets a field from text: "8192" for a number, a choice's name for a
 * choice. AUTOTUNE_ENOT_FOUND for an unknown field, AUTOTUNE_ERANGE for a
 * value out of the field's range, naming both. */
int at_problem_set(at_problem *p, const char *field, const char *value,
                   at_err *e);
/* "name=value name=value ...": each through at_problem_set. */
int at_problem_set_text(at_problem *p, const char *text, at_err *e);
/* The family's validation: derived defaults filled in, sizes checked,
 * buffer sizes computed. */
int at_problem_finish(at_problem *p, at_err *e);
/* A whole problem from text: at_problem_begin, at_problem_set_text of
 * text ("rows=8192 cols=8192", a cache key's problem part), then
 * at_problem_finish. */
int at_problem_make(at_problem *p, const char *family, const char *type,
                    const char *text, at_err *e);

/* The fields as canonical text, "rows=8192 cols=8192 ...", every field
 * after finish: equal problems give equal text, and at_problem_set_text
 * of it gives the problem back (the cache key's problem part). */
void at_problem_key_text(const at_problem *p, char *buf, size_t n);
/* Field i's value as text: "8192", "max", "2.5". Returns buf. */
const char *at_problem_value_text(const at_problem *p, int i, char *buf,
                                  size_t n);
/* For people: "transpose f32 8192x8192 ld_in=8192 ld_out=8192" (the
 * family's own wording where it has one). */
void at_problem_str(const at_problem *p, char *buf, size_t n);
/* A real field's value (a double's bits) as the shortest text that
 * reads back the same: "2.5". Returns buf. */
const char *at_real_text(int64_t bits, char *buf, size_t n);
/* "transpose_f32", or the family alone for a problem of type none: the
 * stem of default file and launcher names. */
void at_problem_kind(const at_problem *p, char *buf, size_t n);
/* The kind with the family's choices, for default launcher names, so
 * that files of different kinds link into one program: "reduce_max_f32",
 * "reduce_sum_rows_deterministic_f64". The first choice field names what
 * is computed and is always there; the others where not their default
 * (a yes/no flag by its field's name). */
void at_problem_name_kind(const at_problem *p, char *buf, size_t n);
int at_problem_equal(const at_problem *a, const at_problem *b);
/* The 64-byte blocks (DRAM's unit on the H100) that n runs of len bytes,
 * pitch bytes apart from byte start, touch, each counted once: the
 * families' layout shares (data over the blocks' bytes). */
int64_t at_blocks_touched(int64_t start, int64_t pitch, int64_t len,
                          int64_t n);

#endif
