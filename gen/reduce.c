/* The reduce family: its space, constraint predicate, point names,
 * defines, launch and entry. Problem in reduce_problem.c, geometry in
 * reduce_geom.c, verification in reduce_check.c, emission in
 * reduce_emit.c; the kernels in templates/reduce.cu. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce.h"
#include "templates.h"

static const at_axis axes[N_AXES] = {
    [THREADS] = {"threads", "threads per block", 3, {128, 256, 512}},
    [GROUP] = {"group", "threads along a row: a row's share (all the "
               "block's, or a few per row for short rows), or across a "
               "column strip; 0 (flat): the rows read as one run, a "
               "thread a vector (down columns with ld at most the block, "
               "or up to 4 blocks, ceil(ld / threads) vectors a thread; "
               "along short rows end to end, a warp's rows, a thread "
               "items vectors side by side)",
               8, {4, 8, 16, 32, 128, 256, 512, 0}},
    [VEC] = {"vec", "elements per load (at most 16 bytes)", 4,
             {1, 2, 4, 8}},
    [ITEMS] = {"items", "loads in flight per thread per step", 4,
               {1, 2, 4, 8}},
    [ACCS] = {"accs", "independent accumulators per thread", 2, {1, 2}},
    [CHUNK] = {"chunk", "steps per block before the row (column strip) "
               "is split over more blocks; 0: one block group per output",
               4, {0, 4, 16, 64}},
    [COMBINE] = {"combine", "split outputs: 0 the last block combines the "
                 "partials in order, 1 a second pass does, 2 atomics "
                 "(floating-point sums not deterministic)", 3, {0, 1, 2}},
    [TREE] = {"tree", "a block's threads along one row: 0 warp shuffles, "
              "1 a shared-memory tree (down columns, a tree over 16 row "
              "lanes or more, else in order)", 2, {0, 1}},
    /* A chunk's split leaves the last wave of blocks part full (a flat
     * point's few hundred blocks are under one wave of 132 SMs): k
     * blocks an SM fill each wave whole (docs/PERFORMANCE.md). */
    [WAVES] = {"waves", "the rows split over waves x SMs blocks of the "
               "device it runs on, in place of a chunk's split (flat "
               "points; column strips, 2 to 4: at most waves x SMs x "
               "512 / threads blocks, whole steps each; along rows, "
               "flat, among waves x 16 warps an SM); 0: the chunk's "
               "split", 5, {0, 1, 2, 3, 4}},
};

/* Column strips (down) or row blocks (along) past this do not fit a
 * grid's x; splits past 65535 its y. */
#define MAX_GRID_X 2147483647LL
#define MAX_SPLIT 65535LL

/* A strip that can be shifted: 16-byte vectors of 2- or 4-byte
 * elements. Not f64's: its two-element vectors gained nothing over
 * one-element strips on the five odd-ld f64 problems measured (H100),
 * and doubled their tunes. Nor 4-byte vectors of 2-byte elements (abi
 * 9): on three f16 odd-ld problems down columns the best of them was
 * 3 to 6% behind the tune's winner (H200,
 * docs/perf/issue36-h200/r55), and they made such tunes half as long
 * again. */
static int shiftable(const at_problem *p, const at_point *pt)
{
    return at_rd_down(p) && !at_rd_flat(pt) && pt->v[VEC] > 1 &&
           p->type->bytes <= 4 && pt->v[VEC] * p->type->bytes == 16;
}

int at_rd_shift(const at_problem *p, const at_point *pt)
{
    return shiftable(p, pt) && p->v[RD_LD] % pt->v[VEC];
}

static int why_not(char *why, size_t n, const char *msg)
{
    if (why)
        snprintf(why, n, "%s", msg);
    return 0;
}

/* Whether the threads fit the shape: a group no more than twice as wide
 * as a row (column strip) needs, loads in flight that a row (column)
 * fills, and enough blocks where the output is few. */
