/* The transpose family's strip kind (templates/transpose.cu, AT_STRIP):
 * for matrices with a short side (AoS <-> SoA, interleaved pairs, vectors
 * and copies), a thread moves every short element of a few positions
 * along the long side, exchanged in registers. Tiles serve these shapes
 * badly: a tile taller than the matrix is all edge (H100, f32 4x4194304:
 * 69.6% of the copy, docs/perf/issue16-h100-sweep8.txt). The short side is
 * a compile-time constant, so a variant serves one short side. */
#include <stdio.h>

#include "transpose.h"

/* A thread holds at most this many bytes of groups in registers (64
 * registers: the loads of every step are issued before the first store). */
enum { STRIP_MAX_STAGED = 256 };

int at_tp_strip_short(const at_problem *p, int *short_rows)
{
    const int64_t rows = p->v[TP_ROWS], cols = p->v[TP_COLS];
    const int64_t s = rows <= cols ? rows : cols;
    if (short_rows)
        *short_rows = rows <= cols;
    /* With no point that fits (16-byte elements, a side over 16), tiles
     * serve it. */
    return s <= AT_STRIP_MAX_SHORT && s * p->type->bytes <= STRIP_MAX_STAGED
               ? (int)s
               : 0;
}

int at_tp_strips_alone(const at_problem *p)
{
    int rows_short;
    const int64_t s = at_tp_strip_short(p, &rows_short), e = p->type->bytes;
    const int64_t ld = rows_short ? p->v[TP_LD_OUT] : p->v[TP_LD_IN];
    const int64_t stride =
        rows_short ? p->v[TP_STRIDE_OUT] : p->v[TP_STRIDE_IN];
    return s && ld == s && (p->v[TP_BATCH] == 1 || (stride * e) % 4 == 0);
}

static int staged(const at_problem *p, const at_point *pt, int s)
{
    return pt->v[STEPS] * pt->v[VEC] * s * p->type->bytes;
}

/* Shared memory of a staged strip: a warp's 32 groups, a word of padding
 * every 32 (AT_STRIP_SMEM in the template). */
static int stage_bytes(const at_problem *p, const at_point *pt)
{
    const int s = at_tp_strip_short(p, NULL);
    const int words = pt->v[VEC] * s * p->type->bytes / 4;
    return pt->v[BLOCK_X] * pt->v[BLOCK_Y] / 32 * 33 * words * 4;
}

/* Gathered tiles (smem 3, AT_GATHER in the template): short input rows
 * of 1- or 2-byte elements whose output runs are end to end (the kernel
 * takes runs apart too, but a tile's coalesced bytes beat it there by 4x:
 * H200, u8 62 x 4105151 ld_out 71, 0.32 against 1.19 ms), a word of
 * positions a thread, AT_STEPS tiles a block pipelined. Below 8 rows a
 * strip already moves whole words (H200, i8 2 x 380696732: 71% of the
 * copy gathered by the probe, 86% as strips). */
enum { GATHER_MIN_SHORT = 8 };

/* Two buffers, each a tile's rows or its staged output (AT_GBUF). */
static int gather_bytes(const at_problem *p, const at_point *pt)
{
    const int s = at_tp_strip_short(p, NULL);
    const int word_bytes = pt->v[BLOCK_X] * pt->v[BLOCK_Y] * 4;
    const int rows = s * (word_bytes + 32), staged = word_bytes * (s | 1);
    return 2 * (rows > staged ? rows : staged);
}

#define REJECT(...) (why ? (void)snprintf(why, n, __VA_ARGS__) : (void)0, 0)

