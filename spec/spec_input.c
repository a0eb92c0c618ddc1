/* A spec's inputs (spec/spec.h): each input buffer's and constant's
 * first contents, by its init (docs/SPEC.md, "Inputs"). A lane's value
 * depends on the seed, the argument and the element's index alone, so
 * the contents do not depend on how threads share the work, and a copy
 * of an argument is that argument's values. */
#include <math.h>
#include <string.h>

#include "spec/spec_family_impl.h"

/* splitmix64's finaliser: every bit of x reaches every bit. */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* 64 random bits for lane l of element idx of argument k (draw d: a
 * second number where one lane needs two). */
static uint64_t draw(uint64_t key, size_t idx, int l, int d)
{
    return mix(key ^ mix((uint64_t)idx * 32 + (uint64_t)l * 2 +
                         (uint64_t)d));
}

/* A uniform double in [0, 1) from 53 of the bits. */
static double unit(uint64_t b) { return (double)(b >> 11) * 0x1p-53; }

static double lane_value(const at_spec_arg *a, uint64_t key, size_t idx,
                         int l)
{
    const int fp = a->type->fp;
    uint64_t b = draw(key, idx, l, 0);
    switch (a->init) {
    case AT_INIT_ZEROS: return 0;
    case AT_INIT_ONES: return 1;
    case AT_INIT_IOTA: return (double)idx;
    case AT_INIT_NORMAL: {
        /* Box-Muller: u1 in (0, 1], so the log is finite. */
        double u1 = 1.0 - unit(b), u2 = unit(draw(key, idx, l, 1));
        return a->init_a + a->init_b * sqrt(-2 * log(u1)) *
                               cos(6.283185307179586 * u2);
    }
    case AT_INIT_UNIFORM:
        return a->init_a + (a->init_b - a->init_a) * unit(b);
    case AT_INIT_INTEGERS: {
        uint64_t span = (uint64_t)(a->init_b - a->init_a) + 1;
        return a->init_a + (double)(span ? b % span : b);
    }
    default: /* random: k / 128 for k in [-128, 128), or [0, 128) */
        return fp ? (double)((int)(b & 0xFF) - 128) / 128
                  : (double)(b & 0x7F);
    }
}

/* Round to nearest even of a float's bits to f16's or bf16's. */
static uint16_t bf16_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7F800000) == 0x7F800000)
        return (uint16_t)(u >> 16 | ((u & 0xFFFF) ? 0x40 : 0));
    u += 0x7FFF + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

static uint16_t f16_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    float a = fabsf(x);
    if (a != a)
        return (uint16_t)(sign | 0x7E00);
    if (a >= 65520.0f) /* rounds past the largest f16 */
        return (uint16_t)(sign | 0x7C00);
    if (a < 0x1p-14f) /* subnormal: a multiple of 2^-24, rounded */
        return (uint16_t)(sign | (uint16_t)lrintf(a * 0x1p24f));
    int e;
    float m = frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    long q = lrintf(m * 2048.0f); /* 11 bits with the leading one */
    if (q == 2048) {
        q = 1024;
        ++e;
    }
    return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | (q & 0x3FF));
}

/* Lane value v as the lane's bytes. */
static void put_lane(const at_type *t, unsigned char *at, double v)
{
    if (t->fp == 4) {
        float x = (float)v;
        memcpy(at, &x, 4);
    } else if (t->fp == 8) {
        memcpy(at, &v, 8);
    } else if (t->fp == 2) {
        uint16_t h = strncmp(t->ctype, "__half", 6) == 0
                         ? f16_bits((float)v) : bf16_bits((float)v);
        memcpy(at, &h, 2);
    } else {
        /* Whole numbers in the lane's range (integers: checked at load);
         * iota wraps as C's conversion of the low bytes would. */
        int64_t k = v < -9.2e18 ? INT64_MIN : v > 9.2e18 ? INT64_MAX
                                                         : (int64_t)v;
        memcpy(at, &k, (size_t)t->lane); /* little-endian: the low bytes */
    }
}

/* Element idx of argument k's first contents into at. */
static void element(const at_spec *s, uint64_t seed, uint64_t stream, int k,
                    size_t idx, unsigned char *at)
{
    const at_spec_arg *a = &s->args[k];
    if (a->init == AT_INIT_COPY) {
        element(s, seed, stream, a->copy_of, idx, at);
        return;
    }
    const at_type *t = a->type;
    if (a->init == AT_INIT_FILE) {
        /* The problem's finish checked the file holds every element. */
        if ((idx + 1) * (size_t)t->bytes <= a->data_bytes)
            memcpy(at, a->data + idx * (size_t)t->bytes, (size_t)t->bytes);
        return;
    }
    uint64_t key = mix(seed ^ mix(stream * 64 + (uint64_t)k + 1));
    for (int l = 0; l < t->bytes / t->lane; ++l)
        put_lane(t, at + l * t->lane, lane_value(a, key, idx, l));
}

void at_sf_input(const at_problem *p, uint64_t seed, uint64_t stream,
              uint32_t *w, size_t first, size_t end)
{
    const at_spec *s = &at_sf_of(p)->s;
    at_sf_layout lay;
    if (at_sf_layout_make(at_sf_of(p), p, &lay, NULL))
        return;
    unsigned char *bytes = (unsigned char *)w;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (!at_sf_is_input(a))
            continue;
        size_t eb = (size_t)a->type->bytes, n = lay.bytes[i] / eb;
        size_t lo = first * 4, hi = end * 4, off = lay.in_off[i];
        /* Chunks end on multiples of 16 bytes and elements are aligned to
         * their size (at most 16, in a 256-aligned buffer): elements
         * whose first byte is in [lo, hi) lie wholly in it. */
        size_t k0 = lo > off ? (lo - off + eb - 1) / eb : 0;
        for (size_t k = k0; k < n && off + k * eb < hi; ++k)
            element(s, seed, stream, i, k, bytes + off + k * eb);
    }
}
