/* emit_multi's own shared names (only its files include this): the
 * plan of one file and the parts written by emit_multi_header.c. */
#ifndef AT_EMIT_MULTI_IMPL_H
#define AT_EMIT_MULTI_IMPL_H

#include <stdio.h>

#include "emit_multi.h"

typedef struct multi {
    const at_multi_entry *en;
    int n, *kernel, *order, n_order; /* order: by architecture, repeats out */
    int n_kernels, *first;           /* first: a kernel's first entry */
    unsigned *paths;                 /* a kernel's entries' paths, OR'd */
    int archs[32], n_archs;
    int field[AT_MAX_FIELDS], nf;    /* the number fields */
    const char *fname[AT_MAX_FIELDS]; /* their names */
    const char *name;
} multi;

/* The file's header comment and its includes. */
void at_multi_header(FILE *f, const multi *m, const char *command);
/* The blocks an SM kernel k asks nvcc for (AT_MIN_BLOCKS): the fewest
 * of its entries' tuned builds (one bound serves every architecture it
 * is built for), or 0 if one of them has no figure. */
int at_multi_min_blocks(const multi *m, int k);
/* The registers a thread kernel k holds nvcc to (AT_MAX_REGS, with
 * AT_MIN_BLOCKS): the most of its entries' tuned builds, or 0 if one of
 * them has no figure. */
int at_multi_max_regs(const multi *m, int k);

#endif
