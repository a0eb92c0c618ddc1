// A kernel of C++ linkage (no extern "C"), as most Kernel Tuner kernels
// are: its name is lowered by NVRTC, and autotune finds it in the cubin
// (runtime/module.c). The reference is C++ too.
__global__ void saxpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * block_size_x + threadIdx.x;
    for (; i < n; i += gridDim.x * block_size_x)
        y[i] += a * x[i];
}

__global__ void saxpy_ref(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += a * x[i];
}
