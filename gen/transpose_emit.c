/* The transpose family's emitted host code: the launchers of the .cu file
 * (NAME_batched and NAME for one matrix) and how to call them. */
#include <stdio.h>

#include "transpose.h"

/* The launcher's checks of the sizes, common to both kinds. */
#define SIZE_CHECKS                                                          \
    "    if (rows <= 0 || cols <= 0 || ld_in < cols || ld_out < rows ||\n"   \
    "        batch <= 0 ||\n"                                                \
    "        (batch > 1 &&\n"                                                \
    "         (stride_in < (rows - 1) * ld_in + cols ||\n"                   \
    "          stride_out < (cols - 1) * ld_out + rows)))\n"                 \
    "        return cudaErrorInvalidValue;\n"

/* The launcher's opt-in to more than 48 KB of dynamic shared memory
 * (smem bytes) for the kernel nvcc built from the file (the tuned cubin's
 * is asked for in at_launch_tuned); %s: the launcher's name. */
#define SMEM_OPT_IN                                                          \
    "    if (smem > 48 * 1024) {\n"                                          \
    "        cudaError_t err = cudaFuncSetAttribute(%s_kernel,\n"            \
    "            cudaFuncAttributeMaxDynamicSharedMemorySize, smem);\n"      \
    "        if (err != cudaSuccess)\n"                                      \
    "            return err;\n"                                              \
    "    }\n"

/* One matrix, through the batched launcher. */
static void emit_single(FILE *f, const char *t, const char *name)
{
    fprintf(f,
            "/* One matrix: rows x cols in (ld_in between rows) to cols x rows\n"
            " * out (ld_out between rows). */\n"
            "extern \"C\" cudaError_t %s(const %s *in, %s *out, int rows,\n"
            "    int cols, long long ld_in, long long ld_out,\n"
            "    cudaStream_t stream)\n"
            "{\n"
            "    return %s_batched(in, out, rows, cols, ld_in, ld_out, 1,\n"
            "                      (long long)rows * ld_in,\n"
            "                      (long long)cols * ld_out, stream);\n"
            "}\n",
            name, t, t, name);
}

static void emit_strip(FILE *f, const char *t, const char *name)
{
    fprintf(f,
            "/* Launches the kernel on stream for a batch of matrices: input\n"
            " * z is rows x cols (row-major, ld_in elements between rows) at\n"
            " * in + z * stride_in; output z is cols x rows (ld_out between\n"
            " * rows) at out + z * stride_out. in and out are device pointers\n"
            " * whose ranges must not overlap. A strip kernel: compiled for\n"
            " * AT_SHORT rows (AT_SHORT_ROWS 1) or columns (0), any length of\n"
            " * the other side. Returns the launch's error;\n"
            " * cudaErrorInvalidValue for bad sizes or another short side. */\n"
            "extern \"C\" cudaError_t %s_batched(const %s *in, %s *out,\n"
            "    int rows, int cols, long long ld_in, long long ld_out,\n"
            "    int batch, long long stride_in, long long stride_out,\n"
            "    cudaStream_t stream)\n"
            "{\n" SIZE_CHECKS
            "    if ((AT_SHORT_ROWS ? rows : cols) != AT_SHORT)\n"
            "        return cudaErrorInvalidValue;\n"
            "    const long long len = AT_SHORT_ROWS ? cols : rows;\n"
            "    double groups =\n"
            "        (double)((len + AT_VEC - 1) / AT_VEC) * batch;\n"
            "    double blocks = (groups + AT_THREADS * AT_STEPS - 1) /\n"
            "                    (AT_THREADS * AT_STEPS);\n"
            "    dim3 grid(blocks > 2147483647.0 ? 2147483647u\n"
            "                                    : (unsigned)blocks);\n"
            "    dim3 block(AT_BLOCK_X, AT_BLOCK_Y);\n"
            "    const int smem = AT_STRIP_SMEM;\n" SMEM_OPT_IN
            "    at_launch_tuned(%s_kernel, grid, block, smem,\n"
            "        stream, (const at_elem *)in, (at_elem *)out, rows, cols,\n"
            "        ld_in, ld_out, batch, stride_in, stride_out);\n"
            "    return cudaGetLastError();\n"
            "}\n\n",
            name, t, t, name, name);
    emit_single(f, t, name);
}

