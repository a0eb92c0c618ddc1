// vector_add.cu of examples/kernels/vector_add, copied for the bad specs
// beside it (a spec reads files in its own folder only).
extern "C" __global__ void vector_add(float *c, const float *a,
                                      const float *b, int n)
{
    int i = (blockIdx.x * block_size_x + threadIdx.x) * tile_size_x;
#pragma unroll
    for (int k = 0; k < tile_size_x; ++k)
        if (i + k < n)
            c[i + k] = a[i + k] + b[i + k];
}

// The reference: one element a thread, no parameters.
extern "C" __global__ void vector_add_ref(float *c, const float *a,
                                          const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
