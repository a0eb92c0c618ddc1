/* Checks of an output with stretches of their own rules (family.h,
 * at_check_seg: a spec's output with a mismatch budget, or compared by
 * its sum). The stretches between them, the guards and the gaps between
 * outputs included, are compared as the family's rule says with no
 * mismatch allowed, each with counters of its own; a budgeted stretch
 * counts differing elements; a summed one is summed on the host and
 * poisoned again there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/measure/measure_impl.h"

/* The stretches of case k as word ranges of the guarded output: slot 2i
 * the stretch before segment i, 2i + 1 segment i, the last slot the rest. */
static int ranges(at_measure *b, int k, size_t *lo, size_t *hi,
                  at_check_seg *segs)
{
    const at_problem *p = &b->cases[k].p;
    size_t words = (at_whole_words(p->out_bytes) + 2 * AT_GUARD) / 4;
    int n = p->family->ops.check_segments(p, segs, AT_MAX_SEGS);
    size_t at = 0;
    for (int i = 0; i < n; ++i) {
        size_t first = (AT_GUARD + segs[i].first) / 4;
        size_t end = (AT_GUARD + segs[i].end + 3) / 4;
        lo[2 * i] = at;
        hi[2 * i] = first;
        lo[2 * i + 1] = first;
        hi[2 * i + 1] = end;
        at = end;
    }
    lo[2 * n] = at;
    hi[2 * n] = words;
    return n;
}

static int launch(at_measure *b, CUfunction fn, void **args, size_t n,
                  const char *name, at_err *e)
{
    unsigned grid = (unsigned)((n + 255) / 256);
    if (grid > (unsigned)b->d->sms * 16)
        grid = (unsigned)b->d->sms * 16;
    if (grid == 0)
        return 0;
    AT_CU_TRY(e, name, cuLaunchKernel, fn, grid, 1, 1, 256, 1, 1, 0,
              b->stream, args, NULL);
    return 0;
}

/* Words [lo, hi) compared by the family's kernel into slot s. */
static int exact_range(at_measure *b, int k, int s, size_t lo, size_t hi,
                       const at_runner *run, at_err *e)
{
    at_case *c = &b->cases[k];
    CUdeviceptr got = c->out_alloc + 4 * lo, want = c->ref + 4 * lo;
    CUdeviceptr bound = c->bound ? c->bound + 4 * lo : 0;
    CUdeviceptr bad = at_check_counters(b, k, s);
    unsigned long long n = hi - lo;
    unsigned poison = AT_POISON;
    double scale = c->p.family->ops.tolerance(&c->p, run->pt);
    void *args[] = {&got, &want, &n, &bad, &poison, &bound, &scale};
    return launch(b, b->compare, args, n, run->name, e);
}

/* A budgeted segment: elements compared whole into slot s. */
static int elem_range(at_measure *b, int k, int s, size_t lo, size_t hi,
                      const at_check_seg *g, const at_runner *run, at_err *e)
{
    at_case *c = &b->cases[k];
    CUdeviceptr got = c->out_alloc + 4 * lo, want = c->ref + 4 * lo;
    CUdeviceptr bound = c->bound ? c->bound + 4 * lo : 0;
    CUdeviceptr bad = at_check_counters(b, k, s);
    unsigned words = (unsigned)(g->elem_bytes / 4);
    unsigned long long n = (hi - lo) / words;
    unsigned poison = AT_POISON;
    double scale = c->p.family->ops.tolerance(&c->p, run->pt);
    int fp = c->bound ? g->fp : 0;
    void *args[] = {&got, &want, &n, &words, &bad, &poison, &bound,
                    &scale, &fp};
    return launch(b, b->compare_elems, args, n, run->name, e);
}

int at_segs_queue(at_measure *b, int k, const at_runner *run, at_err *e)
{
    size_t lo[AT_CHECK_SLOTS], hi[AT_CHECK_SLOTS];
    at_check_seg segs[AT_MAX_SEGS];
    int n = ranges(b, k, lo, hi, segs), rc = 0;
    for (int s = 0; s <= 2 * n && !rc; ++s) {
        if (s % 2 == 0)
            rc = exact_range(b, k, s, lo[s], hi[s], run, e);
        else if (!segs[s / 2].sum)
            rc = elem_range(b, k, s, lo[s], hi[s], &segs[s / 2], run, e);
    }
    return rc;
}

/* The sum of fp-byte float lanes, in long double. */
static long double lane_sum(const unsigned char *x, size_t bytes, int fp)
{
    long double sum = 0;
    for (size_t i = 0; i + (size_t)fp <= bytes; i += (size_t)fp) {
        if (fp == 4) {
            float f;
            memcpy(&f, x + i, 4);
            sum += f;
        } else {
            double d;
            memcpy(&d, x + i, 8);
            sum += d;
        }
    }
    return sum;
}

/* A summed segment: its sum against the reference's, on the host; the
 * output poisoned again. *rel: |sum - ref| / |ref| (0 if equal). */