/* The constraints of a gathered point beside the strip's common ones. */
static int gather_valid(const at_problem *p, const at_point *pt,
                        const at_limits *l, char *why, size_t n)
{
    int rows_short;
    const int s = at_tp_strip_short(p, &rows_short);
    if (p->type->bytes > 2 || !rows_short || s < GATHER_MIN_SHORT ||
        p->v[TP_LD_OUT] != s)
        return REJECT("smem 3 gathers short input rows (8 or more) of 1- "
                      "or 2-byte elements into output runs end to end");
    if (pt->v[VEC] * p->type->bytes != 4 || pt->v[PACK] ||
        pt->v[STEPS] == 1 || !pt->v[LDG])
        return REJECT("a gathered point takes a word of positions a "
                      "thread (vec), pack 0, ldg 1 and 2 or 4 tiles a "
                      "block (steps)");
    if (l->sm < 80)
        return REJECT("gathered tiles copy with cp.async (sm_80 on)");
    if (gather_bytes(p, pt) > l->max_smem)
        return REJECT("%d bytes of shared memory to gather exceeds %d",
                      gather_bytes(p, pt), l->max_smem);
    return 1;
}

int at_tp_strip_valid(const at_problem *p, const at_point *pt,
                      const at_limits *l, char *why, size_t n)
{
    const int e = p->type->bytes, threads = pt->v[BLOCK_X] * pt->v[BLOCK_Y];
    const int s = at_tp_strip_short(p, NULL);
    if (!s)
        return REJECT("strips are for a side of at most %d elements",
                      AT_STRIP_MAX_SHORT);
    /* The tile's axes take their first values: one name a point. */
    if (pt->v[TILE_X] != 8 || pt->v[TILE_Y] != 8 || pt->v[TILES] != 1)
        return REJECT("strips have no tile (tile 8x8, tiles 1)");
    if (pt->v[SMEM] == 3 && !gather_valid(p, pt, l, why, n))
        return 0;
    /* Realigned beside element by element: neither wins everywhere (H100,
     * realigned stores: f16 21703965 x 10 86% to 91% of the copy, i8
     * 10924201 x 21 68% to 80%; bf16 2261547 x 29 81% to 78%). */
    if (pt->v[PACK] && !at_tp_strip_realign(p, pt))
        return REJECT("pack 1 realigns a strip's long output rows off its "
                      "vector; these are on it, or not output rows, or vec "
                      "is 1");
    if (pt->v[BLOCK_X] != 32)
        return REJECT("strips walk a warp wide (block_x 32)");
    if (threads < 128 || threads > l->max_threads)
        return REJECT("%d threads: strips take 128 to %d", threads,
                      l->max_threads);
    if (pt->v[VEC] * e > 16)
        return REJECT("vector of %d bytes exceeds 16", pt->v[VEC] * e);
    if (pt->v[SMEM] != 3 && staged(p, pt, s) > STRIP_MAX_STAGED)
        return REJECT("%d bytes a thread exceeds %d", staged(p, pt, s),
                      STRIP_MAX_STAGED);
    /* Staged through shared memory: groups of whole words, more than a
     * 16-byte store each (smaller ones store whole sectors a warp). */
    const int group = pt->v[VEC] * s * e;
    if (pt->v[SMEM] == 2 && (group % 4 || group <= 16))
        return REJECT("staging is for groups of whole words over 16 bytes, "
                      "not %d", group);
    if (pt->v[SMEM] == 2 && stage_bytes(p, pt) > 48 * 1024)
        return REJECT("%d bytes of shared memory to stage exceeds 49152",
                      stage_bytes(p, pt));
    if (pt->v[LDG] != pt->v[RESTRICT])
        return REJECT("ldg and restrict go together (ldg=%d, restrict=%d)",
                      pt->v[LDG], pt->v[RESTRICT]);
    return 1;
}

void at_tp_strip_name(const at_point *pt, char *buf, size_t n)
{
    snprintf(buf, n, "strip_blk%dx%d_vec%d_st%d%s%s_ldg%d_rst%d",
             pt->v[BLOCK_X], pt->v[BLOCK_Y], pt->v[VEC], pt->v[STEPS],
             pt->v[SMEM] == 2   ? "_stg"
             : pt->v[SMEM] == 3 ? "_gth"
                                : "",
             pt->v[PACK] ? "_ra" : "",
             pt->v[LDG], pt->v[RESTRICT]);
}