static int valid_shape(const at_problem *p, const at_point *pt,
                       const at_rd_geom *g, char *why, size_t n)
{
    const int *x = pt->v;
    const int64_t len = at_rd_len(p), across = p->v[RD_COLS];
    const int down = at_rd_down(p);
    const int flat = down && at_rd_flat(pt);
    const int64_t lanes = flat   ? at_rd_flat_lanes(p, pt)
                          : down ? x[THREADS] / x[GROUP]
                                 : x[GROUP];
    /* (One short row still takes a block: the smallest.) */
    const int smallest_block = x[GROUP] == x[THREADS] &&
                               x[THREADS] == axes[THREADS].values[0];
    if (x[GROUP] > 4 && (int64_t)(x[GROUP] / 2) * x[VEC] >= across &&
        !(smallest_block && !down && p->v[RD_ROWS] == 1))
        return why_not(why, n, "group wider than twice the row needs");
    if (x[VEC] > across && !flat)
        return why_not(why, n, "vector wider than a row");
    /* Along rows a step may pass a short row's end, up to twice its
     * length: its vectors past the whole steps go as one predicated step
     * (at_row_part), the whole row in one round trip (bf16 rows of 127,
     * 4 lanes of 4 items of 8: 91% to 96% of the copy on an H100). */
    if (x[ITEMS] > 1 &&
        lanes * x[ITEMS] * (down ? 1 : x[VEC]) > (down ? len : 2 * len))
        return why_not(why, n, "more loads in flight than the length has");
    if (!down && p->v[RD_ROWS] == 1 && x[GROUP] != x[THREADS])
        return why_not(why, n, "one row takes the whole block");
    /* Few outputs: split them over blocks rather than walk far. */
    const int64_t step = lanes * x[ITEMS] * (down ? 1 : x[VEC]);
    if (!x[CHUNK] && !x[WAVES] && g->units < 1024 && len > 16 * step &&
        (down || x[GROUP] == x[THREADS]))
        return why_not(why, n, "few outputs, long walks: split them");
    if (x[CHUNK] && g->split < 2)
        return why_not(why, n, "chunk covers the whole length");
    if (x[WAVES] && down && !flat) {
        /* One wave of strips leaves the SMs short of loads in flight:
         * the slowest of the four in every record taken (H200, bf16 sum
         * down 5749x13821 and f32 min down 874x21633: its best 33% and
         * 21% slower than the record's). */
        if (x[WAVES] == 1)
            return why_not(why, n, "strips take waves of 2 or more");
        if (g->split < 2)
            return why_not(why, n, "waves: a block a strip already fills "
                           "them");
        if (g->seg < 4 * step)
            return why_not(why, n, "too few rows for waves of blocks");
    }
    if (g->split > MAX_SPLIT || g->units > MAX_GRID_X)
        return why_not(why, n, "grid too large");
    return 1;
}

