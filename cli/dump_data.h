/* --data DIR: a spec's problem's data for a harness (dump_data.c). */
#ifndef AT_DUMP_DATA_H
#define AT_DUMP_DATA_H

#include <stdio.h>

#include "gen/problem.h"
#include "runtime/driver/driver.h"

/* Writes DIR's files for p on device d (NULL: none here, an error), the
 * emitted launcher named launcher; says so on info. 0, or 1 (said). */
int at_dump_data(const char *dir, const at_problem *p, const at_device *d,
                 const char *launcher, FILE *info);

#endif
