/* How far apart two problems of one family are, for reusing the tuned
 * point of the nearest (runtime/plan/near.c) and for the dispatcher of a .cu
 * tuned for several sizes (gen/emit_multi.c writes the same formula in
 * C). Over the family's fields, after at_problem_finish:
 *
 *   a choice field (reduce's op, axis): must be equal, else not
 *     comparable (INFINITY);
 *   a number field (sizes, leading dimensions, strides, batch):
 *     |log2 a - log2 b|, plus AT_ALIGN_PENALTY when the two differ in
 *     alignment class: the power of two dividing the field's bytes
 *     (value x the type's size), counted up to 16 (a vector load's
 *     width), so that a point needing aligned rows is reused for
 *     problems whose rows are aligned alike.
 *
 * Problems of another family or type are not comparable either. */
#ifndef AT_DISTANCE_H
#define AT_DISTANCE_H

#include "problem.h"

#define AT_ALIGN_PENALTY 0.5

/* min(largest power of two dividing bytes, 16); 16 for 0. */
int at_align_class(int64_t value, int type_bytes);
double at_problem_distance(const at_problem *a, const at_problem *b);

#endif
