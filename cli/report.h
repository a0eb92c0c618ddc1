/* What the tune command says: the human summary (device, how the answer
 * was obtained, the winner and the leaders) and the same as one JSON
 * object. */
#ifndef AT_REPORT_H
#define AT_REPORT_H

#include <stdio.h>

#include "options.h"
#include "runtime/plan/plan.h"

/* An answer on a device: cached or tuned. */
void at_report_plan(FILE *f, const at_plan *pl, const at_device *d,
                    double wall_s, const char *cache_path);
/* An answer without a device of the architecture: cached or default. */
void at_report_offline(FILE *f, const at_plan *pl, int sm);
/* The run's summary as one JSON object on stdout (autotune.tune/1). d
 * may be NULL (no device). 0, or -1 if stdout failed. */
int at_report_json(const opts *o, const at_plan *pl, const at_device *d,
                   double wall_s, const char *out);

#endif