static int valid(const at_problem *p, const at_point *pt, const at_limits *l,
                 char *why, size_t n)
{
    const int *x = pt->v;
    const int down = at_rd_down(p), acc = at_rd_acc_bytes(p->type);
    if (x[THREADS] > l->max_threads)
        return why_not(why, n, "more threads than the target has");
    if (x[VEC] * p->type->bytes > 16)
        return why_not(why, n, "vector over 16 bytes");
    if (x[GROUP] > x[THREADS] || (x[GROUP] > 32 && x[GROUP] != x[THREADS]))
        return why_not(why, n, "group is a warp's share or the block");
    if (x[ACCS] > x[ITEMS])
        return why_not(why, n, "more accumulators than loads in flight");
    const int flat = at_rd_flat(pt);
    if (flat && !down) {
        const char *no = at_rd_flat_rows_refusal(p, pt);
        return no ? why_not(why, n, no) : 1;
    }
    if (x[WAVES] && (!down || x[CHUNK]))
        return why_not(why, n, "waves split flat points and column "
                       "strips, in place of a chunk");
    /* At least four steps a block on the nominal device, so the space
     * is the same on every device (strips: valid_shape). */
    if (x[WAVES] && flat &&
        at_rd_len(p) < 4 * at_rd_flat_step(p, pt) * x[WAVES] *
                           AT_RD_NOMINAL_SMS)
        return why_not(why, n, "too few rows for waves of blocks");
    /* Flat vectors wider than one read the padding between rows too:
     * only a little of it. One-element ones skip it. Past the block, a
     * thread takes up to AT_RD_FLAT_K of a chunk's vectors. */
    const int wide_flat_fits =
        p->v[RD_LD] <= AT_RD_FLAT_K * (int64_t)x[THREADS] &&
        8 * (p->v[RD_LD] - p->v[RD_COLS]) <= p->v[RD_COLS];
    if (flat && x[VEC] > 1 && !wide_flat_fits)
        return why_not(why, n, "flat needs ld at most 4 x the block, and "
                       "rows padded by at most an eighth");
    if (flat && x[VEC] == 1 && at_rd_flat_span(p, pt) > x[THREADS])
        return why_not(why, n, "flat one-element vectors: a row's columns "
                       "at most the block");
    const int fk = at_rd_flat_k(p, pt);
    if (fk > 1 && x[COMBINE] != COMBINE_ATOMIC)
        return why_not(why, n, "flat past the block: atomic totals");
    /* (The template's accumulator: i32 min, max and amax keep 4 bytes.) */
    const int sm_acc =
        !p->type->fp && !at_rd_adds(p) ? 4 : at_rd_acc_bytes(p->type);
    if (fk > 1 && (int64_t)x[THREADS] * x[VEC] * fk * sm_acc > 46 * 1024)
        return why_not(why, n, "shared memory over 46 KiB");
    /* Rows off the vector: shifted strips for 16-byte vectors of 2- and
     * 4-byte elements alone (each row's pair realigned costs selects;
     * narrower ones would add points for little). */
    if (down && !flat && x[VEC] > 1 && p->v[RD_LD] % x[VEC] &&
        !shiftable(p, pt))
        return why_not(why, n, "ld not a multiple of the vector (shifted "
                       "loads: 16 bytes of 2- or 4-byte elements)");
    if (!down && x[GROUP] < x[THREADS] && x[CHUNK])
        return why_not(why, n, "split rows take the whole block");
    const int lanes = flat ? 1 : down ? x[THREADS] / x[GROUP] : x[GROUP];
    if (x[TREE] && (down || x[GROUP] != x[THREADS]))
        return why_not(why, n, "no tree across warps to choose");
    if (down && x[ACCS] > 1)
        return why_not(why, n, "down columns, each column of a vector is "
                       "its own sum already");
    /* Narrow loads only where wider ones cannot be had (flat: where a
     * wider flat point fits the padding). */
    const int wider = x[VEC] * 4;
    if (wider * p->type->bytes <= 16 &&
        (flat ? wide_flat_fits
              : wider <= p->v[RD_COLS] && !(down && p->v[RD_LD] % wider)))
        return why_not(why, n, "a load four times as wide fits");
    if (down && lanes > 1 && lanes * x[GROUP] * x[VEC] * acc > 48 * 1024)
        return why_not(why, n, "shared memory over 48 KiB");
    /* On the nominal device: the space is the same on every one (a
     * split in waves that comes out whole on a device of few SMs runs as
     * one block group, whatever its combine). */
    at_problem nominal = *p;
    nominal.sms = 0;
    at_rd_geom g;
    at_rd_geom_of(&nominal, pt, &g);
    if (!valid_shape(p, pt, &g, why, n))
        return 0;
    if (x[COMBINE] != COMBINE_LAST && g.split < 2)
        return why_not(why, n, "nothing to combine");
    if (x[COMBINE] == COMBINE_ATOMIC && p->v[RD_DET] &&
        !at_rd_atomics_exact(p))
        return why_not(why, n, "deterministic: no floating-point atomic sums");
    /* Min, max and amax take exact atomics, which beat a second pass on
     * every problem measured (docs/PERFORMANCE.md, "Atomic combines"). */
    if (x[COMBINE] == COMBINE_TWO_PASS && !at_rd_adds(p))
        return why_not(why, n, "min, max and amax: atomics, not a second "
                       "pass");
    return 1;
}

