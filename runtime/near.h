/* The nearest tuned problem: for AUTOTUNE_ESTIMATE on a miss, the best
 * point of the cache's entry for the problem of the same family, type,
 * template and GPU (or, without a device, architecture) nearest by
 * gen/distance.h, among those whose point is valid for the new problem
 * (its constraints under the device's limits). */
#ifndef AT_NEAR_H
#define AT_NEAR_H

#include "cache.h"
#include "gen/family.h"

typedef struct at_near {
    at_entry en;       /* the entry reused (its cubin malloc'd) */
    at_problem from;   /* its problem */
    at_point pt;       /* its point, valid for the new problem */
    double distance;
} at_near;

/* key: the new problem's (at_key_fill); with_device: match its GPU
 * exactly (name, SM count, driver, NVRTC), else its architecture only.
 * 1 found (*out filled; at_entry_free(&out->en) after), 0 none, < 0
 * error. The problem itself is never its own nearest. */
int at_near_find(at_cache *c, const at_key *key, int with_device,
                 const at_problem *p, const at_limits *l, at_near *out,
                 at_err *e);

#endif
