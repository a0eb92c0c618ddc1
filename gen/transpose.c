/* The transpose family: out[c][r] = in[r][c] for 4- and 8-byte elements.
 * Template: templates/transpose.cu. Each axis exists because of a seed
 * document (../shared/seeds/): tiles through shared memory for coalescing,
 * padding for bank conflicts, vectors and elements per thread for bytes in
 * flight, __ldg/__restrict__ for the read-only path. */
#include <stdio.h>
#include <string.h>

#include "family.h"
#include "templates.h"

enum { TILE_X, TILE_Y, BLOCK_X, BLOCK_Y, VEC, PAD, LDG, RESTRICT, N_AXES };

static const at_axis axes[N_AXES] = {
    [TILE_X] = {"tile_x", "tile width (input columns)", 4, {16, 32, 64, 128}},
    [TILE_Y] = {"tile_y", "tile height (input rows)", 4, {16, 32, 64, 128}},
    [BLOCK_X] = {"block_x", "threads in x", 5, {4, 8, 16, 32, 64}},
    [BLOCK_Y] = {"block_y", "threads in y: the block walks the tile in "
                            "tile/block_y row passes",
                 6, {1, 2, 4, 8, 16, 32}},
    [VEC] = {"vec", "elements per global load/store (at most 16 bytes)", 3,
             {1, 2, 4}},
    [PAD] = {"pad", "elements of padding per shared-memory row", 2, {0, 1}},
    [LDG] = {"ldg", "1: loads through the read-only cache (__ldg)", 2,
             {0, 1}},
    [RESTRICT] = {"restrict", "1: __restrict__ pointers", 2, {0, 1}},
};

/* Elements per thread follow from tile and block; capped because past this
 * the unrolled body only costs compile time and registers. */
enum { MAX_EPT = 32 };

static int ept(const at_point *pt)
{
    return pt->v[TILE_X] * pt->v[TILE_Y] / (pt->v[BLOCK_X] * pt->v[BLOCK_Y]);
}

static unsigned smem_bytes(const at_problem *p, const at_point *pt)
{
    return (unsigned)(pt->v[TILE_Y] * (pt->v[TILE_X] + pt->v[PAD]) *
                      p->type->bytes);
}

#define REJECT(...) (why ? (void)snprintf(why, n, __VA_ARGS__) : (void)0, 0)

static int valid(const at_problem *p, const at_point *pt, const at_limits *l,
                 char *why, size_t n)
{
    const int tx = pt->v[TILE_X], ty = pt->v[TILE_Y];
    const int bx = pt->v[BLOCK_X], by = pt->v[BLOCK_Y], vec = pt->v[VEC];
    const int threads = bx * by;
    if (p->type->bytes != 4 && p->type->bytes != 8)
        return REJECT("element size %d not supported", p->type->bytes);
    if (vec * p->type->bytes > 16)
        return REJECT("vector of %d bytes exceeds 16", vec * p->type->bytes);
    if (threads % 32)
        return REJECT("%d threads is not a multiple of 32", threads);
    if (threads > l->max_threads)
        return REJECT("%d threads exceeds the limit %d", threads,
                      l->max_threads);
    /* The block walks the tile, then the transposed tile, in passes of
     * block_y rows and block_x * vec columns. */
    if (tx % (bx * vec) || ty % (bx * vec))
        return REJECT("tile %dx%d not divisible by block_x*vec = %d", tx, ty,
                      bx * vec);
    if (tx % by || ty % by)
        return REJECT("tile %dx%d not divisible by block_y = %d", tx, ty, by);
    if (ept(pt) > MAX_EPT)
        return REJECT("%d elements per thread exceeds %d", ept(pt), MAX_EPT);
    if ((int)smem_bytes(p, pt) > l->max_smem)
        return REJECT("%u bytes of shared memory exceeds the limit %d",
                      smem_bytes(p, pt), l->max_smem);
    return 1;
}

static void point_name(const at_point *pt, char *buf, size_t n)
{
    snprintf(buf, n, "tile%dx%d_blk%dx%d_ept%d_vec%d_pad%d_ldg%d_rst%d",
             pt->v[TILE_X], pt->v[TILE_Y], pt->v[BLOCK_X], pt->v[BLOCK_Y],
             ept(pt), pt->v[VEC], pt->v[PAD], pt->v[LDG], pt->v[RESTRICT]);
}

static void defines(const at_problem *p, const at_point *pt, char *buf,
                    size_t n)
{
    snprintf(buf, n,
             "#define AT_ELEM_BYTES %d\n#define AT_TILE_X %d\n"
             "#define AT_TILE_Y %d\n#define AT_BLOCK_X %d\n"
             "#define AT_BLOCK_Y %d\n#define AT_VEC %d\n#define AT_PAD %d\n"
             "#define AT_LDG %d\n#define AT_RESTRICT %d\n",
             p->type->bytes, pt->v[TILE_X], pt->v[TILE_Y], pt->v[BLOCK_X],
             pt->v[BLOCK_Y], pt->v[VEC], pt->v[PAD], pt->v[LDG],
             pt->v[RESTRICT]);
}

static void launch(const at_problem *p, const at_point *pt, at_launch *g)
{
    int64_t gy = (p->rows + pt->v[TILE_Y] - 1) / pt->v[TILE_Y];
    g->grid[0] = (unsigned)((p->cols + pt->v[TILE_X] - 1) / pt->v[TILE_X]);
    g->grid[1] = (unsigned)(gy > 65535 ? 65535 : gy); /* kernel loops in y */
    g->grid[2] = 1;
    g->block[0] = (unsigned)pt->v[BLOCK_X];
    g->block[1] = (unsigned)pt->v[BLOCK_Y];
    g->block[2] = 1;
    g->smem = smem_bytes(p, pt);
}

