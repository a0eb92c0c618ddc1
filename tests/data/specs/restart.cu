// Variants that fail in every way a real space's can (tests/gpu/restart.sh,
// restart.yaml): mode 1 needs 128 registers a thread and is launched with
// 1024 threads (the driver refuses: too many resources), mode 2 writes to
// an illegal address (the context is lost), mode 3 never finishes (a
// hang); mode 0 copies, each (a, b) its own code.
extern "C" __global__ void restart_copy(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if mode == 2
    if (i == 0)
        *(volatile int *)8 = 1;
#elif mode == 3
    if (i == 0)
        for (;;)
            __nanosleep(1000);
#endif
    if (i >= n)
        return;
#if mode == 1
    float r[96];
#pragma unroll
    for (int j = 0; j < 96; ++j)
        r[j] = in[(i + j * 977) % n];
    float s = 0;
#pragma unroll
    for (int j = 0; j < 96; ++j)
        s = s * r[95 - j] + r[j];
    out[i] = s == 12345.0f ? s : in[i];
#else
    out[i] = in[i];
    if (i == n + a * 16 + b) /* never: each point's code its own */
        out[0] = 0;
#endif
}

extern "C" __global__ void restart_ref(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
