/* A spec's buffers packed into one input and one output (spec/spec.h),
 * what a run copies, where an output word belongs, the bytes moved and
 * the outputs checked by rules of their own. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_family_impl.h"

/* Buffers start on 256 bytes; outputs also leave GAP poisoned bytes
 * between them, so a write just past one is caught, not taken for the
 * next one's. */
enum { ALIGN = 256, GAP = 256 };
#define MAX_BYTES ((size_t)1 << 40)

static size_t up(size_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

int at_sf_layout_make(const spec_family *sf, const at_problem *p, at_sf_layout *lay,
                   at_err *e)
{
    const at_spec *s = &sf->s;
    int64_t slots[SF_MAX_SLOTS];
    memset(lay, 0, sizeof *lay);
    at_sf_slots(sf, p, NULL, NULL, slots);
    size_t in = 0, out = 0;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (a->kind == AT_ARG_SCALAR)
            continue;
        int64_t n = 0;
        at_err why = {0};
        if (at_expr_eval(a->count, slots, &n, &why))
            return at_fail(e, AUTOTUNE_ERANGE, "%s: %s: %s", s->file,
                           a->name, why.msg);
        if (n < 0 || (uint64_t)n > MAX_BYTES / (uint64_t)a->type->bytes)
            return at_fail(e, AUTOTUNE_ERANGE, "%s: %s: %" PRId64 " "
                           "elements (%s) is not a buffer size", s->file,
                           a->name, n, at_expr_text(a->count));
        lay->bytes[i] = (size_t)n * (size_t)a->type->bytes;
        if (a->init == AT_INIT_FILE && a->data_bytes != lay->bytes[i])
            return at_fail(e, AUTOTUNE_ERANGE, "%s: %s: %s holds %zu bytes, "
                           "the argument's %" PRId64 " elements of %s are "
                           "%zu", s->file, a->name, a->file, a->data_bytes,
                           n, a->type->name, lay->bytes[i]);
        if (at_sf_is_input(a)) {
            lay->in_off[i] = in;
            in = up(in + lay->bytes[i]);
        }
        if (at_sf_is_output(a)) {
            lay->out_off[i] = out;
            out = up(out + lay->bytes[i]) + GAP;
        }
        if (in > MAX_BYTES || out > MAX_BYTES)
            return at_fail(e, AUTOTUNE_ERANGE, "%s: the buffers need more "
                           "than 2^40 bytes", s->file);
    }
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (a->init == AT_INIT_COPY && lay->bytes[a->copy_of] < lay->bytes[i])
            return at_fail(e, AUTOTUNE_ERANGE, "%s: %s: a copy of %s, which "
                           "has fewer elements", s->file, a->name,
                           s->args[a->copy_of].name);
    }
    /* The copy the kernels are compared with reads the input. */
    lay->in_bytes = in > ALIGN ? in : ALIGN;
    lay->out_bytes = out > ALIGN ? out : ALIGN;
    return 0;
}

int at_sf_copies(const at_problem *p, at_copy *c, int max)
{
    const at_spec *s = &at_sf_of(p)->s;
    at_sf_layout lay;
    int k = 0;
    if (at_sf_layout_make(at_sf_of(p), p, &lay, NULL))
        return 0;
    for (int i = 0; i < s->n_args && k < max; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (a->kind == AT_ARG_CONSTANT)
            c[k++] = (at_copy){a->name, lay.in_off[i], 0, lay.bytes[i], i};
        else if (a->kind == AT_ARG_BUFFER && a->dir == AT_DIR_INOUT)
            c[k++] = (at_copy){NULL, lay.in_off[i], lay.out_off[i],
                               lay.bytes[i], i};
    }
    return k;
}

void at_sf_where(const at_problem *p, size_t elem, char *buf, size_t n)
{
    const at_spec *s = &at_sf_of(p)->s;
    at_sf_layout lay;
    size_t byte = elem * (size_t)p->type->bytes;
    snprintf(buf, n, "byte %zu of the outputs, between buffers", byte);
    if (at_sf_layout_make(at_sf_of(p), p, &lay, NULL))
        return;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (at_sf_is_output(a) && byte >= lay.out_off[i] &&
            byte < lay.out_off[i] + lay.bytes[i]) {
            snprintf(buf, n, "%s[%zu]", a->name,
                     (byte - lay.out_off[i]) / (size_t)a->type->bytes);
            return;
        }
    }
}

double at_sf_bytes_moved(const at_problem *p)
{
    const at_spec *s = &at_sf_of(p)->s;
    int64_t slots[SF_MAX_SLOTS];
    if (s->bytes) {
        at_sf_slots(at_sf_of(p), p, NULL, NULL, slots);
        return (double)at_sf_eval(s->bytes, slots);
    }
    at_sf_layout lay;
    double sum = 0;
    if (!at_sf_layout_make(at_sf_of(p), p, &lay, NULL))
        for (int i = 0; i < s->n_args; ++i)
            sum += (double)lay.bytes[i] *
                   (s->args[i].kind == AT_ARG_BUFFER &&
                            s->args[i].dir == AT_DIR_INOUT
                        ? 2
                        : 1);
    return sum;
}

size_t at_sf_copy_bytes(const at_problem *p)
{
    /* Half the bytes moved (a copy reads and writes each), at most the
     * input it copies from, whole words. */
    double half = at_sf_bytes_moved(p) / 2;
    size_t c = half < 4 ? 4 : (size_t)half;
    c = c > p->in_bytes ? p->in_bytes : c;
    return c & ~(size_t)3;
}

double at_sf_flops(const at_problem *p)
{
    int64_t slots[SF_MAX_SLOTS];
    at_sf_slots(at_sf_of(p), p, NULL, NULL, slots);
    return (double)at_sf_eval(at_sf_of(p)->s.flops, slots);
}

int at_sf_check_segments(const at_problem *p, at_check_seg *seg, int max)
{
    const at_spec *s = &at_sf_of(p)->s;
    int64_t slots[SF_MAX_SLOTS];
    at_sf_layout lay;
    int k = 0;
    if (at_sf_layout_make(at_sf_of(p), p, &lay, NULL))
        return 0;
    at_sf_slots(at_sf_of(p), p, NULL, NULL, slots);
    /* Outputs are laid out in argument order, so these are in order. */
    for (int i = 0; i < s->n_args && k < max; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (!at_sf_is_output(a) ||
            (!a->max_mismatches && a->compare != AT_COMPARE_SUM))
            continue;
        int64_t budget = a->max_mismatches
                             ? at_sf_eval(a->max_mismatches, slots) : 0;
        seg[k++] = (at_check_seg){
            lay.out_off[i], lay.out_off[i] + lay.bytes[i],
            budget > 0 ? (uint64_t)budget : 0, a->type->bytes,
            a->compare == AT_COMPARE_SUM, a->type->fp, a->atol, a->rtol,
            a->name};
    }
    return k;
}
