/* JSON output, through jansson: an object is built whole, then printed.
 * Numbers are exact: integers (sizes, strides, counts, seeds, bytes) are
 * JSON integers, exact to 2^63; doubles are printed with 17 significant
 * digits, so they read back to the same double; a non-finite double is
 * null, with its reason in the field "<key>_note". Every object printed at
 * the top carries "schema": "autotune.<kind>/<version>" (docs/json.md,
 * docs/schema/). */
#ifndef AT_JSON_H
#define AT_JSON_H

#include <jansson.h>
#include <stdint.h>

#include "gen/problem.h"

/* {"schema": schema}; NULL on no memory. */
json_t *at_json_object(const char *schema);
/* o[k] = v; a NULL string is null. */
void at_json_str(json_t *o, const char *k, const char *v);
void at_json_int(json_t *o, const char *k, int64_t v);
void at_json_bool(json_t *o, const char *k, int v);
/* A double, or null and "<k>_note": why (NaN, infinity). */
void at_json_real(json_t *o, const char *k, double v);
/* o[k] = v, taking v's reference. */
void at_json_put(json_t *o, const char *k, json_t *v);
/* The problem's text, family, type and its fields (an object, the
 * family's field names as keys) into o; returns o. */
json_t *at_json_problem(json_t *o, const at_problem *p);
/* Prints o on stdout (two-space indent, keys in insertion order, a
 * newline) and releases it. 0, or -1 if it could not be written. */
int at_json_print(json_t *o);

#endif
