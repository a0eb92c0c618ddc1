/* Just enough JSON output for the command line's --json summaries. */
#ifndef AT_JSON_H
#define AT_JSON_H

#include <stdio.h>

/* s as a JSON string, quotes included. */
void at_json_str(FILE *f, const char *s);
/* A finite number, or null (JSON has no NaN or infinity). */
void at_json_num(FILE *f, double v);

#endif
