// A kernel that builds only with its spec's options (options.yaml):
// tests/test_spec.c checks that a -D becomes a #define of the variant's
// source and that the other options reach NVRTC.
#ifndef AT_OPTION_GIVEN
#error "kernel.options' -D did not reach the source"
#endif
#if defined(__CUDACC_RTC__) && !__USE_FAST_MATH__ /* NVRTC's macro */
#error "kernel.options did not reach NVRTC"
#endif
extern "C" __global__ void scale(float *y, const float *x, int n)
{
    int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n)
        y[i] = AT_OPTION_GIVEN * x[i];
}
