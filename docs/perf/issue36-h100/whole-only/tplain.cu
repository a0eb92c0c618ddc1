// Times an emitted launcher GEN (f32) on shapes: its own (whole) and others
// (the plain kernel), against a device-to-device copy of the same bytes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
extern "C" cudaError_t GEN(const float *in, float *out, int rows, int cols,
                           long long ld_in, long long ld_out, cudaStream_t s);
static float t_ms(int rows, int cols, bool copy, float *in, float *out) {
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    size_t n = (size_t)rows * cols * 4;
    for (int w = 0; w < 3; ++w)
        copy ? (void)cudaMemcpyAsync(out, in, n, cudaMemcpyDeviceToDevice) : (void)GEN(in, out, rows, cols, cols, rows, 0);
    cudaEventRecord(a);
    for (int i = 0; i < 20; ++i)
        copy ? (void)cudaMemcpyAsync(out, in, n, cudaMemcpyDeviceToDevice) : (void)GEN(in, out, rows, cols, cols, rows, 0);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); return ms / 20;
}
int main(int argc, char **argv) {
    float *in, *out; size_t max = (size_t)8192 * 8192 * 4;
    cudaMalloc(&in, max); cudaMalloc(&out, max); cudaMemset(in, 1, max);
    for (int i = 1; i + 1 < argc; i += 2) {
        int r = atoi(argv[i]), c = atoi(argv[i + 1]);
        float k = t_ms(r, c, false, in, out), m = t_ms(r, c, true, in, out);
        double gb = 2.0 * r * c * 4 / 1e6;
        printf("%dx%d: launcher %.4f ms %.0f GB/s, copy %.4f ms %.0f GB/s, %.1f%% of copy\n",
               r, c, k, gb / k, m, gb / m, 100 * m / k);
    }
    return 0;
}
