/* Which point AUTOTUNE_ESTIMATE reuses for a problem never tuned, from
 * the AT_NEAR_K tuned problems nearest it (gen/distance.h): each offers
 * its profile (runtime/store/store.h: its fastest points, timed there), or
 * its best point alone when it has none. A point's score is its time
 * over that problem's best, averaged over the neighbours with weights
 * 1 / (0.25 + distance); a neighbour that did not keep the point counts
 * its slowest kept one, at least AT_NEAR_MISSING. The lowest score among
 * the points valid here wins. One problem's winner is often narrowly
 * best there and poor a little further off; a point fast on all the
 * neighbours travels (docs/PERFORMANCE.md, "Nearest-size reuse"). */
#ifndef AT_NEAR_PICK_H
#define AT_NEAR_PICK_H

#include "gen/family.h"

enum { AT_NEAR_K = 8 };
#define AT_NEAR_MISSING 1.25

typedef struct at_near_cand {
    const at_problem *q; /* the tuned problem */
    double distance;     /* from the new one */
    const char *params;  /* its best point */
    const char *profile; /* "" when none */
} at_near_cand;

/* c: the neighbours, nearest first (n <= AT_NEAR_K). Returns the index
 * of the nearest neighbour that kept the point chosen (*pt, valid for
 * p under l), -1 when no neighbour offers a valid point, or
 * AUTOTUNE_ENOMEM. *score: the chosen point's. */
int at_near_pick(const at_problem *p, const at_limits *l,
                 const at_near_cand *c, int n, at_point *pt, double *score);

#endif
