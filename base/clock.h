/* Time: a monotonic clock for durations, the wall clock for stamps. */
#ifndef AT_CLOCK_H
#define AT_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Seconds on the monotonic clock (only differences mean anything). */
double at_now_s(void);
/* Nanoseconds since the epoch on the wall clock (seeds). */
uint64_t at_wall_ns(void);
/* "2026-11-22T02:17:21Z" */
void at_utc_now(char *buf, size_t n);

#endif
