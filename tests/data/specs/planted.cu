// A user's kernel with planted faults, for the GPU suite (tests/gpu/
// specs.sh): c += a + b, where the parameter fault makes some points
// wrong (1: c[0] off by one; 2: a write one past the end of c). The
// tuner must reject exactly those and pick a right one.
extern "C" __global__ void planted(float *c, const float *a, const float *b,
                                   int n)
{
    int i = (blockIdx.x * block_size_x + threadIdx.x) * tile_size_x;
#pragma unroll
    for (int k = 0; k < tile_size_x; ++k)
        if (i + k < n)
            c[i + k] += a[i + k] + b[i + k];
#if fault == 1
    if (i == 0) /* after its own write of c[0]: no race */
        c[0] += 1.0f;
#elif fault == 2
    if (i == 0)
        c[n] = 0.0f;
#endif
}

extern "C" __global__ void planted_ref(float *c, const float *a,
                                       const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] += a[i] + b[i];
}
