// A kernel that builds only with its spec's NVRTC options (options.yaml):
// tests/test_spec.c checks kernel.options reach the compiler.
#ifndef AT_OPTION_GIVEN
#error "kernel.options did not reach NVRTC"
#endif
extern "C" __global__ void scale(float *y, const float *x, int n)
{
    int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n)
        y[i] = AT_OPTION_GIVEN * x[i];
}
