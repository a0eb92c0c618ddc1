/* The tuning cache's key for a problem on a device (or, without one, an
 * architecture), and the check that an entry's point is valid here. */
#ifndef AT_KEY_H
#define AT_KEY_H

#include "cache.h"
#include "device.h"
#include "gen/family.h"

/* Fills a cache key. d may be NULL (emitting for an architecture without a
 * device): then only cc and the problem and template parts are set. */
int at_key_fill(at_key *k, const at_device *d, const at_problem *p,
                const at_limits *l, at_err *e);
/* The same in two steps: every part but the space's hash (cheap), then
 * that hash, which lists the space under its constraints (milliseconds
 * the first time a process asks for a problem; remembered after). A
 * planner that finds no entry of the problem in any space needs no
 * hash to miss. */
void at_key_fill_partial(at_key *k, const at_device *d, const at_problem *p,
                         const at_limits *l);
int at_key_space(at_key *k, const at_problem *p, const at_limits *l,
                 at_err *e);

/* The point a cache entry holds, if this build would launch it: its
 * parameters parse, give the recorded name and pass the constraints. 1 yes
 * (*pt set), 0 no. */
int at_entry_point(const at_problem *p, const at_limits *l,
                   const at_entry *en, at_point *pt);

#endif
