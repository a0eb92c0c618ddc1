/* A spec's space: the product of its parameters' values, filtered by its
 * restrictions for a size and a target (spec/spec.h). */
#ifndef AT_SPEC_SPACE_H
#define AT_SPEC_SPACE_H

#include <stddef.h>

#include "spec/spec.h"

/* Spaces larger than this before the restrictions are refused. */
#define AT_SPEC_MAX_POINTS (1u << 24)

typedef struct at_spec_space {
    size_t total;  /* before the restrictions */
    size_t n;      /* after */
    int *points;   /* n rows of s->n_params values, malloc'd */
    /* removed[i]: points restriction i was the first to reject. */
    size_t removed[AT_SPEC_MAX_RESTRICTIONS];
} at_spec_space;

/* Enumerates s's space at size (3 values) for the target l, in the order
 * of the spec (the last parameter fastest). A restriction that cannot be
 * evaluated (a zero divisor, overflow) is an error naming it and the
 * point; an empty space is an error naming the restriction that removed
 * the most (AUTOTUNE_ENO_VARIANT); more than AT_SPEC_MAX_POINTS before
 * the restrictions, AUTOTUNE_ERANGE. */
int at_spec_space_make(const at_spec *s, const int64_t *size,
                       const at_limits *l, at_spec_space *sp, at_err *e);
void at_spec_space_free(at_spec_space *sp);
/* "block_size_x=256 tile_size_x=4" for a point of s. */
void at_spec_point_text(const at_spec *s, const int *pt, char *buf,
                        size_t n);

#endif