/* Where the kernel is compiled without the element path (AT_EDGE 0), it
 * takes whole tiles on rows and buffers on its vectors alone. The
 * launcher sends buffers off them to a plain kernel, the classic 32x32
 * tile with edges (any shape and alignment), and a shape its tiles do
 * not divide to the tuned kernel for the whole tiles and the plain one
 * for the strips past them. Not named after the launcher, so that a file
 * of many kernels keeps them in each kernel's scope (where AT_EDGE is
 * defined) and nowhere else. */
static void emit_general(FILE *f)
{
    fprintf(f,
            "#if defined(AT_EDGE) && !AT_EDGE\n"
            "/* Launches the tuned kernel does not take: the classic 32x32\n"
            " * tile (32x8 threads) through shared memory, any shape and\n"
            " * alignment. */\n"
            "static __global__ void __launch_bounds__(256) at_general_copy(\n"
            "    const at_elem *AT_RST in, at_elem *AT_RST out, int rows,\n"
            "    int cols, long long ld_in, long long ld_out, long long batch,\n"
            "    long long stride_in, long long stride_out)\n"
            "{\n"
            "    __shared__ at_elem t[32][33];\n"
            "    const long long nx = ((long long)cols + 31) / 32;\n"
            "    const long long ny = ((long long)rows + 31) / 32;\n"
            "    const int tx = threadIdx.x, ty = threadIdx.y;\n"
            "    for (long long k = blockIdx.x; k < nx * ny * batch;\n"
            "         k += gridDim.x) {\n"
            "        const long long z = k / (nx * ny), i = k - z * nx * ny;\n"
            "        const int x0 = (int)(i %% nx) * 32, y0 = (int)(i / nx) * 32;\n"
            "        const at_elem *src = in + z * stride_in;\n"
            "        at_elem *dst = out + z * stride_out;\n"
            "        for (int r = ty; r < 32; r += 8)\n"
            "            if (r < rows - y0 && tx < cols - x0)\n"
            "                t[r][tx] = src[(long long)(y0 + r) * ld_in + x0 + tx];\n"
            "        __syncthreads();\n"
            "        for (int c = ty; c < 32; c += 8)\n"
            "            if (c < cols - x0 && tx < rows - y0)\n"
            "                dst[(long long)(x0 + c) * ld_out + y0 + tx] = t[tx][c];\n"
            "        __syncthreads();\n"
            "    }\n"
            "}\n\n"
            "static cudaError_t at_general_launch(const at_elem *in,\n"
            "    at_elem *out, int rows, int cols, long long ld_in,\n"
            "    long long ld_out, int batch, long long stride_in,\n"
            "    long long stride_out, cudaStream_t stream)\n"
            "{\n"
            "    double n = (double)(((long long)cols + 31) / 32) *\n"
            "               (double)(((long long)rows + 31) / 32) * batch;\n"
            "    at_general_copy<<<n > 2147483647.0 ? 2147483647u : (unsigned)n,\n"
            "                      dim3(32, 8), 0, stream>>>(in, out, rows, cols,\n"
            "        ld_in, ld_out, batch, stride_in, stride_out);\n"
            "    return cudaGetLastError();\n"
            "}\n"
            "#endif\n\n");
}

/* The launcher's test that the kernel takes the launch: where the
 * buffers are off its vectors, the plain kernel; where the shape is not
 * whole tiles, the plain kernel on the strips past the last whole tile
 * (the right one, then the bottom one) and the tuned kernel on the rest
 * (H100, f32, a kernel tuned for 8192x8192: the plain kernel alone on
 * 8191x8191 reached 61% of the copy). */
