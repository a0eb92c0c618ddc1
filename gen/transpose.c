/* The transpose family: out[z][c][r] = in[z][r][c] for 1-, 2-, 4-, 8- and
 * 16-byte elements, one matrix or a batch. Template: templates/transpose.cu.
 * Each axis exists because of a seed document (../shared/seeds/) or a
 * measurement (docs/notes/gpu-log.md): tiles through shared memory for
 * coalescing, padding or swizzling for bank conflicts, vectors, packing and
 * elements per thread for bytes in flight, several tiles per block so the
 * next loads overlap the stores, __ldg/__restrict__ for the read-only
 * path. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "templates.h"
#include "transpose.h"

static const at_axis axes[N_AXES] = {
    /* The sides that are no power of two are fitted ones: a short side
     * of the matrix rounded up to 32 (below). */
    [TILE_X] = {"tile_x", "tile width (input columns); one of 96 to 480 "
                          "only as the matrix's columns rounded up to 32",
                18, {8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320,
                     352, 384, 416, 448, 480, 512}},
    [TILE_Y] = {"tile_y", "tile height (input rows); one of 96 to 480 only "
                          "as the matrix's rows rounded up to 32",
                18, {8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320,
                     352, 384, 416, 448, 480, 512}},
    [BLOCK_X] = {"block_x", "threads in x", 4, {8, 16, 32, 64}},
    [BLOCK_Y] = {"block_y", "threads in y", 6, {1, 2, 4, 8, 16, 32}},
    [VEC] = {"vec", "units per global load/store (at most 16 bytes); a unit "
                    "is an element, or a packed 32-bit word",
             5, {1, 2, 4, 8, 16}},
    [PACK] = {"pack", "1: 1- and 2-byte elements packed 4 bytes to a word, "
                      "transposed in registers with byte permutes; strips: "
                      "long output rows off the vector stored as aligned "
                      "vectors realigned in registers (where they are off "
                      "it)",
              2, {0, 1}},
    [SMEM] = {"smem", "shared tile: 1 padded by a unit a row, 2 swizzled "
                      "(16-byte chunks XORed by row), 3 packed tiles "
                      "padded after every 32 units as well, the put and "
                      "column reads on distinct banks",
              3, {1, 2, 3}},
    [TILES] = {"tiles", "tiles per block, the next one's loads issued before "
                        "the current one's stores",
               2, {1, 2}},
    [LDG] = {"ldg", "1: loads through the read-only cache (__ldg); tiles "
                    "take 1 alone, strips both",
             2, {0, 1}},
    [RESTRICT] = {"restrict", "1: __restrict__ pointers", 2, {0, 1}},
    [KIND] = {"kind", "0: tiles through shared memory; 1: strips, for a "
                      "side of at most 64 elements, exchanged in registers "
                      "(smem 2: a warp's runs staged through shared "
                      "memory; smem 3: short input rows of 1- and 2-byte "
                      "elements gathered through shared memory a tile at "
                      "a time; the other tile axes take their first "
                      "values)",
              2, {KIND_TILE, KIND_STRIP}},
    [STEPS] = {"steps", "strips: groups of vec positions a thread has in "
                        "flight (gathered: tiles a block; tiles: 1)",
               3, {1, 2, 4}},
    [FLAT] = {"flat", "tiles: 1 where a tile spans the matrix's rows "
                      "(columns) whose output (input) rows are end to end: "
                      "its output (input) moves as one run of aligned "
                      "16-byte vectors (strips: 0)",
              2, {0, 1}},
};

/* Tiles span 64 to 1024 bytes a side: narrower ones never came within 3%
 * of the best on an H100 (f32, 2480 points), wider ones overflow shared
 * memory or registers. Blocks of fewer than 128 threads stayed 5% behind.
 * A thread stages at most 128 bytes of a tile in registers (32 registers:
 * the next tile's loads are held while the current one is stored).
 * Unpacked 1- and 2-byte elements are the fallback for rows no word
 * divides: 7% (f16) to 30% (i8) behind packed words where rows allow them
 * (H100, 256 MiB), and twice as slow to compile; a small set of them, a
 * padded tile and at most 32 elements a thread, serves that role.
 * docs/notes/gpu-log.md has the measurements. */
enum {
    MIN_TILE_BYTES = 64,
    MAX_TILE_BYTES = 1024,
    MIN_THREADS = 128,
    MAX_STAGED_BYTES = 128,
    MAX_UNPACKED_EPT = 32,
};

