/* Record, not built by make: the host emulation a review of 8210b94 ran
 * (link against build/libautotune.a). It replays every block's workspace
 * writes and the combiner's zeroing from the family's own launch(), args()
 * and workspace() for every valid point of 320 problems and their check
 * problems: 3,145,455 point x case runs, 0 words left non-zero, 0 out of
 * bounds; with the old strip atomics it finds 1,512 bad of 2,950. */
/* Host emulation of templates/reduce.cu's workspace accesses (8210b94):
 * for every valid point of many problems (and the family's check problems
 * the point fits), the launch/args/workspace of the family, then each
 * block's writes and the combining block's zeroes, byte by byte. Reports
 * any access past the workspace, any byte left dirty, and zeroes of
 * bytes never written (harmless, noted). */
#include "gen/family.h"
#include "gen/problem.h"
#include "gen/reduce.h"
#include "gen/space.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *dirty, *wr;
static size_t wsz;
static long long oob, zero_unwritten;

static void mark(long long off, int bytes, int v)
{
    if (off < 0 || (size_t)(off + bytes) > wsz) {
        ++oob;
        return;
    }
    for (int i = 0; i < bytes; ++i) {
        if (v)
            wr[off + i] = 1;
        else if (!wr[off + i])
            ++zero_unwritten;
        dirty[off + i] = (unsigned char)v;
    }
}

static long long arg_ll(const at_args *a, int i)
{
    long long v;
    memcpy(&v, a->store[i], 8);
    return v;
}

/* returns number of dirty bytes left; -1 on oob */
static long long emulate(const at_problem *p, const at_point *pt,
                         char *why, size_t wn)
{
    const at_family *f = p->family;
    at_launch L;
    memset(&L, 0, sizeof L);
    f->ops.launch(p, pt, &L);
    wsz = f->ops.workspace(p, pt);
    const int *x = pt->v;
    const int T = x[THREADS], G = x[GROUP], V = x[VEC];
    const int comb = x[COMBINE];
    const int acc = at_rd_acc_bytes(p->type);
    const int down = at_rd_down(p), flat = down && at_rd_flat(pt);
    at_args a0, a1;
    f->ops.args(p, pt, 0, 0, 0, 0, &a0);
    f->ops.args(p, pt, 0, 0, 0, 1, &a1);
    const long long rows = arg_ll(&a0, 3), cols = arg_ll(&a0, 4);
    const long long seg0 = arg_ll(&a0, 6), seg1 = arg_ll(&a1, 6);
    const long long gx = L.grid[0];
    const int split = (int)L.grid[1];
    dirty = calloc(wsz + 1, 1);
    wr = calloc(wsz + 1, 1);
    oob = zero_unwritten = 0;
    if (split == 1) {
        /* kernel returns before any workspace access */
        if (L.passes == 2)
            snprintf(why, wn, "two passes with split 1");
        goto done;
    }
    if (wsz == 0) {
        snprintf(why, wn, "split %d but no workspace", split);
        free(dirty), free(wr);
        return -2;
    }
    if (!down) {
        if (G != T) {
            snprintf(why, wn, "along rows split with group < threads");
            free(dirty), free(wr);
            return -2;
        }
        const long long RPB = T / G;
        for (long long bx = 0; bx < gx; ++bx) {
            const long long row = bx * RPB; /* one row a block */
            if (row >= rows) {
                snprintf(why, wn, "row past rows");
                continue;
            }
            for (int s = 0; s < split; ++s) {
                if (comb == 1)
                    mark((row * split + s) * acc, acc, 1);
                else if (comb == 0) {
                    mark((row * split + s) * acc, acc, 1);
                    mark(rows * split * acc + row * 4, 4, 1);
                } else {
                    mark(row * acc, acc, 1);
                    mark(rows * acc + row * 4, 4, 1);
                }
            }
            /* last block */
            if (comb == 0) {
                mark(rows * split * acc + row * 4, 4, 0);
                for (long long i = 0; i < split; ++i)
                    mark((row * split + i) * acc, acc, 0);
            } else if (comb == 2) {
                mark(rows * acc + row * 4, 4, 0);
                mark(row * acc, acc, 0);
            }
        }
        if (comb == 1) {
            if (L.passes != 2)
                snprintf(why, wn, "combine 1 one pass");
            for (long long row = 0; row < L.grid2[0]; ++row)
                for (long long i = 0; i < seg1; ++i)
                    mark((row * seg1 + i) * acc, acc, 0);
        }
    } else if (flat) {
        for (int s = 0; s < split; ++s)
            for (int t = 0; t < T; ++t) {
                if (t >= cols)
                    continue;
                if (comb == 2)
                    mark(t * acc, acc, 1);
                else
                    mark((s * cols + t) * acc, acc, 1);
                if (comb != 1 && t == 0)
                    mark((comb == 2 ? cols : cols * split) * acc, 4, 1);
            }
        if (comb == 0) {
            mark(cols * split * acc, 4, 0);
            for (long long i = 0; i < split * cols; ++i)
                mark(i * acc, acc, 0);
        } else if (comb == 2) {
            mark(cols * acc, 4, 0);
            for (int t = 0; t < T; ++t)
                if (t < cols)
                    mark(t * acc, acc, 0);
        } else {
            if (L.grid2[0] != 1)
                snprintf(why, wn, "flat pass 1 grid %u", L.grid2[0]);
            for (long long b = 0; b < L.grid2[0]; ++b)
                for (long long i = 0; i < seg1 * cols; ++i)
                    mark(i * acc, acc, 0);
        }
    } else {
        const long long W = (long long)G * V;
        const long long strips = (cols + W - 1) / W;
        if (strips != gx)
            snprintf(why, wn, "strips %lld grid %lld", strips, gx);
        for (long long strip = 0; strip < gx; ++strip) {
            for (int s = 0; s < split; ++s)
                for (int t = 0; t < G; ++t) {
                    const int ty = t / G;
                    const long long col = (long long)(t % G) * V;
                    const long long c0 = strip * W + col;
                    const long long left = cols - c0;
                    const int n = left <= 0 ? 0 : left >= V ? V : (int)left;
                    if (ty != 0)
                        continue;
                    for (int e = 0; e < V; ++e) {
                        if (comb == 2) {
                            if (e < n)
                                mark((strip * W + col + e) * acc, acc, 1);
                        } else
                            mark(((strip * split + s) * W + col + e) * acc,
                                 acc, 1);
                    }
                    if (comb != 1 && t == 0)
                        mark((comb == 2 ? strips * W : strips * split * W) *
                                     acc +
                                 strip * 4,
                             4, 1);
                }
            if (comb == 0) {
                mark(strips * split * W * acc + strip * 4, 4, 0);
                for (long long i = 0; i < split * W; ++i)
                    mark((strip * split * W + i) * acc, acc, 0);
            } else if (comb == 2) {
                mark(strips * W * acc + strip * 4, 4, 0);
                for (int t = 0; t < G; ++t) {
                    const int ty = t / G;
                    const long long col = (long long)(t % G) * V;
                    const long long c0 = strip * W + col;
                    const long long left = cols - c0;
                    const int n = left <= 0 ? 0 : left >= V ? V : (int)left;
                    if (ty == 0)
                        for (int e = 0; e < n; ++e)
                            mark((strip * W + col + e) * acc, acc, 0);
                }
            }
        }
        if (comb == 1)
            for (long long strip = 0; strip < L.grid2[0]; ++strip)
                for (long long i = 0; i < seg1 * W; ++i)
                    mark((strip * seg1 * W + i) * acc, acc, 0);
    }
    (void)seg0;
done:;
    long long left = 0;
    for (size_t i = 0; i < wsz; ++i)
        left += dirty[i];
    free(dirty);
    free(wr);
    if (oob)
        return -1;
    return left;
}

