// A copy whose blocks first wait delay clock cycles, for the GPU suite
// (tests/gpu/specs.sh): points far slower than the leaders, on a problem
// past L2, whose check's run on the problem must stand for their first
// sample (raced_on_check) without changing the winner, delay 0.
extern "C" __global__ void slow_copy(float *out, const float *in, int n)
{
    int i = blockIdx.x * block_size_x + threadIdx.x;
#if delay > 0
    if (threadIdx.x == 0) {
        long long t0 = clock64();
        while (clock64() - t0 < delay)
            ;
    }
    __syncthreads();
#endif
    if (i < n)
        out[i] = in[i];
}

extern "C" __global__ void slow_copy_ref(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
