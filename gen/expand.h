/* Expansion: a family's template specialised at one point, as one
 * self-contained CUDA C source (the point's #defines, then the template);
 * and several points as one program, so NVRTC pays its per-program cost
 * once for all of them. */
#ifndef AT_EXPAND_H
#define AT_EXPAND_H

#include "family.h"

/* malloc'd source with the kernel named kernel_name, holding the code
 * paths the problem needs (family.h); NULL on no memory.
 * hook: NULL, or code the template's AT_TEST_HOOK becomes (the GPU
 * suite's planted faults, runtime/tune/tune_plant.c). */
char *at_expand(const at_problem *p, const at_point *pt,
                const char *kernel_name, const char *hook, at_err *e);

/* The kernel name of the i-th point of a program (at_kernel_0, ...). */
void at_program_kernel(int i, char *buf, size_t n);
/* The same for a program of family f: AT_KERNEL_SYMBOL where f compiles
 * each point alone (program_points 1), so the walk's cubin of a point is
 * the one the cache stores for it. */

/* One program of k points: each point's source in a namespace of its own,
 * its kernel named at_program_kernel(i), and every macro it #defines
 * #undef'd after it. malloc'd; NULL on no memory. */
char *at_expand_program(const at_problem *p, const at_point *const *pts,
                        const char *const *hooks, int k, at_err *e);
/* The same with the given code paths (AT_PATHS_ALL: every one) instead
 * of the problem's, and no hooks. */
char *at_expand_program_paths(const at_problem *p,
                              const at_point *const *pts, int k,
                              unsigned paths, at_err *e);

#endif
