/* A spec (gen/spec.h) as a kernel family (gen/family.h), made at run time:
 * its sizes and scalars are the problem's fields, its parameters the
 * axes, its restrictions and the launch limits the constraint. The
 * buffers are packed into the one input and one output every family has
 * (spec_layout.c): inputs, inout buffers' first contents and __constant__
 * contents in the input; out and inout buffers in the output, apart by a
 * poisoned gap, so a write past one is caught. The reference runs on the
 * device. Generic code sees only the family table. */
#ifndef AT_SPEC_FAMILY_H
#define AT_SPEC_FAMILY_H

#include "gen/family.h"
#include "gen/spec.h"

/* Makes the family of *s, taking s over (s is zeroed). The family's name
 * is the kernel's; free with at_spec_family_free (not while registered
 * and in use). AUTOTUNE_EINVALID naming the spec's file for what the
 * family cannot do (an expression of the launch that reads a device
 * limit, a tolerance on a type other than f32 or f64 lanes, ...). */
int at_spec_family_make(at_spec *s, const at_family **out, at_err *e);
void at_spec_family_free(const at_family *f);
/* The spec a family was made from; NULL for another family. */
const at_spec *at_spec_of(const at_family *f);
/* Loads the spec at path, makes its family and registers it; the same
 * spec loaded again gives the family registered first, a different one
 * of the same kernel name AUTOTUNE_EINVALID. */
int at_spec_family_load(const char *path, const at_family **out,
                        at_err *e);
/* The same from a spec's text and its kernel's source (file names the
 * spec in messages; kernel.source then only names the source); the
 * other files it names are read in dir (NULL: it may name none). */
int at_spec_family_load_mem(const char *text, const char *file,
                            const char *dir, const char *source,
                            const at_family **out, at_err *e);


/* For a test harness that calls the emitted NAME_argv as a user would
 * (tests/gpu/kt_harness.cu): the problem's launcher parameters in order,
 * where each buffer's first contents lie in the packed input and its
 * reference in the packed output, and how each output is checked, as
 * text (docs/SPEC.md, "The data of a problem"). AUTOTUNE_EINVALID if p
 * is not a spec's. */
int at_spec_manifest(const at_problem *p, const char *launcher, FILE *f,
                     at_err *e);
#endif