typedef struct shape {
    int tx, ty, bx, by, vec, k, unit, smem, threads;
    long tile_bytes; /* the whole tile */
} shape;

static shape shape_of(const at_problem *p, const at_point *pt)
{
    shape s;
    int e = p->type->bytes;
    s.tx = pt->v[TILE_X];
    s.ty = pt->v[TILE_Y];
    s.bx = pt->v[BLOCK_X];
    s.by = pt->v[BLOCK_Y];
    s.vec = pt->v[VEC];
    s.k = pt->v[PACK] && e < 4 ? 4 / e : 1;
    s.unit = s.k > 1 ? 4 : e;
    s.smem = pt->v[SMEM];
    s.threads = s.bx * s.by;
    s.tile_bytes = (long)s.tx * s.ty * e;
    return s;
}

static int ept(const at_point *pt)
{
    return pt->v[TILE_X] * pt->v[TILE_Y] / (pt->v[BLOCK_X] * pt->v[BLOCK_Y]);
}

#define REJECT(...) (why ? (void)snprintf(why, n, __VA_ARGS__) : (void)0, 0)

static int valid(const at_problem *p, const at_point *pt, const at_limits *l,
                 char *why, size_t n)
{
    const int e = p->type->bytes;
    if (e != 1 && e != 2 && e != 4 && e != 8 && e != 16)
        return REJECT("element size %d not supported", e);
    /* First: most points of the space are fitted sides of other
     * matrices. */
    if (!at_tp_medium_valid(p, pt, why, n))
        return 0;
    if (pt->v[KIND] == KIND_STRIP)
        return at_tp_strip_valid(p, pt, l, why, n);
    if (pt->v[STEPS] != 1)
        return REJECT("steps are for strips (tiles: 1)");
    /* Where strips serve the problem, a tile taller or wider than the
     * matrix is all edge. */
    if (at_tp_strips_alone(p) &&
        (pt->v[TILE_Y] > p->v[TP_ROWS] || pt->v[TILE_X] > p->v[TP_COLS]))
        return REJECT("a tile of %d rows by %d columns exceeds the %" PRId64
                      "x%" PRId64 " matrix (strips serve it)",
                      pt->v[TILE_Y], pt->v[TILE_X], p->v[TP_ROWS],
                      p->v[TP_COLS]);
    const shape s = shape_of(p, pt);
    const int g = s.ty / s.k; /* rows of units in the shared tile */
    if (pt->v[PACK] && e >= 4)
        return REJECT("packing is for 1- and 2-byte elements, not %d", e);
    if (s.vec * s.unit > 16)
        return REJECT("vector of %d bytes exceeds 16", s.vec * s.unit);
    /* Unpacked 1- and 2-byte elements are the path for rows no word
     * divides: element by element (packing serves the aligned ones). */
    if (e < 4 && s.k == 1 &&
        (s.vec > 1 || s.smem != 1 || pt->v[TILES] > 1 ||
         ept(pt) > MAX_UNPACKED_EPT))
        return REJECT("unpacked %d-byte elements are the fallback: vec 1, "
                      "padded, one tile a block, at most %d elements a "
                      "thread", e, MAX_UNPACKED_EPT);
    if (s.threads % 32)
        return REJECT("%d threads is not a multiple of 32", s.threads);
    if (s.threads < MIN_THREADS)
        return REJECT("%d threads: fewer than %d", s.threads, MIN_THREADS);
    if (s.threads > l->max_threads)
        return REJECT("%d threads exceeds the limit %d", s.threads,
                      l->max_threads);
    const int max_x = at_tp_pow2(s.tx) ? MAX_TILE_BYTES : AT_TP_MAX_FITTED;
    const int max_y = at_tp_pow2(s.ty) ? MAX_TILE_BYTES : AT_TP_MAX_FITTED;
    if (s.tx * e < MIN_TILE_BYTES || s.ty * e < MIN_TILE_BYTES ||
        s.tx * e > max_x || s.ty * e > max_y)
        return REJECT("tile %dx%d of %d-byte elements: sides must span %d "
                      "to %d bytes (a fitted side %d)", s.tx, s.ty, e,
                      MIN_TILE_BYTES, MAX_TILE_BYTES, AT_TP_MAX_FITTED);
    /* Rows of the tile go to registers in passes of block_y groups of pack
     * rows and block_x * vec * pack columns; the transposed tile leaves in
     * passes of block_y rows and block_x * vec units. */
    if (s.tx % (s.bx * s.vec * s.k) || g % s.by)
        return REJECT("tile %dx%d not walked by %dx%d threads loading %d "
                      "units of %d element(s)", s.tx, s.ty, s.bx, s.by, s.vec,
                      s.k);
    if (s.tx % s.by || g % (s.bx * s.vec))
        return REJECT("transposed tile %dx%d not walked by %dx%d threads "
                      "storing %d units of %d element(s)", s.ty, s.tx, s.bx,
                      s.by, s.vec, s.k);
    if (s.tile_bytes / s.threads > MAX_STAGED_BYTES)
        return REJECT("%ld bytes a thread exceeds %d", s.tile_bytes / s.threads,
                      MAX_STAGED_BYTES);
    if ((int)at_tp_smem_bytes(p, pt) > l->max_smem)
        return REJECT("%u bytes of shared memory exceeds the limit %d",
                      at_tp_smem_bytes(p, pt), l->max_smem);
    if (!at_tp_smem_valid(p, pt, why, n))
        return 0;
    /* The swizzle permutes the 16-byte chunks (or narrower stores) of each
     * 128-byte span of a row. */
    if (s.smem == 2 && (s.tx * s.unit) % 128)
        return REJECT("swizzle needs rows of a multiple of 128 bytes, not "
                      "%d", s.tx * s.unit);
    /* With __ldg restrict changes nothing (the same machine code); without
     * it, restrict moved times 0.0% at the median (H100, f32 record). And
     * plain loads time as read-only ones do (other machine code, one L1
     * since Volta): in exhaustive H100 tunes of seven problems of 1 to 16
     * bytes, a point's time with plain loads over its time with read-only
     * ones has a median of 0.999 to 1.001, and that ratio does not repeat
     * from one tune of a problem to another (correlation -0.07 to 0.04):
     * noise, at twice the NVRTC time. So tiles take the read-only loads
     * alone (docs/PERFORMANCE.md, "The read-only loads alone"). */
    if (!pt->v[LDG] || !pt->v[RESTRICT])
        return REJECT("tiles take read-only loads: ldg=1 restrict=1, not "
                      "ldg=%d restrict=%d",
                      pt->v[LDG], pt->v[RESTRICT]);
    return 1;
}

