/* Reading a spec file's YAML (libyaml's document API; JSON is YAML too)
 * with errors that name the file, the key and the line: the spec loader's
 * only view of the format. */
#ifndef AT_SPEC_YAML_H
#define AT_SPEC_YAML_H

#include <stdint.h>
#include <yaml.h>

#include "base/error.h"

typedef struct at_yaml {
    yaml_document_t doc;
    const char *file; /* for messages */
    at_err *e;
} at_yaml;

/* Parses text (NUL-terminated) into y; AUTOTUNE_EINVALID with the line
 * and libyaml's problem for malformed YAML, or for an empty document, or
 * for what at_yaml_bounded and at_yaml_unique_keys refuse. */
int at_yaml_load(at_yaml *y, const char *text, const char *file, at_err *e);

/* Nesting deeper than this is refused before libyaml builds a tree. */
#define AT_YAML_MAX_DEPTH 64
/* Refuses text nested deeper than AT_YAML_MAX_DEPTH or holding an alias,
 * reading the parser's events up to the first such (0 also for malformed
 * YAML: the loader reports that). */
int at_yaml_bounded(const char *text, size_t len, const char *file,
                    at_err *e);
/* Refuses a mapping that holds a key twice, naming both lines. */
int at_yaml_unique_keys(at_yaml *y);
void at_yaml_free(at_yaml *y);
yaml_node_t *at_yaml_root(at_yaml *y);

/* AUTOTUNE_EINVALID: "FILE:LINE: KEY: what" (printf-style what). */
int at_yaml_fail(at_yaml *y, const yaml_node_t *n, const char *key,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The value of key in mapping m, or NULL. */
yaml_node_t *at_yaml_get(at_yaml *y, yaml_node_t *m, const char *key);
/* Fails naming the first key of m not in the NULL-terminated known. */
int at_yaml_known_keys(at_yaml *y, yaml_node_t *m, const char *where,
                       const char *const *known);
/* A mapping's i-th key and value (i < count), NULL past the end. */
int at_yaml_count(const yaml_node_t *n);
yaml_node_t *at_yaml_key(at_yaml *y, yaml_node_t *m, int i);
yaml_node_t *at_yaml_item(at_yaml *y, yaml_node_t *n, int i);

/* Typed reads: a scalar's text (NUL-terminated copy, malloc'd), an
 * integer in [min, max], a double; each fails naming key if n is not of
 * the type. */
int at_yaml_string(at_yaml *y, yaml_node_t *n, const char *key, char **out);
int at_yaml_int(at_yaml *y, yaml_node_t *n, const char *key, int64_t min,
                int64_t max, int64_t *out);
int at_yaml_double(at_yaml *y, yaml_node_t *n, const char *key,
                   double *out);
/* Any finite number (a mean, a range's end). */
int at_yaml_real(at_yaml *y, yaml_node_t *n, const char *key, double *out);
/* A scalar that is one of the NULL-terminated list: its index; else an
 * error listing them. The _key form reads key of mapping m, def if
 * absent. */
int at_yaml_choice(at_yaml *y, yaml_node_t *n, const char *key,
                   const char *const *list, int *out);
int at_yaml_choice_key(at_yaml *y, yaml_node_t *m, const char *key,
                       const char *const *list, int def, int *out);
/* Whether n is a mapping / sequence / scalar (n may be NULL). */
int at_yaml_is(const yaml_node_t *n, yaml_node_type_t t);
/* 1-based line of n. */
int at_yaml_line(const yaml_node_t *n);

#endif
