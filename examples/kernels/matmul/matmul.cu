// C = A * B for n x n row-major matrices, through square shared-memory
// tiles of block_size_x; each thread computes tile_size_y outputs of a
// column, block_size_y rows apart (block_size_x == block_size_y *
// tile_size_y, a restriction of the spec). n is a multiple of the tile.
#define TS block_size_x

extern "C" __global__ void matmul(float *C, const float *A, const float *B,
                                  int n)
{
    __shared__ float sA[TS][TS + 1], sB[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * TS + tx, row0 = blockIdx.y * TS;
    float acc[tile_size_y];
#pragma unroll
    for (int t = 0; t < tile_size_y; ++t)
        acc[t] = 0;
    for (int k0 = 0; k0 < n; k0 += TS) {
#pragma unroll
        for (int t = 0; t < tile_size_y; ++t) {
            int r = ty + t * block_size_y;
            sA[r][tx] = A[(size_t)(row0 + r) * n + k0 + tx];
            sB[r][tx] = B[(size_t)(k0 + r) * n + col];
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) {
            float b = sB[k][tx];
#pragma unroll
            for (int t = 0; t < tile_size_y; ++t)
                acc[t] += sA[ty + t * block_size_y][k] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int t = 0; t < tile_size_y; ++t)
        C[(size_t)(row0 + ty + t * block_size_y) * n + col] = acc[t];
}

// The reference: one output a thread, k in order.
extern "C" __global__ void matmul_ref(float *C, const float *A,
                                      const float *B, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= n || row >= n)
        return;
    float acc = 0;
    for (int k = 0; k < n; ++k)
        acc += A[(size_t)row * n + k] * B[(size_t)k * n + col];
    C[(size_t)row * n + col] = acc;
}