static void point_name(const at_family *f, const at_point *pt, char *buf,
                       size_t n)
{
    (void)f;
    static const char *smem[] = {"plain", "pad1", "swz", "padb"};
    if (pt->v[KIND] == KIND_STRIP) {
        at_tp_strip_name(pt, buf, n);
        return;
    }
    char pk[16] = "";
    if (pt->v[PACK])
        snprintf(pk, sizeof pk, "_pk");
    snprintf(buf, n, "tile%dx%d_blk%dx%d_ept%d_vec%d%s_%s_tpb%d_ldg%d_rst%d%s",
             pt->v[TILE_X], pt->v[TILE_Y], pt->v[BLOCK_X], pt->v[BLOCK_Y],
             ept(pt), pt->v[VEC], pk, smem[pt->v[SMEM] % 4], pt->v[TILES],
             pt->v[LDG], pt->v[RESTRICT], pt->v[FLAT] ? "_flat" : "");
}

/* The template's optional code paths. Left out where the problem does
 * not need them, they halve NVRTC's time a point (f32, sm_90: 144 -> 63
 * ms on the build machine): the skewed stores are a costlier loop in
 * place of a tile's plain stores (every fast tile takes them where they
 * are compiled in), the vector path a second copy of the stores, 64-bit
 * tile indices a 64-bit division; the element path for edge tiles is 13
 * ms of what is left (64 ms, f32, 16 to a program), half of it where a
 * plain element copy stands in. */
enum { PATH_SKEW = 1, PATH_THIN = 2, PATH_WIDE = 4, PATH_EDGE = 8,
       PATH_STRIP = 16 /* none: a strip, which has no optional paths */,
       PATH_SHIFT_IN = 32, PATH_FLAT_IN = 64, PATH_FLAT_OUT = 128 };

/* Tiles of a problem at this point, every matrix of the batch. Under
 * 2^63 (each factor is under 2^31, nx * ny at most rows * cols / 64), so
 * a double holds it to within its rounding. */
