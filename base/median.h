/* The median of a sample of doubles (timings, shares of the copy). */
#ifndef AT_MEDIAN_H
#define AT_MEDIAN_H

#include <stddef.h>

/* Sorts v[0..n) ascending in place (so v[0] and v[n-1] are the minimum
 * and maximum) and returns its median: the middle value, or the mean of
 * the two middle ones for an even n; n > 0. */
double at_median_sort(double *v, size_t n);

#endif
