/* A spec's buffers packed into one input and one output (spec_family.h),
 * their first contents, the device reference, and the spec's meaning as
 * text for the cache key. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/expand.h"
#include "gen/spec_family_impl.h"

/* Buffers start on 256 bytes; outputs also leave GAP poisoned bytes
 * between them, so a write just past one is caught, not taken for the
 * next one's. */
enum { ALIGN = 256, GAP = 256 };
#define MAX_BYTES ((size_t)1 << 40)

static size_t up(size_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

int sf_layout_make(const spec_family *sf, const at_problem *p, sf_layout *lay,
                   at_err *e)
{
    const at_spec *s = &sf->s;
    int64_t slots[SF_MAX_SLOTS];
    memset(lay, 0, sizeof *lay);
    sf_slots(sf, p, NULL, NULL, slots);
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
        if (sf_is_input(a)) {
            lay->in_off[i] = in;
            in = up(in + lay->bytes[i]);
        }
        if (sf_is_output(a)) {
            lay->out_off[i] = out;
            out = up(out + lay->bytes[i]) + GAP;
        }
        if (in > MAX_BYTES || out > MAX_BYTES)
            return at_fail(e, AUTOTUNE_ERANGE, "%s: the buffers need more "
                           "than 2^40 bytes", s->file);
    }
    /* The copy the kernels are compared with reads the input. */
    lay->in_bytes = in > ALIGN ? in : ALIGN;
    lay->out_bytes = out > ALIGN ? out : ALIGN;
    return 0;
}

/* Lane value v as the lane's bytes (fp: float lanes of that size). */
static void put_lane(unsigned char *at, int bytes, int fp, double v)
{
    if (fp == 4) {
        float x = (float)v;
        memcpy(at, &x, 4);
    } else if (fp == 8) {
        memcpy(at, &v, 8);
    } else if (fp == 2) {
        /* v is k / 128 with |k| <= 128 or a small whole number: exact in
         * f16 and bf16 both; the element type says which (bf16: the
         * high half of the f32). */
        float x = (float)v;
        uint32_t u;
        memcpy(&u, &x, 4);
        uint16_t h = (uint16_t)(u >> 16);
        memcpy(at, &h, 2);
    } else {
        int64_t k = (int64_t)v;
        memcpy(at, &k, (size_t)bytes); /* little-endian: the low bytes */
    }
}

/* f16 lanes: the same value in half precision's layout. */
static uint16_t f16_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    uint32_t sign = (u >> 16) & 0x8000, e = (u >> 23) & 0xFF;
    uint32_t m = u & 0x7FFFFF;
    if (e == 0)
        return (uint16_t)sign; /* zero */
    int he = (int)e - 127 + 15; /* the values used are normal in f16 */
    if (he >= 31)
        return (uint16_t)(sign | 0x7C00); /* past f16's range (iota) */
    return (uint16_t)(sign | (uint32_t)he << 10 | m >> 13);
}

/* One element's first contents (init), its lanes from rnd where random:
 * floats k / 128 for k in [-128, 128), integers in [0, 128). */
static void element(const at_spec_arg *a, size_t idx, unsigned char *at,
                    const unsigned char *rnd)
{
    const at_type *t = a->type;
    int lane = t->fp ? t->fp : t->bytes;
    for (int l = 0; l < t->bytes / lane; ++l) {
        double v;
        switch (a->init) {
        case AT_INIT_ZEROS: v = 0; break;
        case AT_INIT_ONES: v = 1; break;
        case AT_INIT_IOTA: v = (double)idx; break;
        default:
            v = t->fp ? (double)((int)rnd[l * lane] - 128) / 128
                      : (double)(rnd[l * lane] & 0x7F);
        }
        unsigned char *x = at + l * lane;
        if (t->fp == 2 && strcmp(t->name, "f16") == 0) {
            uint16_t h = f16_bits((float)v);
            memcpy(x, &h, 2);
        } else {
            put_lane(x, lane, t->fp, v);
        }
    }
}

void sf_input(const at_problem *p, uint64_t stream, uint32_t *w,
              size_t first, size_t end)
{
    const at_spec *s = &sf_of(p)->s;
    sf_layout lay;
    (void)stream;
    if (sf_layout_make(sf_of(p), p, &lay, NULL))
        return;
    unsigned char *bytes = (unsigned char *)w;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (!sf_is_input(a))
            continue;
        size_t eb = (size_t)a->type->bytes, n = lay.bytes[i] / eb;
        size_t lo = first * 4, hi = end * 4, off = lay.in_off[i];
        /* Chunks end on multiples of 8 bytes and elements are aligned to
         * their size (at most 16, in a 256-aligned buffer): elements
         * whose first byte is in [lo, hi) lie wholly in it. */
        size_t k0 = lo > off ? (lo - off + eb - 1) / eb : 0;
        for (size_t k = k0; k < n && off + k * eb < hi; ++k) {
            unsigned char rnd[16];
            memcpy(rnd, bytes + off + k * eb, eb);
            element(a, k, bytes + off + k * eb, rnd);
        }
    }
}

