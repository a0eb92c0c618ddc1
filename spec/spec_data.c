/* A problem's data described for a harness (spec/spec.h,
 * at_spec_manifest): one line a launcher parameter, in the launcher's
 * order, then one line an output saying how it is checked. The harness
 * (tests/gpu/kt_harness.cu) reads the packed input and reference beside
 * it, so it knows nothing of specs.
 *
 *   autotune-data 1
 *   launcher NAME
 *   param buffer NAME DIR BYTES IN_OFFSET OUT_OFFSET  (-: not there)
 *   param constant NAME BYTES IN_OFFSET
 *   param size NAME VALUE
 *   param scalar NAME int VALUE | param scalar NAME real VALUE
 *   check NAME ELEM_BYTES exact BUDGET
 *   check NAME ELEM_BYTES tol FP ATOL RTOL BUDGET
 *   check NAME ELEM_BYTES sum FP ATOL RTOL */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "spec/spec_family_impl.h"

static void params(const at_problem *p, const at_sf_layout *lay, FILE *f)
{
    static const char *const size_names[] = {"size_x", "size_y", "size_z"};
    const at_spec *s = &at_sf_of(p)->s;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (a->kind == AT_ARG_CONSTANT)
            fprintf(f, "param constant %s %zu %zu\n", a->name, lay->bytes[i],
                    lay->in_off[i]);
        else if (a->kind == AT_ARG_BUFFER && a->dir == AT_DIR_OUT)
            fprintf(f, "param buffer %s out %zu - %zu\n", a->name,
                    lay->bytes[i], lay->out_off[i]);
        else if (a->kind == AT_ARG_BUFFER && a->dir == AT_DIR_IN)
            fprintf(f, "param buffer %s in %zu %zu -\n", a->name,
                    lay->bytes[i], lay->in_off[i]);
        else if (a->kind == AT_ARG_BUFFER)
            fprintf(f, "param buffer %s inout %zu %zu %zu\n", a->name,
                    lay->bytes[i], lay->in_off[i], lay->out_off[i]);
    }
    for (int d = 0; d < s->dims; ++d)
        fprintf(f, "param size %s %" PRId64 "\n", size_names[d], p->v[d]);
    for (int i = 0; i < s->n_scalars; ++i) {
        char real[40];
        if (s->scalar_real[i])
            fprintf(f, "param scalar %s real %s\n", s->scalar_names[i],
                    at_real_text(p->v[s->dims + i], real, sizeof real));
        else
            fprintf(f, "param scalar %s int %" PRId64 "\n",
                    s->scalar_names[i], p->v[s->dims + i]);
    }
}

static void checks(const at_problem *p, FILE *f)
{
    const at_spec *s = &at_sf_of(p)->s;
    int64_t slots[SF_MAX_SLOTS];
    at_sf_slots(at_sf_of(p), p, NULL, NULL, slots);
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (!at_sf_is_output(a))
            continue;
        int64_t budget = a->max_mismatches
                             ? at_sf_eval(a->max_mismatches, slots) : 0;
        fprintf(f, "check %s %d ", a->name, a->type->bytes);
        if (a->compare == AT_COMPARE_SUM)
            fprintf(f, "sum %d %.17g %.17g\n", a->type->fp, a->atol,
                    a->rtol);
        else if (a->exact)
            fprintf(f, "exact %" PRId64 "\n", budget);
        else
            fprintf(f, "tol %d %.17g %.17g %" PRId64 "\n", a->type->fp,
                    a->atol, a->rtol, budget);
    }
}

int at_spec_manifest(const at_problem *p, const char *launcher, FILE *f,
                     at_err *e)
{
    if (!at_spec_of(p->family))
        return at_fail(e, AUTOTUNE_EINVALID, "%s is not a spec's family",
                       p->family->name);
    at_sf_layout lay;
    int rc = at_sf_layout_make(at_sf_of(p), p, &lay, e);
    if (rc)
        return rc;
    fprintf(f, "autotune-data 1\nlauncher %s\n", launcher);
    params(p, &lay, f);
    checks(p, f);
    return 0;
}
