/* Shared between the spec loader's files: spec.c (the top level, kernel,
 * problem and parameters), spec_launch.c (restrictions, launch,
 * metrics), spec_args.c (arguments), spec_verify.c (verification and the
 * init kernel), spec_files.c (the files a spec names). */
#ifndef AT_SPEC_INTERNAL_H
#define AT_SPEC_INTERNAL_H

#include "spec/spec.h"
#include "spec/spec_yaml.h"

int at_spec_check_ident(at_yaml *y, yaml_node_t *n, const char *key,
                        const char *name);
int at_spec_new_name(at_yaml *y, const at_spec *s, yaml_node_t *n,
                     const char *key, const char *name);
/* The scalar n parsed as an expression over s's names (a real scalar's
 * name refused); errors carry the file, key and line. */
int at_spec_expr(at_yaml *y, at_spec *s, yaml_node_t *n, const char *key,
                 at_expr **out);
/* The same from text we build (n: where to point errors). */
int at_spec_expr_text(at_yaml *y, at_spec *s, yaml_node_t *n,
                      const char *key, const char *text, at_expr **out);
/* Whether x reads a slot in [lo, hi). */
int at_spec_reads(const at_expr *x, int lo, int hi);
/* A real number's text (finite: "2.5", "-1e-3"); 1 with *v if it is one
 * and not an integer's, else 0. */
int at_spec_real_text(const char *t, double *v);
/* Index of the argument named name, or -1. */
int at_spec_arg_index(const at_spec *s, const char *name);

int at_spec_load_restrictions(at_yaml *y, at_spec *s, yaml_node_t *r);
int at_spec_load_launch(at_yaml *y, at_spec *s, yaml_node_t *l);
int at_spec_load_args(at_yaml *y, at_spec *s, yaml_node_t *a);
int at_spec_load_verify(at_yaml *y, at_spec *s, yaml_node_t *v);
int at_spec_load_init_kernel(at_yaml *y, at_spec *s, yaml_node_t *k);
int at_spec_load_metrics(at_yaml *y, at_spec *s, yaml_node_t *m);

/* spec_files.c: the file a spec names at node n (key for messages),
 * relative to the spec's folder and inside it (no absolute path, no
 * '..' or link out of it), read whole into *out (NUL-terminated; *len
 * bytes before it). text: a source (no NUL byte in it). */
int at_spec_read(at_yaml *y, const at_spec *s, yaml_node_t *n,
                 const char *key, const char *name, int text, char **out,
                 size_t *len);
/* A source file named at node n: its name into *file and its text into
 * *text, as at_spec_read reads it. */
int at_spec_read_source(at_yaml *y, const at_spec *s, yaml_node_t *n,
                        const char *key, char **file, char **text);
/* A data file's elements for argument a (a .npy of a's lane type, or raw
 * bytes): a->data and a->data_bytes. */
int at_spec_load_data(at_yaml *y, const at_spec *s, yaml_node_t *n,
                      at_spec_arg *a);

#endif