static double tiles_of(const at_problem *p, const at_point *pt)
{
    const int64_t *v = p->v;
    int64_t nx = (v[TP_COLS] + pt->v[TILE_X] - 1) / pt->v[TILE_X];
    int64_t ny = (v[TP_ROWS] + pt->v[TILE_Y] - 1) / pt->v[TILE_Y];
    return (double)nx * (double)ny * (double)v[TP_BATCH];
}

static unsigned paths(const at_problem *p, const at_point *pt)
{
    const int64_t *v = p->v;
    unsigned k = 0;
    if (pt->v[KIND] == KIND_STRIP)
        return PATH_STRIP;
    /* Output rows (or matrices) that do not start on a 32-byte sector. */
    const int64_t sector = 32 / p->type->bytes;
    if (at_tp_skew_rows(p, pt) && (v[TP_LD_OUT] % sector ||
                             (v[TP_BATCH] > 1 && v[TP_STRIDE_OUT] % sector)))
        k |= PATH_SKEW;
    if (v[TP_ROWS] == 1 || v[TP_COLS] == 1)
        k |= PATH_THIN;
    if (tiles_of(p, pt) > 4294967295.0)
        k |= PATH_WIDE;
    /* Tiles cut by the edge (the fast path, rows and vectors past the edge
     * skipped), or rows (matrices) off the vector width (the element
     * path). Buffers are taken as aligned to it (cudaMalloc's are); a
     * caller's that are not take the plain element copy. */
    const int64_t aw = (int64_t)pt->v[VEC] * shape_of(p, pt).k;
    const int in_off = v[TP_LD_IN] % aw ||
                       (v[TP_BATCH] > 1 && v[TP_STRIDE_IN] % aw);
    const int out_off = v[TP_LD_OUT] % aw ||
                        (v[TP_BATCH] > 1 && v[TP_STRIDE_OUT] % aw);
    if (v[TP_ROWS] % pt->v[TILE_Y] || v[TP_COLS] % pt->v[TILE_X] || in_off ||
        out_off)
        k |= PATH_EDGE;
    /* Packed rows off the vector width: shifted words (without, they take
     * the element path: H100, i8 with odd sides, 31 to 58% of the
     * copy). Output rows off the vector are off the sector too: the
     * skewed stores take them (aligned whatever the rows). */
    if (shape_of(p, pt).k > 1 && in_off)
        k |= PATH_SHIFT_IN;
    /* A flat point's runs: its output (input) moved as aligned vectors
     * whatever the rows' alignment. */
    if (pt->v[FLAT]) {
        const int f = at_tp_flat_runs(p, pt->v[TILE_X], pt->v[TILE_Y]);
        k |= (f & AT_TP_FLAT_IN ? PATH_FLAT_IN : 0) |
             (f & AT_TP_FLAT_OUT ? PATH_FLAT_OUT : 0);
    }
    return k;
}

/* Whether the point's kernel for p is made for whole tiles on rows on its
 * vectors alone (no element path, templates/transpose.cu): its launcher
 * sends other launches to a kernel that takes any. */
static int whole_only(const at_problem *p, const at_point *pt)
{
    return pt->v[KIND] == KIND_TILE && !(paths(p, pt) & PATH_EDGE);
}

/* Such a kernel is checked on whole shapes, any other on odd ones (or a
 * strip problem's). */
static int check_fits(const at_problem *p, const at_point *pt, int i)
{
    return (i >= AT_TP_ODD_CHECKS) == whole_only(p, pt);
}

/* Its buffers on its vectors (the output anywhere where it skews its
 * stores: they align themselves). */
static int takes(const at_problem *p, const at_point *pt,
                 const uint64_t *user)
{
    if (!whole_only(p, pt))
        return 1;
    const uint64_t align =
        (uint64_t)pt->v[VEC] * (uint64_t)shape_of(p, pt).k * p->type->bytes;
    const int skew = (paths(p, pt) & PATH_SKEW) && at_tp_skew_rows(p, pt);
    return user[0] % align == 0 && (skew || user[1] % align == 0);
}