static const char *const combine_names[] = {"last", "2pass", "atomic"};

static void point_name(const at_family *f, const at_point *pt, char *buf,
                       size_t n)
{
    (void)f;
    const int *x = pt->v;
    char grp[16], split[24];
    if (at_rd_flat(pt))
        snprintf(grp, sizeof grp, "flat");
    else
        snprintf(grp, sizeof grp, "grp%d", x[GROUP]);
    /* A split in waves stands where the chunk would (both: a point the
     * space refuses, named apart all the same). */
    if (x[WAVES] && x[CHUNK])
        snprintf(split, sizeof split, "chunk%d_waves%d", x[CHUNK], x[WAVES]);
    else if (x[WAVES])
        snprintf(split, sizeof split, "waves%d", x[WAVES]);
    else
        snprintf(split, sizeof split, "chunk%d", x[CHUNK]);
    snprintf(buf, n, "thr%d_%s_vec%d_it%d_acc%d_%s_%s_%s", x[THREADS], grp,
             x[VEC], x[ITEMS], x[ACCS], split, combine_names[x[COMBINE]],
             x[TREE] ? "smem" : "shfl");
}

/* The classic: 256 threads, 16-byte loads, four in flight; a block per
 * long row split 16 steps a block, a warp per short row (fewer threads
 * for very short ones); down columns, strips of 32 lanes with one
 * accumulator (each column of a vector is its own sum), split 4 steps a
 * block. The first valid point of the space if the target refuses it. */
static void default_point(const at_problem *p, int sm, at_point *pt)
{
    int *x = pt->v;
    memset(pt, 0, sizeof *pt);
    x[THREADS] = 256;
    x[VEC] = 16 / p->type->bytes;
    x[ITEMS] = 4;
    x[ACCS] = 2;
    x[CHUNK] = 16;
    x[COMBINE] = COMBINE_LAST;
    x[TREE] = 0;
    const int64_t across = p->v[RD_COLS];
    if (at_rd_down(p)) {
        x[GROUP] = 32;
        x[ACCS] = 1;
        x[CHUNK] = 4;
    } else if (p->v[RD_ROWS] == 1 || across >= 4096) {
        x[GROUP] = 256;
    } else {
        x[GROUP] = 32;
        x[CHUNK] = 0;
    }
    while (x[GROUP] > 4 && x[GROUP] < 256 &&
           (int64_t)(x[GROUP] / 2) * x[VEC] >= across)
        x[GROUP] /= 2;
    at_limits l;
    char why[128];
    if (!at_limits_for_arch(sm, &l))
        at_limits_for_arch(90, &l);
    for (int tries = 0; tries < 8 && !valid(p, pt, &l, why, sizeof why);
         ++tries) {
        if (x[VEC] > 1 && (strstr(why, "vector") || strstr(why, "ld ")))
            x[VEC] /= 2;
        else if (x[ITEMS] > 1 && strstr(why, "in flight"))
            x[ITEMS] /= 2, x[ACCS] = x[ACCS] > x[ITEMS] ? x[ITEMS] : x[ACCS];
        else if (strstr(why, "split") || strstr(why, "grid"))
            x[CHUNK] = x[CHUNK] == 64 ? 0 : x[CHUNK] ? x[CHUNK] * 4 : 16;
        else if (strstr(why, "chunk"))
            x[CHUNK] = 0;
        else if (strstr(why, "group") || strstr(why, "whole block"))
            x[GROUP] = x[GROUP] == x[THREADS] ? 32 : x[THREADS];
    }
    if (!valid(p, pt, &l, NULL, 0))
        at_space_first(p->family, p, &l, pt);
}

