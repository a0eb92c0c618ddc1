/* Out-of-place 2D transpose: out[c][r] = in[r][c], for 4- and 8-byte
 * elements (bits are moved, never interpreted).
 *
 * The point is chosen by the generator with these macros:
 *   AT_ELEM_BYTES          4 or 8
 *   AT_TILE_X, AT_TILE_Y   tile of the input: columns, rows
 *   AT_BLOCK_X, AT_BLOCK_Y threads; the block walks the tile in passes of
 *                          AT_BLOCK_Y rows and AT_BLOCK_X * AT_VEC columns,
 *                          then walks the transposed tile the same way
 *   AT_VEC                 elements per global load/store (1, 2, 4; <= 16 B)
 *   AT_PAD                 elements of padding per shared-memory row
 *   AT_LDG                 1: loads through the read-only cache (__ldg)
 *   AT_RESTRICT            1: pointers are __restrict__
 *   AT_KERNEL              the kernel's name
 *
 * Launch: block (AT_BLOCK_X, AT_BLOCK_Y), grid (ceil(cols / AT_TILE_X),
 * min(ceil(rows / AT_TILE_Y), 65535)), dynamic shared memory
 * AT_TILE_Y * (AT_TILE_X + AT_PAD) * AT_ELEM_BYTES bytes.
 *
 * Whole tiles with aligned rows take the vector path; edge tiles and
 * unaligned leading dimensions take the guarded element path. */

#if AT_ELEM_BYTES == 4
typedef unsigned int at_elem;
#elif AT_ELEM_BYTES == 8
typedef unsigned long long at_elem;
#else
#error "AT_ELEM_BYTES must be 4 or 8"
#endif

#if AT_VEC * AT_ELEM_BYTES == 4
typedef unsigned int at_vec;
#elif AT_VEC * AT_ELEM_BYTES == 8
typedef uint2 at_vec;
#elif AT_VEC * AT_ELEM_BYTES == 16
typedef uint4 at_vec;
#else
#error "AT_VEC * AT_ELEM_BYTES must be 4, 8 or 16"
#endif

union at_vec_u {
    at_vec v;
    at_elem e[AT_VEC];
};

#if AT_RESTRICT
#define AT_RST __restrict__
#else
#define AT_RST
#endif

#if AT_LDG
#define AT_LD(p) __ldg(p)
#else
#define AT_LD(p) (*(p))
#endif

#define AT_STRIDE (AT_TILE_X + AT_PAD)
#define AT_LOAD_ROWS (AT_TILE_Y / AT_BLOCK_Y)
#define AT_LOAD_COLS (AT_TILE_X / (AT_BLOCK_X * AT_VEC))
#define AT_STORE_ROWS (AT_TILE_X / AT_BLOCK_Y)
#define AT_STORE_COLS (AT_TILE_Y / (AT_BLOCK_X * AT_VEC))

extern "C" __global__ void __launch_bounds__(AT_BLOCK_X * AT_BLOCK_Y)
AT_KERNEL(const at_elem *AT_RST in, at_elem *AT_RST out, int rows, int cols,
          long long ld_in, long long ld_out)
{
    extern __shared__ __align__(16) unsigned char at_smem[];
    at_elem *tile = (at_elem *)at_smem;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x0 = blockIdx.x * AT_TILE_X; /* input column of the tile */
    /* Sizes may reach INT_MAX: compare by differences, never x0 + n. */
    const int tiles_y = (int)(((long long)rows + AT_TILE_Y - 1) / AT_TILE_Y);
    const bool vec_ok =
        AT_VEC == 1 ||
        (((ld_in | ld_out) % AT_VEC) == 0 &&
         (((unsigned long long)in | (unsigned long long)out) %
          (AT_VEC * AT_ELEM_BYTES)) == 0);

    for (int by = blockIdx.y; by < tiles_y; by += gridDim.y) {
        const int y0 = by * AT_TILE_Y; /* input row of the tile */
        const bool fast =
            vec_ok && AT_TILE_X <= cols - x0 && AT_TILE_Y <= rows - y0;

        if (fast) {
            /* Load: tile[r][c] = in[y0 + r][x0 + c], one vector a step. */
#pragma unroll
            for (int i = 0; i < AT_LOAD_ROWS; ++i) {
                const int r = ty + i * AT_BLOCK_Y;
                const at_elem *src = in + (long long)(y0 + r) * ld_in + x0;
#pragma unroll
                for (int j = 0; j < AT_LOAD_COLS; ++j) {
                    const int c = (tx + j * AT_BLOCK_X) * AT_VEC;
                    at_vec_u u;
                    u.v = AT_LD((const at_vec *)(src + c));
#pragma unroll
                    for (int k = 0; k < AT_VEC; ++k)
                        tile[r * AT_STRIDE + c + k] = u.e[k];
                }
            }
            __syncthreads();
            /* Store: out[x0 + r][y0 + c] = tile[c][r]. */
#pragma unroll
            for (int i = 0; i < AT_STORE_ROWS; ++i) {
                const int r = ty + i * AT_BLOCK_Y;
                at_elem *dst = out + (long long)(x0 + r) * ld_out + y0;
#pragma unroll
                for (int j = 0; j < AT_STORE_COLS; ++j) {
                    const int c = (tx + j * AT_BLOCK_X) * AT_VEC;
                    at_vec_u u;
#pragma unroll
                    for (int k = 0; k < AT_VEC; ++k)
                        u.e[k] = tile[(c + k) * AT_STRIDE + r];
                    *(at_vec *)(dst + c) = u.v;
                }
            }
        } else {
            /* Edge tile or unaligned rows: element by element, guarded.
             * Not unrolled: it is rare and unrolling only costs compile
             * time. */
#pragma unroll 1
            for (int r = ty; r < AT_TILE_Y; r += AT_BLOCK_Y)
                if (r < rows - y0)
                    for (int c = tx; c < AT_TILE_X; c += AT_BLOCK_X)
                        if (c < cols - x0)
                            tile[r * AT_STRIDE + c] =
                                AT_LD(in + (long long)(y0 + r) * ld_in + x0 + c);
            __syncthreads();
#pragma unroll 1
            for (int r = ty; r < AT_TILE_X; r += AT_BLOCK_Y)
                if (r < cols - x0)
                    for (int c = tx; c < AT_TILE_Y; c += AT_BLOCK_X)
                        if (c < rows - y0)
                            out[(long long)(x0 + r) * ld_out + y0 + c] =
                                tile[c * AT_STRIDE + r];
        }
        __syncthreads();
    }
}