/* "with skewed stores; without vector copy, 64-bit tile indices". */
static void paths_text(unsigned k, char *buf, size_t n)
{
    static const struct {
        unsigned bit;
        const char *name;
    } all[] = {{PATH_SKEW, "skewed stores (AT_SKEW)"},
               {PATH_THIN, "vector copy (AT_THIN)"},
               {PATH_WIDE, "64-bit tile indices (AT_WIDE)"},
               {PATH_EDGE, "edge tiles (AT_EDGE)"},
               {PATH_SHIFT_IN, "shifted word loads (AT_SHIFT_IN)"},
               {PATH_FLAT_IN, "flat loads (AT_FLAT_IN)"},
               {PATH_FLAT_OUT, "flat stores (AT_FLAT_OUT)"}};
    size_t len = 0;
    buf[0] = '\0';
    if (k == PATH_STRIP) {
        snprintf(buf, n, "none (a strip kernel, AT_STRIP)");
        return;
    }
    for (int with = 1; with >= 0; --with) {
        const char *sep = with ? "with " : len ? "; without " : "without ";
        for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
            if (!(k & all[i].bit) != !with)
                continue;
            len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s",
                                    sep, all[i].name);
            sep = ", ";
        }
    }
}

static void defines(const at_problem *p, const at_point *pt, unsigned k,
                    char *buf, size_t n)
{
    if (pt->v[KIND] == KIND_STRIP) {
        at_tp_strip_defines(p, pt, buf, n);
        return;
    }
    const shape s = shape_of(p, pt);
    const at_tp_banks b = at_tp_point_banks(p, pt);
    int len = snprintf(buf, n,
             "#define AT_ELEM_BYTES %d\n#define AT_STRIP 0\n"
             "#define AT_TILE_X %d\n"
             "#define AT_TILE_Y %d\n#define AT_BLOCK_X %d\n"
             "#define AT_BLOCK_Y %d\n#define AT_PACK %d\n#define AT_VEC %d\n"
             "#define AT_SMEM %d\n#define AT_TILES %d\n#define AT_LDG %d\n"
             "#define AT_RESTRICT %d\n#define AT_SKEW %d\n"
             "#define AT_THIN %d\n#define AT_WIDE %d\n#define AT_EDGE %d\n"
             "#define AT_SHIFT_IN %d\n#define AT_FLAT_IN %d\n"
             "#define AT_FLAT_OUT %d\n",
             p->type->bytes, s.tx, s.ty, s.bx, s.by, s.k, s.vec,
             s.smem == 3 ? 1 : s.smem, /* (3: padded, its layout below) */
             pt->v[TILES], pt->v[LDG], pt->v[RESTRICT],
             /* Only where the type and point can skew (shift). */
             (k & PATH_SKEW) && at_tp_skew_rows(p, pt) ? 1 : 0,
             k & PATH_THIN ? 1 : 0, k & PATH_WIDE ? 1 : 0,
             k & PATH_EDGE ? 1 : 0, (k & PATH_SHIFT_IN) && s.k > 1 ? 1 : 0,
             /* Flat points alone (every path: both). */
             (k & PATH_FLAT_IN) && pt->v[FLAT] ? 1 : 0,
             (k & PATH_FLAT_OUT) && pt->v[FLAT] ? 1 : 0);
    /* Only where the layout is not the template's default (smem 3). */
    if (b.cskew || b.extra != 1)
        snprintf(buf + len, len > 0 && (size_t)len < n ? n - (size_t)len : 0,
                 "#define AT_CSKEW %d\n#define AT_ROW_EXTRA %d\n", b.cskew,
                 b.extra);
}

/* Blocks for a problem: a tiles-per-block share of every tile, at most
 * what a 1-D grid holds (the kernel loops over the rest). */
static unsigned grid_blocks(const at_problem *p, const at_point *pt)
{
    double blocks = (tiles_of(p, pt) + pt->v[TILES] - 1) / pt->v[TILES];
    return blocks > 2147483647.0 ? 2147483647u : (unsigned)blocks;
}

static void launch(const at_problem *p, const at_point *pt, at_launch *g)
{
    if (pt->v[KIND] == KIND_STRIP) {
        at_tp_strip_launch(p, pt, g);
        return;
    }
    g->grid[0] = grid_blocks(p, pt);
    g->grid[1] = 1;
    g->grid[2] = 1;
    g->block[0] = (unsigned)pt->v[BLOCK_X];
    g->block[1] = (unsigned)pt->v[BLOCK_Y];
    g->block[2] = 1;
    g->smem = at_tp_smem_bytes(p, pt);
}

/* (in, out, int rows, int cols, long long ld_in, long long ld_out,
 *  int batch, long long stride_in, long long stride_out) */
