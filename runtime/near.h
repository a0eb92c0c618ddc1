/* The tuned problems nearest a new one, and the point AUTOTUNE_ESTIMATE
 * reuses from them: among the cache's entries of the same family, type,
 * template and GPU (or, without a device, architecture), the AT_NEAR_K
 * nearest by gen/distance.h, their points weighed by runtime/near_pick.h;
 * the chosen point is valid for the new problem (its constraints under
 * the device's limits). */
#ifndef AT_NEAR_H
#define AT_NEAR_H

#include "cache.h"
#include "gen/family.h"

typedef struct at_near {
    at_entry en;       /* the nearest entry that kept the point (its
                        * cubin malloc'd) */
    at_problem from;   /* its problem */
    at_point pt;       /* the point, valid for the new problem */
    int own;           /* pt is en's best point: en.cubin is pt's code */
    double distance;   /* of en */
    double score;      /* runtime/near_pick.h */
    int neighbours;    /* tuned problems weighed */
} at_near;

/* key: the new problem's (at_key_fill); with_device: match its GPU
 * exactly (name, SM count, driver, NVRTC), else its architecture only.
 * 1 found (*out filled; at_entry_free(&out->en) after), 0 none, < 0
 * error. The problem itself is never its own neighbour. */
int at_near_find(at_cache *c, const at_key *key, int with_device,
                 const at_problem *p, const at_limits *l, at_near *out,
                 at_err *e);

#endif