static long long n_checked, n_bad, n_zu;

static void run_problem(const char *type, const char *text, int sms)
{
    at_problem p;
    at_err e = {0};
    if (at_problem_make(&p, "reduce", type, text, &e)) {
        fprintf(stderr, "%s %s: %s\n", type, text, e.msg);
        return;
    }
    at_limits l;
    at_limits_for_arch(90, &l);
    at_point *pts;
    size_t n;
    if (at_space_points(p.family, &p, &l, &pts, &n, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return;
    }
    for (size_t i = 0; i < n; ++i) {
        for (int k = -1; k < p.family->n_checks; ++k) {
            at_problem q = p;
            const char *label = "problem";
            if (k >= 0) {
                if (p.family->ops.check_problem(&p, k, &q, &label, &e))
                    continue;
                if (p.family->ops.check_fits &&
                    !p.family->ops.check_fits(&p, &pts[i], k))
                    continue;
            }
            q.sms = sms;
            char why[128] = "";
            long long r = emulate(&q, &pts[i], why, sizeof why);
            ++n_checked;
            n_zu += zero_unwritten ? 1 : 0;
            if (r != 0 || why[0]) {
                char buf[256];
                at_point_params(p.family, &pts[i], buf, sizeof buf);
                printf("BAD %s [%s] %s (%s) sms=%d: %lld %s oob=%lld\n",
                       type, text, buf, label, sms, r, why, oob);
                ++n_bad;
            }
        }
    }
    free(pts);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    int only = argc > 1 ? atoi(argv[1]) : -1;
    static const char *types[] = {"f32", "f64", "f16", "i32"};
    static const char *ops[] = {"sum", "min", "max", "sumsq", "amax"};
    static const char *shapes[] = {
        "axis=rows rows=409999 cols=333 ld=336",
        "axis=rows rows=4096 cols=129",
        "axis=rows rows=4096 cols=100",
        "axis=rows rows=20011 cols=127",
        "axis=rows rows=4099 cols=5 ld=7",
        "axis=rows rows=100003 cols=61 ld=64",
        "axis=rows rows=300000 cols=120 ld=128",
        "axis=rows rows=1000000 cols=250 ld=256",
        "axis=rows rows=77777 cols=1000",
        "axis=rows rows=3000 cols=3",
        "axis=cols rows=30011 cols=47",
        "axis=cols rows=64 cols=1000003",
        "axis=cols rows=7 cols=250001 ld=250003",
        "axis=cols rows=1031 cols=1500 ld=1501",
        "axis=all n=10000019",
        "axis=all n=777",
    };
    for (size_t t = 0; t < sizeof types / sizeof *types; ++t)
        if (only < 0 || (int)t == only)
        for (size_t o = 0; o < sizeof ops / sizeof *ops; ++o)
            for (size_t s = 0; s < sizeof shapes / sizeof *shapes; ++s) {
                char text[200];
                snprintf(text, sizeof text, "op=%s %s", ops[o], shapes[s]);
                fprintf(stderr, "%s %s\n", types[t], text);
                run_problem(types[t], text, 132);
                if (strstr(shapes[s], "axis=rows")) {
                    run_problem(types[t], text, 1);
                    run_problem(types[t], text, 7);
                    run_problem(types[t], text, 300);
                }
            }
    printf("checked %lld, bad %lld, zeroing unwritten bytes in %lld\n",
           n_checked, n_bad, n_zu);
    return n_bad != 0;
}
