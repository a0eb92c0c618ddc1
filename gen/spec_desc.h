/* A family described in C (autotune_family_desc, include/autotune.h)
 * written as a spec's text, so it loads through the one spec loader and
 * a worker process makes it again from that text. */
#ifndef AT_SPEC_DESC_H
#define AT_SPEC_DESC_H

#include "autotune.h"
#include "base/error.h"

/* The spec (JSON, which the loader reads as YAML) of d; malloc'd, NULL
 * with e set. */
char *at_spec_text_of(const autotune_family_desc *d, at_err *e);

#endif