int sf_copies(const at_problem *p, at_copy *c, int max)
{
    const at_spec *s = &sf_of(p)->s;
    sf_layout lay;
    int k = 0;
    if (sf_layout_make(sf_of(p), p, &lay, NULL))
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

void sf_where(const at_problem *p, size_t elem, char *buf, size_t n)
{
    const at_spec *s = &sf_of(p)->s;
    sf_layout lay;
    size_t byte = elem * (size_t)p->type->bytes;
    snprintf(buf, n, "byte %zu of the outputs, between buffers", byte);
    if (sf_layout_make(sf_of(p), p, &lay, NULL))
        return;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (sf_is_output(a) && byte >= lay.out_off[i] &&
            byte < lay.out_off[i] + lay.bytes[i]) {
            snprintf(buf, n, "%s[%zu]", a->name,
                     (byte - lay.out_off[i]) / (size_t)a->type->bytes);
            return;
        }
    }
}

double sf_bytes_moved(const at_problem *p)
{
    const at_spec *s = &sf_of(p)->s;
    int64_t slots[SF_MAX_SLOTS];
    if (s->bytes) {
        sf_slots(sf_of(p), p, NULL, NULL, slots);
        return (double)sf_eval(s->bytes, slots);
    }
    sf_layout lay;
    double sum = 0;
    if (!sf_layout_make(sf_of(p), p, &lay, NULL))
        for (int i = 0; i < s->n_args; ++i)
            sum += (double)lay.bytes[i] *
                   (s->args[i].kind == AT_ARG_BUFFER &&
                            s->args[i].dir == AT_DIR_INOUT
                        ? 2
                        : 1);
    return sum;
}

size_t sf_copy_bytes(const at_problem *p)
{
    /* Half the bytes moved (a copy reads and writes each), at most the
     * input it copies from, whole words. */
    double half = sf_bytes_moved(p) / 2;
    size_t c = half < 4 ? 4 : (size_t)half;
    c = c > p->in_bytes ? p->in_bytes : c;
    return c & ~(size_t)3;
}

double sf_flops(const at_problem *p)
{
    int64_t slots[SF_MAX_SLOTS];
    sf_slots(sf_of(p), p, NULL, NULL, slots);
    return (double)sf_eval(sf_of(p)->s.flops, slots);
}

char *sf_ref_source(const at_problem *p, const at_limits *l, at_point *pt,
                    char *kernel, size_t n, at_err *e)
{
    const at_spec *s = &sf_of(p)->s;
    memset(pt, 0, sizeof *pt);
    if (s->has_reference_point) {
        memcpy(pt->v, s->reference_point, sizeof(int) * (size_t)s->n_params);
        snprintf(kernel, n, "at_reference");
        char why[256];
        if (!p->family->valid(p, pt, l, why, sizeof why)) {
            at_fail(e, AUTOTUNE_EINVALID, "%s: verify.reference_point is "
                    "not a valid point of this problem: %s", s->file, why);
            return NULL;
        }
    } else {
        /* The tuned kernel is in the same source and needs its
         * parameters: the first point the constraint keeps. */
        at_space_first(p->family, p, l, pt);
        snprintf(kernel, n, "%s", s->reference_kernel);
    }
    return at_expand(p, pt, "at_reference", NULL, e);
}

void sf_ref_launch(const at_problem *p, const at_point *pt, at_launch *g)
{
    const at_spec *s = &sf_of(p)->s;
    if (s->has_reference_point) {
        sf_launch(p, pt, g);
        return;
    }
    int64_t slots[SF_MAX_SLOTS];
    sf_slots(sf_of(p), p, pt->v, NULL, slots);
    memset(g, 0, sizeof *g);
    g->passes = 1;
    for (int d = 0; d < 3; ++d) {
        g->block[d] = (unsigned)sf_eval(s->ref_block[d], slots);
        g->grid[d] = (unsigned)sf_eval(s->ref_grid[d], slots);
    }
}

void sf_ref_bounds(const at_problem *p, const void *ref, void *bound)
{
    const spec_family *sf = sf_of(p);
    const at_spec *s = &sf->s;
    sf_layout lay;
    if (!sf->cmp_fp || sf_layout_make(sf, p, &lay, NULL))
        return;
    const unsigned char *r = ref;
    unsigned char *b = bound;
    const size_t w = (size_t)sf->cmp_fp;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (!sf_is_output(a))
            continue;
        size_t off = lay.out_off[i];
        size_t stop = off + (lay.bytes[i] + w - 1) / w * w;
        for (size_t x = off; x < stop; x += w) {
            double v, u = -1; /* exact */
            if (!a->exact) {
                if (w == 4) {
                    float f;
                    memcpy(&f, r + x, 4);
                    v = f;
                } else {
                    memcpy(&v, r + x, 8);
                }
                u = a->atol + a->rtol * fabs(v);
            }
            if (w == 4) {
                float f = (float)u;
                memcpy(b + x, &f, 4);
            } else {
                memcpy(b + x, &u, 8);
            }
        }
    }
}
