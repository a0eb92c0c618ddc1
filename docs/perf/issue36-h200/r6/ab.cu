// The same reduce point two ways in one program: the emitted .cu's kernel
// (nvcc, through its launcher) and NVRTC's cubin of it (the tuner's
// build, loaded with the driver API, launched with the launcher's
// geometry), timed alternately against a device-to-device copy.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
extern "C" cudaError_t autotune_reduce_f16(const __half *in, float *out, long long rows,
    long long cols, long long ld, void *workspace, cudaStream_t stream);
extern "C" size_t autotune_reduce_f16_workspace_bytes(long long rows, long long cols);
#define OK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define DK(x) do { CUresult r_ = (x); if (r_) { printf("%s: %d\n", #x, (int)r_); exit(1); } } while (0)
int main(int argc, char **argv)
{
    const long long rows = 100344, cols = 1534, ld = 1534;
    const int group = atoi(argv[2]), threads = 512, items = 8, vec = 8, waves = 2;
    int sms; OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const long long lanes = threads / group, w = group * vec, units = (cols + w - 1) / w;
    const long long step = lanes * items;
    long long split = waves * (long long)sms * (512 / threads) / units; if (split < 1) split = 1;
    long long seg = ((rows + split - 1) / split + step - 1) / step * step;
    split = (rows + seg - 1) / seg;
    size_t n = rows * ld, bytes = n * 2;
    std::vector<__half> h(n);
    for (size_t i = 0; i < n; ++i) h[i] = __float2half((float)((int)(i % 7) - 3));
    __half *in; float *out[2]; void *ws[2]; char *dst;
    OK(cudaMalloc(&in, bytes)); OK(cudaMalloc(&dst, bytes));
    OK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
    size_t wsb = autotune_reduce_f16_workspace_bytes(rows, cols);
    for (int k = 0; k < 2; ++k) { OK(cudaMalloc(&out[k], cols * 4)); OK(cudaMalloc(&ws[k], wsb)); OK(cudaMemset(ws[k], 0, wsb)); }
    CUmodule mod; CUfunction fn;
    DK(cuModuleLoad(&mod, argv[1])); DK(cuModuleGetFunction(&fn, mod, "k"));
    int pass = 0;
    void *args[] = {&in, &out[1], &ws[1], (void *)&rows, (void *)&cols, (void *)&ld, &seg, &pass};
    cudaEvent_t a, b; OK(cudaEventCreate(&a)); OK(cudaEventCreate(&b));
    printf("group %d: grid %lld x %lld, seg %lld, workspace %zu\n", group, units, split, seg, wsb);
    const int reps = 200;
    for (int round = 0; round < 3; ++round) {
        float ms[3];
        for (int k = 0; k < 3; ++k) {
            for (int i = 0; i < reps + 20; ++i) {
                if (i == 20) OK(cudaEventRecord(a));
                if (k == 0) OK(cudaMemcpyAsync(dst, in, bytes, cudaMemcpyDeviceToDevice));
                else if (k == 1) OK(autotune_reduce_f16(in, out[0], rows, cols, ld, ws[0], 0));
                else DK(cuLaunchKernel(fn, (unsigned)units, (unsigned)split, 1, threads, 1, 1, 0, 0, args, 0));
            }
            OK(cudaEventRecord(b)); OK(cudaEventSynchronize(b));
            OK(cudaEventElapsedTime(&ms[k], a, b)); ms[k] /= reps;
        }
        double copy = 2.0 * bytes / ms[0] / 1e6, g1 = (bytes + cols * 4.0) / ms[1] / 1e6, g2 = (bytes + cols * 4.0) / ms[2] / 1e6;
        printf("round %d: copy %.0f GB/s | nvcc %.4f ms %.1f%% | nvrtc cubin %.4f ms %.1f%%\n", round, copy, ms[1], 100 * g1 / copy, ms[2], 100 * g2 / copy);
    }
    std::vector<float> r0(cols), r1(cols);
    OK(cudaMemcpy(r0.data(), out[0], cols * 4, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(r1.data(), out[1], cols * 4, cudaMemcpyDeviceToHost));
    int diff = 0; for (long long c = 0; c < cols; ++c) diff += r0[c] != r1[c];
    double want0 = 0; for (long long r = 0; r < rows; ++r) { double v = (double)((int)((r * ld) % 7) - 3); want0 += v * v; }
    printf("outputs differing: %d of %lld; column 0 %.0f (want %.0f)\n", diff, cols, r0[0], want0);
    return 0;
}