/* No optional paths: a variant serves every problem its launcher takes.
 * With every path (AT_PATHS_ALL, the API's variant for buffers the
 * tuned one does not take) it takes an input off its vectors too. */
static unsigned paths(const at_problem *p, const at_point *pt)
{
    (void)p;
    (void)pt;
    return 0;
}

static void paths_text(unsigned k, char *buf, size_t n)
{
    snprintf(buf, n, "%s", k ? "any input: loads split or realigned where "
                               "it is off the vectors (AT_ANY_BASE)"
                             : "none (every variant takes every shape)");
}

/* Whether the kernel takes the user's input: on its vectors (cudaMalloc's
 * is; a view into a larger matrix may not be), or vectors of one element.
 * Where not, the API runs the point with AT_ANY_BASE. */
static int takes(const at_problem *p, const at_point *pt,
                 const uint64_t *user)
{
    return user[0] % ((uint64_t)pt->v[VEC] * (uint64_t)p->type->bytes) == 0;
}

static void defines(const at_problem *p, const at_point *pt, unsigned k,
                    char *buf, size_t n)
{
    const int *x = pt->v;
    /* Any input (k): a shiftable strip shifts whatever ld is, since the
     * rows' offsets come from their addresses. */
    const int shift = k ? shiftable(p, pt) : at_rd_shift(p, pt);
    size_t used = (size_t)snprintf(buf, n,
             "#define AT_TYPE %d\n#define AT_OP %d\n#define AT_COLS %d\n"
             "#define AT_THREADS %d\n#define AT_GROUP %d\n#define AT_VEC %d\n"
             "#define AT_ITEMS %d\n#define AT_ACCS %d\n#define AT_COMBINE %d\n"
             "#define AT_TREE %d\n#define AT_FLAT %d\n#define AT_SHIFT %d\n"
             "#define AT_FLAT_K %d\n",
             at_rd_type(p->type), (int)p->v[RD_OP], at_rd_down(p), x[THREADS],
             x[GROUP], x[VEC], x[ITEMS], x[ACCS], x[COMBINE],
             /* Down columns: a tree over 16 row lanes or more. */
             at_rd_flat(pt)  ? 0
             : at_rd_down(p) ? x[THREADS] / x[GROUP] >= 16
                             : x[TREE],
             at_rd_flat(pt), shift, at_rd_flat_k(p, pt));
    if (k && used < n)
        snprintf(buf + used, n - used, "#define AT_ANY_BASE 1\n");
}

static void launch(const at_problem *p, const at_point *pt, at_launch *l)
{
    at_rd_geom g;
    at_rd_geom_of(p, pt, &g);
    memset(l, 0, sizeof *l);
    l->grid[0] = (unsigned)g.units;
    l->grid[1] = (unsigned)g.split;
    l->grid[2] = 1;
    l->block[0] = (unsigned)pt->v[THREADS];
    l->block[1] = l->block[2] = 1;
    if (pt->v[COMBINE] == COMBINE_TWO_PASS && g.split > 1) {
        l->passes = 2;
        /* One block per output row (along) or column strip (down). */
        l->grid2[0] = (unsigned)(at_rd_down(p) ? g.units : p->v[RD_ROWS]);
        l->grid2[1] = l->grid2[2] = 1;
    }
}

static size_t workspace(const at_problem *p, const at_point *pt)
{
    at_rd_geom g;
    at_rd_geom_of(p, pt, &g);
    if (g.split < 2)
        return 0;
    const size_t acc = (size_t)at_rd_acc_bytes(p->type);
    /* Outputs of the partials' rows: a row, or a strip's columns. */
    size_t outs = !at_rd_down(p) ? (size_t)p->v[RD_ROWS]
                  : at_rd_flat(pt) ? (size_t)p->v[RD_COLS]
                                   : (size_t)g.units * (size_t)pt->v[GROUP] *
                                         (size_t)pt->v[VEC];
    size_t counters = at_rd_down(p) ? (size_t)g.units
                                    : (size_t)p->v[RD_ROWS];
    size_t parts = pt->v[COMBINE] == COMBINE_ATOMIC ? outs
                                                    : outs * (size_t)g.split;
    return parts * acc + counters * 4;
}

