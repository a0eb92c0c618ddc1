/* A parameter space: named axes, each a short list of integer values; a
 * point is one value per axis. Families define their axes; this file
 * enumerates, names and parses points generically. */
#ifndef AT_SPACE_H
#define AT_SPACE_H

#include <stddef.h>

#include "base/error.h"
#include "problem.h"

#define AT_MAX_AXES 16
#define AT_MAX_VALUES 32

typedef struct at_axis {
    const char *name; /* "tile_x" */
    const char *help; /* one line for `autotune space` */
    int n;
    int values[AT_MAX_VALUES];
} at_axis;

typedef struct at_point {
    int v[AT_MAX_AXES]; /* values, in the family's axis order */
} at_point;

/* What the constraints need to know of the target. */
typedef struct at_limits {
    int sm;          /* 90 for sm_90 */
    int max_threads; /* per block */
    int max_smem;    /* per block, opt-in, bytes */
} at_limits;

/* Limits of an architecture without a device (for --arch sm_XX); 0 if the
 * architecture is unknown. The known ones, for messages: */
#define AT_KNOWN_ARCHS "70, 75, 80, 86, 87, 89, 90, 100, 120"
int at_limits_for_arch(int sm, at_limits *l);

struct at_family;

/* Points before the constraints: the product of the axes' lengths. */
size_t at_space_size(const struct at_family *f);
/* The points that pass the family's constraints, in enumeration order.
 * *pts is malloc'd; the caller frees it. None is an error
 * (AUTOTUNE_ENO_VARIANT) naming the check that removed the most. */
int at_space_points(const struct at_family *f, const at_problem *p,
                    const at_limits *l, at_point **pts, size_t *n, at_err *e);
/* The first of those points into *pt: 1, or 0 (pt untouched) if the
 * constraint keeps none. Stops there: no list is made. */
int at_space_first(const struct at_family *f, const at_problem *p,
                   const at_limits *l, at_point *pt);
/* "tile_x=64 tile_y=64 ..." and back (all axes required, nothing else). */
void at_point_params(const struct at_family *f, const at_point *pt,
                     char *buf, size_t n);
int at_point_parse(const struct at_family *f, const char *s, at_point *pt,
                   at_err *e);
/* Index of an axis by name, -1 if none. */
int at_axis_index(const struct at_family *f, const char *name);

#endif