static int judge_sum(at_measure *b, int k, const at_check_seg *g, size_t lo,
                     size_t hi, const at_runner *run, double *rel, at_err *e)
{
    at_case *c = &b->cases[k];
    size_t bytes = g->end - g->first;
    unsigned char *got = malloc(bytes ? bytes : 1);
    unsigned char *want = malloc(bytes ? bytes : 1);
    int rc = got && want ? 0 : at_fail(e, AUTOTUNE_ENOMEM, "sum of %s",
                                       g->name);
    CUresult r;
    size_t at = AT_GUARD + g->first;
    if (!rc && (r = at_cu.cuMemcpyDtoH(got, c->out_alloc + at, bytes)))
        rc = at_cu_fail(e, r, "cuMemcpyDtoH(sum)", run->name);
    if (!rc && (r = at_cu.cuMemcpyDtoH(want, c->ref + at, bytes)))
        rc = at_cu_fail(e, r, "cuMemcpyDtoH(reference sum)", run->name);
    if (!rc && (r = at_cu.cuMemsetD32(c->out_alloc + 4 * lo, AT_POISON,
                                      hi - lo)))
        rc = at_cu_fail(e, r, "cuMemsetD32(poison)", run->name);
    if (!rc) {
        long double s = lane_sum(got, bytes, g->fp);
        long double w = lane_sum(want, bytes, g->fp);
        long double d = fabsl(s - w);
        *rel = w != 0 ? (double)(d / fabsl(w)) : (double)d;
        if (!(d <= g->atol + g->rtol * fabsl(w)))
            rc = at_fail(e, AUTOTUNE_EWRONG, "wrong answer [variant %s] on "
                         "%s: %s sums to %.17Lg, the reference's to %.17Lg "
                         "(apart by %.3Lg; atol %g, rtol %g)", run->name,
                         c->label, g->name, s, w, d, g->atol, g->rtol);
    }
    free(got);
    free(want);
    return rc;
}

int at_segs_judge(at_measure *b, int k, const at_runner *run,
                  const unsigned long long *bad, at_err *e)
{
    size_t lo[AT_CHECK_SLOTS], hi[AT_CHECK_SLOTS];
    at_check_seg segs[AT_MAX_SEGS];
    int n = ranges(b, k, lo, hi, segs);
    /* Sums first: their stretches are poisoned again whatever follows. */
    double rel[AT_MAX_SEGS] = {0};
    int rc = 0;
    for (int i = 0; i < n; ++i)
        if (segs[i].sum) {
            int r = judge_sum(b, k, &segs[i], lo[2 * i + 1], hi[2 * i + 1],
                              run, &rel[i], e);
            rc = rc ? rc : r;
            if (r && r != AUTOTUNE_EWRONG)
                return r;
        }
    for (int s = 0; s <= 2 * n && !rc; s += 2)
        if (bad[2 * s])
            return at_check_report(b, k, run, &bad[2 * s], lo[s], e);
    for (int i = 0; i < n && !rc; ++i) {
        const unsigned long long *own = &bad[2 * (2 * i + 1)];
        if (!segs[i].sum && own[0] > segs[i].budget) {
            rc = at_check_report(b, k, run, own, lo[2 * i + 1], e);
            at_err_prefix(e, "%s: %llu elements differ, more than its budget "
                          "of %llu; ", segs[i].name, own[0],
                          (unsigned long long)segs[i].budget);
        }
    }
    if (rc || k != 0)
        return rc;
    b->n_segs = n;
    for (int i = 0; i < n; ++i) {
        b->segs[i] = segs[i];
        b->seg_last[i] = segs[i].sum ? 0 : bad[2 * (2 * i + 1)];
        b->sum_last[i] = rel[i];
        if (b->seg_last[i] > b->seg_most[i])
            b->seg_most[i] = b->seg_last[i];
        if (rel[i] > b->sum_most[i])
            b->sum_most[i] = rel[i];
    }
    return 0;
}

void at_measure_check_note(const at_measure *b, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < b->n_segs && k < n; ++i) {
        const at_check_seg *g = &b->segs[i];
        if (g->sum)
            k += (size_t)snprintf(buf + k, n - k, "%s%s by its sum: the "
                                  "last checked %.2g from the reference's, "
                                  "at most %.2g (relative; atol %g, rtol "
                                  "%g)", k ? "; " : "", g->name,
                                  b->sum_last[i], b->sum_most[i], g->atol,
                                  g->rtol);
        else
            k += (size_t)snprintf(buf + k, n - k, "%s%s: the last checked "
                                  "differed in %llu of %zu elements, at "
                                  "most %llu in any check (budget %llu)",
                                  k ? "; " : "", g->name,
                                  (unsigned long long)b->seg_last[i],
                                  (g->end - g->first) / (size_t)g->elem_bytes,
                                  (unsigned long long)b->seg_most[i],
                                  (unsigned long long)g->budget);
    }
}