static void args(const at_problem *p, const at_point *pt, uint64_t in,
                 uint64_t out, uint64_t ws, int pass, at_args *a)
{
    at_rd_geom g;
    at_rd_geom_of(p, pt, &g);
    long long rows = p->v[RD_ROWS], cols = p->v[RD_COLS], ld = p->v[RD_LD];
    /* Pass 1 reads the split partials of each output. */
    long long seg = pass ? g.split : g.seg;
    a->n = 0;
    at_args_put(a, &in, sizeof in);
    at_args_put(a, &out, sizeof out);
    at_args_put(a, &ws, sizeof ws);
    at_args_put(a, &rows, sizeof rows);
    at_args_put(a, &cols, sizeof cols);
    at_args_put(a, &ld, sizeof ld);
    at_args_put(a, &seg, sizeof seg);
    at_args_put(a, &pass, sizeof pass);
}

const at_family at_family_reduce = {
    .name = "reduce",
    .abi = 10, /* 2: the waves axis; 3: flat along rows; 4: one-element
                  flat points down columns skip the padding; 5: along
                  rows a step up to twice a short row; 6: column strips
                  split in waves; 7: flat waves in rounds, not steps;
                  8: flat down columns past the block (AT_FLAT_K);
                  9: shifted strips of two 2-byte elements; 10: those
                  taken out again (they won nowhere, r55) */
    .template_path = "templates/reduce.cu",
    .template_src = at_tmpl_reduce,
    .types = "f16 bf16 f32 f64 i32",
    .fields = at_rd_fields,
    .n_fields = RD_N_FIELDS,
    .ops.finish = at_rd_finish,
    .ops.describe = at_rd_describe,
    .ops.file_stem = at_rd_file_stem,
    .axes = axes,
    .n_axes = N_AXES,
    .derived = "split = blocks per output: ceil(length / (group * vec * "
               "items * chunk)) along rows (flat: 1, 8 * chunk rows a "
               "warp, or ceil(rows / (waves * SMs * 16)) in waves), "
               "ceil(rows / (threads/group * "
               "items * chunk)) down columns (in waves: ceil(rows / seg), "
               "seg = ceil(rows / max(1, floor(waves * SMs * 512 / "
               "threads / strips))) rounded up to whole steps of "
               "threads/group * items rows; flat: ceil(rows / "
               "(max(1, threads/ld) * vec * items * chunk)); in waves: "
               "ceil(rows / seg), seg = ceil(rows / (waves * SMs)) "
               "rounded up to whole steps of max(1, threads/ld) * vec * "
               "items rows)",
    .ops.valid = valid,
    .ops.point_name = point_name,
    .ops.default_point = default_point,
    .ops.paths = paths,
    .ops.paths_text = paths_text,
    .ops.takes = takes,
    .ops.defines = defines,
    .ops.launch = launch,
    .ops.workspace = workspace,
    .ops.args = args,
    .ops.input = at_rd_input,
    .ops.reference_parts = at_rd_reference_parts,
    .ops.reference = at_rd_reference,
    .ops.verify_kernel = at_rd_verify_kernel,
    .ops.tolerance = at_rd_tolerance,
    .n_checks = AT_RD_CHECKS,
    .ops.check_problem = at_rd_check_problem,
    .ops.where = at_rd_where,
    .ops.bytes_moved = at_rd_bytes_moved,
    .ops.copy_bytes = at_rd_copy_bytes,
    .ops.emit_launcher = at_rd_emit_launcher,
    .ops.usage = at_rd_usage,
};