static void args(const at_problem *p, const at_point *pt, uint64_t in,
                 uint64_t out, uint64_t ws, int pass, at_args *a)
{
    (void)pt;
    (void)ws;
    (void)pass;
    const int64_t *v = p->v;
    int rows = (int)v[TP_ROWS], cols = (int)v[TP_COLS];
    int batch = (int)v[TP_BATCH];
    long long ld_in = v[TP_LD_IN], ld_out = v[TP_LD_OUT];
    long long stride_in = v[TP_STRIDE_IN], stride_out = v[TP_STRIDE_OUT];
    a->n = 0;
    at_args_put(a, &in, sizeof in);
    at_args_put(a, &out, sizeof out);
    at_args_put(a, &rows, sizeof rows);
    at_args_put(a, &cols, sizeof cols);
    at_args_put(a, &ld_in, sizeof ld_in);
    at_args_put(a, &ld_out, sizeof ld_out);
    at_args_put(a, &batch, sizeof batch);
    at_args_put(a, &stride_in, sizeof stride_in);
    at_args_put(a, &stride_out, sizeof stride_out);
}

/* Used when nothing was tuned for an architecture: the classic 32x32 tile
 * (64x64 for bytes, so a side spans 64 bytes) with 32x8 threads and a unit
 * of padding, valid for every type and every architecture this project
 * targets; a strip of 32x8 threads where strips alone serve the problem. */
static void default_point(const at_problem *p, int sm, at_point *pt)
{
    (void)sm;
    memset(pt, 0, sizeof *pt);
    pt->v[TILE_X] = pt->v[TILE_Y] = p->type->bytes == 1 ? 64 : 32;
    pt->v[BLOCK_X] = 32;
    pt->v[BLOCK_Y] = 8;
    pt->v[VEC] = 1;
    pt->v[PACK] = 0;
    pt->v[SMEM] = 1;
    pt->v[TILES] = 1;
    pt->v[LDG] = 1;
    pt->v[RESTRICT] = 1;
    pt->v[KIND] = KIND_TILE;
    pt->v[STEPS] = 1;
    if (at_tp_strips_alone(p))
        at_tp_strip_default(p, pt);
}

const at_family at_family_transpose = {
    .name = "transpose",
    .abi = 13, /* 5: tiles compete with strips where runs are apart; 6:
                * strips realign long rows off their vectors (pack 1); 7:
                * fitted tile sides and flat runs; 8: smem 3, packed
                * tiles padded by their banks; 9: strips of short input
                * rows gathered; 10: gathered strips' output off 16 bytes
                * realigned, staged in the tile's buffer; 11: a skewed
                * tile's extra rows loaded all at once; 12: bytes' a step
                * a loop turn again; 13: packed tiles' a word a row */
    .template_path = "templates/transpose.cu",
    .template_src = at_tmpl_transpose,
    .types = "i8 u8 f16 bf16 f32 f64 c64 c128 f32x4",
    .fields = at_tp_fields,
    .n_fields = TP_N_FIELDS,
    .ops.finish = at_tp_finish,
    .ops.describe = at_tp_describe,
    .ops.file_stem = at_tp_file_stem,
    .axes = axes,
    .n_axes = N_AXES,
    .derived = "ept = tile_x*tile_y/(block_x*block_y): elements per thread "
               "per tile; pack = 4/element bytes rows to a word when "
               "pack=1; at most 128 bytes staged per thread",
    .ops.valid = valid,
    .ops.value_ok = at_tp_value_ok,
    .ops.point_name = point_name,
    .ops.default_point = default_point,
    .ops.paths = paths,
    .ops.paths_text = paths_text,
    .ops.defines = defines,
    .ops.launch = launch,
    .ops.args = args,
    .ops.reference_parts = at_tp_reference_parts,
    .ops.reference = at_tp_reference,
    .ops.verify_kernel = at_tp_verify_kernel,
    .n_checks = AT_TP_CHECKS,
    .ops.check_problem = at_tp_check_problem,
    .ops.check_fits = check_fits,
    .ops.takes = takes,
    .ops.where = at_tp_where,
    .ops.bytes_moved = at_tp_bytes_moved,
    .ops.copy_bytes = at_tp_copy_bytes,
    .ops.emit_launcher = at_tp_emit_launcher,
    .ops.usage = at_tp_usage,
};
