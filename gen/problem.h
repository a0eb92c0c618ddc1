/* A problem: family, element type and shape (a batch of matrices). Part of
 * every cache key. */
#ifndef AT_PROBLEM_H
#define AT_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "../runtime/error.h"
#include "types.h"

struct at_family;

typedef struct at_problem {
    const struct at_family *family;
    const at_type *type;
    int64_t rows, cols;     /* each input matrix, row-major */
    int64_t ld_in, ld_out;  /* elements between rows of input, output */
    int64_t batch;          /* matrices, >= 1 */
    int64_t stride_in, stride_out; /* elements between matrices */
    size_t in_bytes, out_bytes;    /* the whole batch, as allocated */
} at_problem;

/* Largest batch: the kernel takes it as an int. */
#define AT_MAX_BATCH 2147483647LL

/* Validates the user's problem (names known, sizes positive and within the
 * kernel's int range, leading dimensions and strides that keep rows and
 * matrices apart, byte counts without overflow) and fills p. */
int at_problem_init(at_problem *p, const autotune_problem *user, at_err *e);
/* "transpose f32 8192x8192 ld_in=8192 ld_out=8192", with
 * " batch=B stride_in=S stride_out=T" for a batch. */
void at_problem_str(const at_problem *p, char *buf, size_t n);
int at_problem_equal(const at_problem *a, const at_problem *b);
/* Elements the operation moves: rows * cols * batch. */
double at_problem_elems(const at_problem *p);

#endif
