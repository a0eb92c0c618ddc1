/* The benchmark's baselines, as a CUDA programmer would first write them
 * (after NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++"): 32x32
 * tiles of a block of 32x8 threads, each thread moving four elements.
 *   at_naive:   straight from global to global: reads coalesced, writes
 *               strided.
 *   at_classic: through a shared tile with one element of padding a row,
 *               so both reads and writes are coalesced and conflict free.
 * Element size AT_ELEM_BYTES (1, 2, 4, 8, 16); bits are moved. Launch: block
 * (32, 8), grid (ceil(cols / 32), min(ceil(rows / 32), 65535),
 * min(batch, 65535)); both kernels loop over the rest. Same arguments as
 * templates/transpose.cu. */
#if AT_ELEM_BYTES == 1
typedef unsigned char at_elem;
#elif AT_ELEM_BYTES == 2
typedef unsigned short at_elem;
#elif AT_ELEM_BYTES == 4
typedef unsigned int at_elem;
#elif AT_ELEM_BYTES == 8
typedef unsigned long long at_elem;
#else
typedef uint4 at_elem;
#endif

#define AT_B 32
#define AT_ROWS 8

extern "C" __global__ void __launch_bounds__(AT_B * AT_ROWS)
at_naive(const at_elem *in, at_elem *out, int rows, int cols,
         long long ld_in, long long ld_out, int batch, long long stride_in,
         long long stride_out)
{
    const long long x = (long long)blockIdx.x * AT_B + threadIdx.x;
    for (int z = blockIdx.z; z < batch; z += gridDim.z)
        for (long long y0 = (long long)blockIdx.y * AT_B; y0 < rows;
             y0 += (long long)gridDim.y * AT_B)
            for (int j = 0; j < AT_B; j += AT_ROWS) {
                const long long y = y0 + threadIdx.y + j;
                if (x < cols && y < rows)
                    out[z * stride_out + (long long)x * ld_out + y] =
                        in[z * stride_in + y * ld_in + x];
            }
}

extern "C" __global__ void __launch_bounds__(AT_B * AT_ROWS)
at_classic(const at_elem *in, at_elem *out, int rows, int cols,
           long long ld_in, long long ld_out, int batch, long long stride_in,
           long long stride_out)
{
    __shared__ at_elem tile[AT_B][AT_B + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const long long x0 = (long long)blockIdx.x * AT_B;
    for (int z = blockIdx.z; z < batch; z += gridDim.z)
        for (long long y0 = (long long)blockIdx.y * AT_B; y0 < rows;
             y0 += (long long)gridDim.y * AT_B) {
            const at_elem *src = in + z * stride_in;
            at_elem *dst = out + z * stride_out;
            for (int j = 0; j < AT_B; j += AT_ROWS) {
                const long long y = y0 + ty + j;
                if (x0 + tx < cols && y < rows)
                    tile[ty + j][tx] = src[y * ld_in + x0 + tx];
            }
            __syncthreads();
            for (int j = 0; j < AT_B; j += AT_ROWS) {
                const long long x = x0 + ty + j, y = y0 + tx;
                if (x < cols && y < rows)
                    dst[x * ld_out + y] = tile[tx][ty + j];
            }
            __syncthreads();
        }
}
