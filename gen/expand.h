/* Expansion: a family's template specialised at one point, as one
 * self-contained CUDA C source (the point's #defines, then the template). */
#ifndef AT_EXPAND_H
#define AT_EXPAND_H

#include "family.h"

/* malloc'd source with the kernel named kernel_name; NULL on no memory. */
char *at_expand(const at_problem *p, const at_point *pt,
                const char *kernel_name, at_err *e);

#endif