/* The largest power of two up to 16 dividing bytes. */
static int pow2_of(int bytes)
{
    int w = 16;
    while (bytes % w)
        w /= 2;
    return w;
}

int at_tp_strip_realign(const at_problem *p, const at_point *pt)
{
    int rows_short;
    if (!at_tp_strip_short(p, &rows_short) || rows_short || pt->v[VEC] == 1)
        return 0;
    const int64_t lb = (int64_t)pt->v[VEC] * p->type->bytes;
    return (p->v[TP_LD_OUT] * p->type->bytes) % lb ||
           (p->v[TP_BATCH] > 1 && (p->v[TP_STRIDE_OUT] * p->type->bytes) % lb);
}

void at_tp_strip_defines(const at_problem *p, const at_point *pt, char *buf,
                         size_t n)
{
    const int e = p->type->bytes, v = pt->v[VEC];
    int rows_short, s = at_tp_strip_short(p, &rows_short);
    snprintf(buf, n,
             "#define AT_ELEM_BYTES %d\n#define AT_STRIP 1\n"
             "#define AT_SHORT %d\n#define AT_SHORT_ROWS %d\n"
             "#define AT_BLOCK_X %d\n#define AT_BLOCK_Y %d\n"
             "#define AT_VEC %d\n#define AT_STEPS %d\n"
             "#define AT_LONG_BYTES %d\n#define AT_DENSE_BYTES %d\n"
             "#define AT_RUN_BYTES %d\n#define AT_STAGE %d\n"
             "#define AT_LDG %d\n#define AT_RESTRICT %d\n"
             "#define AT_REALIGN %d\n#define AT_GATHER %d\n",
             e, s, rows_short, pt->v[BLOCK_X], pt->v[BLOCK_Y], v,
             pt->v[STEPS], v * e, pow2_of(v * s * e), pow2_of(s * e),
             pt->v[SMEM] == 2, pt->v[LDG], pt->v[RESTRICT], pt->v[PACK],
             pt->v[SMEM] == 3);
}

void at_tp_strip_launch(const at_problem *p, const at_point *pt,
                        at_launch *g)
{
    int rows_short;
    (void)at_tp_strip_short(p, &rows_short);
    const int64_t len = rows_short ? p->v[TP_COLS] : p->v[TP_ROWS];
    const double groups =
        (double)((len + pt->v[VEC] - 1) / pt->v[VEC]) * (double)p->v[TP_BATCH];
    const double per = (double)pt->v[BLOCK_X] * pt->v[BLOCK_Y] * pt->v[STEPS];
    const double blocks = (groups + per - 1) / per;
    g->grid[0] = blocks > 2147483647.0 ? 2147483647u : (unsigned)blocks;
    g->grid[1] = g->grid[2] = 1;
    g->block[0] = (unsigned)pt->v[BLOCK_X];
    g->block[1] = (unsigned)pt->v[BLOCK_Y];
    g->block[2] = 1;
    g->smem = pt->v[SMEM] == 2   ? (unsigned)stage_bytes(p, pt)
              : pt->v[SMEM] == 3 ? (unsigned)gather_bytes(p, pt)
                                 : 0;
}

void at_tp_strip_default(const at_problem *p, at_point *pt)
{
    const int s = at_tp_strip_short(p, NULL), e = p->type->bytes;
    /* The tile's threads, ldg and one step stay; no tile. */
    pt->v[TILE_X] = pt->v[TILE_Y] = 8;
    pt->v[KIND] = KIND_STRIP;
    pt->v[VEC] = 16 / e;
    while (pt->v[VEC] > 1 && pt->v[VEC] * s * e > STRIP_MAX_STAGED)
        pt->v[VEC] /= 2;
}
