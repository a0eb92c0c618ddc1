#include "walk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t code_of(const at_space_view *v, const unsigned char *c)
{
    uint64_t k = 0;
    for (int a = 0; a < v->n_axes; ++a)
        k = k * (uint64_t)v->radix[a] + c[a];
    return k;
}

static size_t slot_of(uint64_t code, size_t slots)
{
    code ^= code >> 33; /* murmur3's finaliser: spread the codes */
    code *= 0xff51afd7ed558ccdULL;
    code ^= code >> 33;
    return (size_t)(code & (slots - 1));
}

int at_walk_init(at_walk *w, const at_space_view *v, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    w->v = v;
    at_pcg_seed(&w->rng, seed, 0x5eed);
    w->slots = 16;
    while (w->slots < 2 * v->n)
        w->slots *= 2;
    w->slot_idx = malloc(w->slots * sizeof *w->slot_idx);
    w->slot_code = malloc(w->slots * sizeof *w->slot_code);
    w->proposed = calloc(v->n ? v->n : 1, 1);
    w->ms = malloc((v->n ? v->n : 1) * sizeof *w->ms);
    w->order = malloc((v->n ? v->n : 1) * sizeof *w->order);
    if (!w->slot_idx || !w->slot_code || !w->proposed || !w->ms ||
        !w->order) {
        at_walk_free(w);
        return -1;
    }
    for (size_t s = 0; s < w->slots; ++s)
        w->slot_idx[s] = AT_NONE;
    for (size_t i = 0; i < v->n; ++i) {
        uint64_t c = code_of(v, at_walk_coord(w, i));
        size_t s = slot_of(c, w->slots);
        while (w->slot_idx[s] != AT_NONE)
            s = (s + 1) & (w->slots - 1);
        w->slot_idx[s] = i;
        w->slot_code[s] = c;
        w->ms[i] = NAN;
        w->order[i] = i;
    }
    /* Fisher-Yates: the order fresh points are drawn in. */
    for (size_t i = v->n; i > 1; --i) {
        size_t j = at_walk_rand(w, (uint32_t)i);
        size_t t = w->order[i - 1];
        w->order[i - 1] = w->order[j];
        w->order[j] = t;
    }
    return 0;
}

void at_walk_free(at_walk *w)
{
    free(w->slot_idx);
    free(w->slot_code);
    free(w->proposed);
    free(w->ms);
    free(w->order);
    memset(w, 0, sizeof *w);
}

const unsigned char *at_walk_coord(const at_walk *w, size_t idx)
{
    return w->v->coord + idx * (size_t)w->v->n_axes;
}

size_t at_walk_find(const at_walk *w, const unsigned char *coord)
{
    for (int a = 0; a < w->v->n_axes; ++a)
        if (coord[a] >= w->v->radix[a])
            return AT_NONE;
    uint64_t c = code_of(w->v, coord);
    for (size_t s = slot_of(c, w->slots); w->slot_idx[s] != AT_NONE;
         s = (s + 1) & (w->slots - 1))
        if (w->slot_code[s] == c)
            return w->slot_idx[s];
    return AT_NONE;
}

void at_walk_take(at_walk *w, size_t idx)
{
    w->proposed[idx] = 1;
    w->n_proposed++;
    w->outstanding++;
}

void at_walk_result(at_walk *w, size_t idx, double ms)
{
    w->ms[idx] = ms < 0 ? -1.0 : ms;
    if (w->outstanding)
        w->outstanding--;
}

size_t at_walk_fresh(at_walk *w)
{
    while (w->cursor < w->v->n && w->proposed[w->order[w->cursor]])
        w->cursor++;
    return w->cursor < w->v->n ? w->order[w->cursor] : AT_NONE;
}

int at_walk_better(const at_walk *w, size_t a, size_t b)
{
    if (b == AT_NONE)
        return a != AT_NONE;
    if (a == AT_NONE)
        return 0;
    double x = w->ms[a], y = w->ms[b];
    int xa = x >= 0, ya = y >= 0; /* false for NaN and failures */
    if (xa != ya)
        return xa;
    return xa && x < y;
}

uint32_t at_walk_rand(at_walk *w, uint32_t n)
{
    return n > 1 ? at_pcg_bounded(&w->rng, n) : 0;
}