static void put(at_args *a, const void *v, size_t n)
{
    memcpy(a->store[a->n], v, n);
    a->ptr[a->n] = a->store[a->n];
    a->n++;
}

/* (in, out, int rows, int cols, long long ld_in, long long ld_out) */
static void args(const at_problem *p, uint64_t in, uint64_t out, at_args *a)
{
    int rows = (int)p->rows, cols = (int)p->cols;
    long long ld_in = p->ld_in, ld_out = p->ld_out;
    a->n = 0;
    put(a, &in, sizeof in);
    put(a, &out, sizeof out);
    put(a, &rows, sizeof rows);
    put(a, &cols, sizeof cols);
    put(a, &ld_in, sizeof ld_in);
    put(a, &ld_out, sizeof ld_out);
}

/* Blocked so the CPU reference of a large matrix takes a fraction of a
 * second rather than striding through memory. */
#define REFERENCE(T)                                                        \
    static void reference_##T(const at_problem *p, const T *in, T *out,     \
                              int64_t first, int64_t end)                   \
    {                                                                       \
        enum { B = 32 };                                                    \
        for (int64_t r0 = first; r0 < end; r0 += B)                         \
            for (int64_t c0 = 0; c0 < p->cols; c0 += B)                     \
                for (int64_t r = r0; r < r0 + B && r < end; ++r)            \
                    for (int64_t c = c0; c < c0 + B && c < p->cols; ++c)    \
                        out[c * p->ld_out + r] = in[r * p->ld_in + c];      \
    }
REFERENCE(uint32_t)
REFERENCE(uint64_t)

static void reference(const at_problem *p, const void *in, void *out,
                      int64_t r0, int64_t r1)
{
    if (p->type->bytes == 4)
        reference_uint32_t(p, in, out, r0, r1);
    else
        reference_uint64_t(p, in, out, r0, r1);
}

static double bytes_moved(const at_problem *p)
{
    return 2.0 * (double)p->rows * (double)p->cols * p->type->bytes;
}

/* Used when nothing was tuned for an architecture: the classic 32x32 tile
 * with 32x8 threads and one element of padding, valid for every type and
 * every architecture this project targets. */
static void default_point(const at_problem *p, int sm, at_point *pt)
{
    (void)p;
    (void)sm;
    memset(pt, 0, sizeof *pt);
    pt->v[TILE_X] = 32;
    pt->v[TILE_Y] = 32;
    pt->v[BLOCK_X] = 32;
    pt->v[BLOCK_Y] = 8;
    pt->v[VEC] = 1;
    pt->v[PAD] = 1;
    pt->v[LDG] = 1;
    pt->v[RESTRICT] = 1;
}

static void emit_launcher(FILE *f, const at_problem *p, const at_point *pt,
                          const char *name)
{
    (void)pt;
    const char *t = p->type->ctype;
    fprintf(f,
            "/* Launches the kernel on stream for an input of rows x cols\n"
            " * (row-major, ld_in elements between rows) into out (cols x\n"
            " * rows, ld_out between rows). in and out are device pointers\n"
            " * that must not overlap. Returns the launch's error. */\n"
            "extern \"C\" cudaError_t %s(const %s *in, %s *out, int rows,\n"
            "    int cols, long long ld_in, long long ld_out,\n"
            "    cudaStream_t stream)\n"
            "{\n"
            "    if (rows <= 0 || cols <= 0 || ld_in < cols || ld_out < rows)\n"
            "        return cudaErrorInvalidValue;\n"
            "    const int smem =\n"
            "        AT_TILE_Y * (AT_TILE_X + AT_PAD) * AT_ELEM_BYTES;\n"
            "    if (smem > 48 * 1024) {\n"
            "        cudaError_t err = cudaFuncSetAttribute(%s_kernel,\n"
            "            cudaFuncAttributeMaxDynamicSharedMemorySize, smem);\n"
            "        if (err != cudaSuccess)\n"
            "            return err;\n"
            "    }\n"
            "    long long gy = ((long long)rows + AT_TILE_Y - 1) / AT_TILE_Y;\n"
            "    dim3 grid((unsigned)(((long long)cols + AT_TILE_X - 1) /\n"
            "                         AT_TILE_X),\n"
            "              (unsigned)(gy > 65535 ? 65535 : gy));\n"
            "    dim3 block(AT_BLOCK_X, AT_BLOCK_Y);\n"
            "    %s_kernel<<<grid, block, smem, stream>>>(\n"
            "        (const at_elem *)in, (at_elem *)out, rows, cols, ld_in,\n"
            "        ld_out);\n"
            "    return cudaGetLastError();\n"
            "}\n",
            name, t, t, name, name);
}

const at_family at_family_transpose = {
    .name = "transpose",
    .abi = 1,
    .template_path = "templates/transpose.cu",
    .template_src = at_tmpl_transpose,
    .axes = axes,
    .n_axes = N_AXES,
    .derived = "ept = tile_x*tile_y/(block_x*block_y): elements per thread, "
               "the block walking the tile in tile_y/block_y row passes "
               "(at most 32)",
    .valid = valid,
    .point_name = point_name,
    .defines = defines,
    .launch = launch,
    .args = args,
    .reference = reference,
    .bytes_moved = bytes_moved,
    .default_point = default_point,
    .emit_launcher = emit_launcher,
};