#define GENERAL_LAUNCH                                                       \
    "#if !AT_EDGE\n"                                                         \
    "    /* Compiled without the element path: whole tiles, rows and\n"     \
    "     * buffers on its vectors (the output's anywhere where it skews\n" \
    "     * its stores). */\n"                                              \
    "    const long long aw = AT_VEC * AT_PACK;\n"                          \
    "    const unsigned long long ab = aw * AT_ELEM_BYTES;\n"               \
    "    const int rows_w = rows - rows %% AT_TILE_Y;\n"                    \
    "    const int cols_w = cols - cols %% AT_TILE_X;\n"                    \
    "    if (rows_w == 0 || cols_w == 0 || ld_in %% aw ||\n"                \
    "        (batch > 1 && stride_in %% aw) ||\n"                           \
    "        (unsigned long long)in %% ab ||\n"                             \
    "        (!AT_SKEW && (ld_out %% aw || (batch > 1 && stride_out %% aw) ||\n" \
    "                      (unsigned long long)out %% ab)))\n"              \
    "        return at_general_launch((const at_elem *)in, (at_elem *)out,\n" \
    "            rows, cols, ld_in, ld_out, batch, stride_in, stride_out,\n" \
    "            stream);\n"                                                \
    "    cudaError_t edge = cudaSuccess;\n"                                 \
    "    if (cols_w < cols)\n"                                              \
    "        edge = at_general_launch((const at_elem *)in + cols_w,\n"      \
    "            (at_elem *)out + (long long)cols_w * ld_out, rows,\n"      \
    "            cols - cols_w, ld_in, ld_out, batch, stride_in,\n"         \
    "            stride_out, stream);\n"                                    \
    "    if (edge == cudaSuccess && rows_w < rows)\n"                       \
    "        edge = at_general_launch((const at_elem *)in +\n"              \
    "            (long long)rows_w * ld_in, (at_elem *)out + rows_w,\n"     \
    "            rows - rows_w, cols_w, ld_in, ld_out, batch, stride_in,\n" \
    "            stride_out, stream);\n"                                    \
    "    if (edge != cudaSuccess)\n"                                        \
    "        return edge;\n"                                                \
    "    rows = rows_w;\n"                                                  \
    "    cols = cols_w;\n"                                                  \
    "#endif\n"

void at_tp_emit_launcher(FILE *f, const at_problem *p, const at_point *pt,
                         const char *name)
{
    const char *t = p->type->ctype;
    if (pt->v[KIND] == KIND_STRIP) {
        emit_strip(f, t, name);
        return;
    }
    emit_general(f);
    fprintf(f,
            "/* Launches the kernel on stream for a batch of matrices: input\n"
            " * z is rows x cols (row-major, ld_in elements between rows) at\n"
            " * in + z * stride_in; output z is cols x rows (ld_out between\n"
            " * rows) at out + z * stride_out. in and out are device pointers\n"
            " * whose ranges must not overlap. Returns the launch's error;\n"
            " * cudaErrorInvalidValue for bad sizes, or for 2^32 tiles or more\n"
            " * where the kernel was compiled without 64-bit tile indices.\n"
            " * Shapes and buffers the kernel was not made for take a plain\n"
            " * kernel (AT_EDGE 0: whole tiles on its vectors alone). */\n"
            "extern \"C\" cudaError_t %s_batched(const %s *in, %s *out,\n"
            "    int rows, int cols, long long ld_in, long long ld_out,\n"
            "    int batch, long long stride_in, long long stride_out,\n"
            "    cudaStream_t stream)\n"
            "{\n" SIZE_CHECKS GENERAL_LAUNCH
            "    const int smem = AT_SMEM_BYTES;\n" SMEM_OPT_IN
            "    double tiles = (double)(((long long)cols + AT_TILE_X - 1) /\n"
            "                            AT_TILE_X) *\n"
            "                   (double)(((long long)rows + AT_TILE_Y - 1) /\n"
            "                            AT_TILE_Y) * batch;\n"
            "#if !AT_WIDE\n"
            "    if (tiles > 4294967295.0)\n"
            "        return cudaErrorInvalidValue;\n"
            "#endif\n"
            "    double blocks = (tiles + AT_TILES - 1) / AT_TILES;\n"
            "    dim3 grid(blocks > 2147483647.0 ? 2147483647u\n"
            "                                    : (unsigned)blocks);\n"
            "    dim3 block(AT_BLOCK_X, AT_BLOCK_Y);\n"
            "    at_launch_tuned(%s_kernel, grid, block, smem, stream,\n"
            "        (const at_elem *)in, (at_elem *)out, rows, cols, ld_in,\n"
            "        ld_out, batch, stride_in, stride_out);\n"
            "    return cudaGetLastError();\n"
            "}\n\n",
            name, t, t, name, name);
    emit_single(f, t, name);
}

void at_tp_usage(const at_problem *p, const char *name, char *buf, size_t n)
{
    (void)p;
    snprintf(buf, n, "call %s() (one matrix) or %s_batched() from host "
             "code.", name, name);
}
