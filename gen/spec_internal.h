/* Shared between the spec loader's files (gen/spec.c, spec_parts.c). */
#ifndef AT_SPEC_INTERNAL_H
#define AT_SPEC_INTERNAL_H

#include "gen/spec.h"
#include "gen/spec_yaml.h"

int at_spec_check_ident(at_yaml *y, yaml_node_t *n, const char *key,
                        const char *name);
int at_spec_new_name(at_yaml *y, const at_spec *s, yaml_node_t *n,
                     const char *key, const char *name);
int at_spec_load_restrictions(at_yaml *y, at_spec *s, yaml_node_t *r);
int at_spec_load_launch(at_yaml *y, at_spec *s, yaml_node_t *l);
int at_spec_load_args(at_yaml *y, at_spec *s, yaml_node_t *a);
int at_spec_load_verify(at_yaml *y, at_spec *s, yaml_node_t *v);
int at_spec_load_metrics(at_yaml *y, at_spec *s, yaml_node_t *m);

#endif
