// The seeds' case study (../shared/seeds/004_*): for each of n data sets
// of L vectors of M elements, average each vector, then multiply the L
// averages by an L x L matrix: out[k + i * n] = sum_j matrix[j * L + i] *
// avg_j. A block per data set. The loop structure is a parameter:
// warp_stride 0 gives each thread whole vectors (the refactored kernel,
// loads strided by M across a warp); 1 gives each warp a vector at a time
// with a warp-stride loop and a shuffle reduction (the restructured one,
// block_size_x 32).
extern "C" __global__ void avg_matvec(float *out, const float *in,
                                      const float *matrix, int n)
{
    __shared__ float v[L];
    const int k = blockIdx.x;
    const int threads = block_size_x * block_size_y;
    const int id = threadIdx.y * block_size_x + threadIdx.x;
    const float *set = in + (size_t)k * M * L;
#if warp_stride
    for (int y = threadIdx.y; y < L; y += block_size_y) {
        float s = 0;
        for (int x = threadIdx.x; x < M; x += 32)
            s += set[(size_t)y * M + x];
        for (int off = 16; off > 0; off >>= 1)
            s += __shfl_down_sync(0xffffffffu, s, off);
        if (threadIdx.x == 0)
            v[y] = s / M;
    }
#else
    for (int y = id; y < L; y += threads) {
        float s = 0;
        for (int x = 0; x < M; ++x)
            s += set[(size_t)y * M + x];
        v[y] = s / M;
    }
#endif
    __syncthreads();
    for (int i = id; i < L; i += threads) {
        float acc = 0;
        for (int j = 0; j < L; ++j)
            acc += matrix[(size_t)j * L + i] * v[j];
        out[k + (size_t)i * n] = acc;
    }
}

// The reference: a thread a vector, sums in order.
extern "C" __global__ void avg_matvec_ref(float *out, const float *in,
                                          const float *matrix, int n)
{
    __shared__ float v[L];
    const int k = blockIdx.x;
    const float *set = in + (size_t)k * M * L;
    for (int y = threadIdx.x; y < L; y += blockDim.x) {
        float s = 0;
        for (int x = 0; x < M; ++x)
            s += set[(size_t)y * M + x];
        v[y] = s / M;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < L; i += blockDim.x) {
        float acc = 0;
        for (int j = 0; j < L; ++j)
            acc += matrix[(size_t)j * L + i] * v[j];
        out[k + (size_t)i * n] = acc;
    }
}
