/* A kernel family: template, parameter space, constraints, launch geometry,
 * CPU reference and byte count. Families live in a table looked up by name
 * (family.c); each is one file (transpose.c). */
#ifndef AT_FAMILY_H
#define AT_FAMILY_H

#include <stdio.h>

#include "problem.h"
#include "space.h"

typedef struct at_launch {
    unsigned grid[3], block[3];
    unsigned smem; /* dynamic shared memory, bytes */
} at_launch;

/* Kernel arguments for cuLaunchKernel: values stored here, pointers to
 * them in ptr. */
typedef struct at_args {
    int n;
    void *ptr[12];
    unsigned char store[12][8];
} at_args;

typedef struct at_family {
    const char *name;
    /* Bump when the kernel's launch, arguments or #defines change meaning
     * without the template's text changing: it is part of the cache key. */
    int abi;
    const char *template_path; /* as in the source tree, for provenance */
    const char *template_src;  /* the template, embedded at build time */
    const at_axis *axes;
    int n_axes;
    /* Parameters that follow from the axes, for `autotune space`. */
    const char *derived;
    /* Constraint predicate: 1 if the point may be compiled for this problem
     * and target; else 0, with the reason in why (if why != NULL). */
    int (*valid)(const at_problem *p, const at_point *pt, const at_limits *l,
                 char *why, size_t n);
    /* "tile64x64_blk16x8_ept32_vec4_pad1_ldg_rst" */
    void (*point_name)(const at_point *pt, char *buf, size_t n);
    /* "#define AT_... v" lines that specialise the template. */
    void (*defines)(const at_problem *p, const at_point *pt, char *buf,
                    size_t n);
    void (*launch)(const at_problem *p, const at_point *pt, at_launch *g);
    /* The kernel's arguments for device pointers in and out. */
    void (*args)(const at_problem *p, uint64_t in, uint64_t out, at_args *a);
    /* out = f(in) on the CPU for input rows [r0, r1) of the batch's
     * batch * rows (bands of rows are independent, so threads can share
     * the work); buffers of p->in_bytes and p->out_bytes. */
    void (*reference)(const at_problem *p, const void *in, void *out,
                      int64_t r0, int64_t r1);
    /* Bytes a perfect kernel reads plus writes (for GB/s). */
    double (*bytes_moved)(const at_problem *p);
    /* The point used when nothing was tuned for this architecture. */
    void (*default_point)(const at_problem *p, int sm, at_point *pt);
    /* Host launcher of the emitted .cu: extern "C" NAME(...). The kernel is
     * NAME_kernel; the template's macros are defined above it. */
    void (*emit_launcher)(FILE *f, const at_problem *p, const at_point *pt,
                          const char *name);
} at_family;

const at_family *at_family_find(const char *name); /* NULL if unknown */
const char *at_family_list(void);                  /* "transpose" */

/* Kernel symbol in NVRTC-compiled variants. */
#define AT_KERNEL_SYMBOL "at_kernel"

#endif
