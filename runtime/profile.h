/* A tuned problem's profile: the fastest points its search timed, with
 * their times, as text kept with the cache entry ("MS PARAMS" lines,
 * fastest first). AUTOTUNE_ESTIMATE weighs points across the profiles
 * of the nearest tuned problems (near_pick.h): a point fast on all of
 * them travels better than one problem's winner, often a narrow one. */
#ifndef AT_PROFILE_H
#define AT_PROFILE_H

#include <stddef.h>

#include "tune.h"

/* Offers a timed point: kept if among the AT_PROFILE fastest so far. */
void at_profile_offer(at_tuned *o, const char *params, double ms);
/* The profile as text, fastest first, as many lines as fit in n. */
void at_profile_text(const at_tuned *o, char *buf, size_t n);

/* One line of a profile text: 1 (*ms, params copied), 0 at the end, -1
 * for a malformed line (skipped: the walk goes on). *at moves past it. */
int at_profile_next(const char **at, double *ms, char *params, size_t n);
/* Whether text is a well-formed profile (for wisdom files): printable
 * ASCII lines, each a positive finite time and a params text, at most
 * AT_PROFILE lines. why says what is wrong. */
int at_profile_valid(const char *text, char *why, size_t n);

#endif
