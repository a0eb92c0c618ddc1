// The copy a strided layout allows: rows x cols elements of E bytes, ld
// apart. Times (CUDA events, median of 20, after 3 warm-ups) the
// contiguous device-to-device copy of rows x cols x E bytes (the
// yardstick: 2 x bytes / time), cudaMemcpy2D of the strided rows into a
// packed buffer (2 x bytes / time), and a read of the layout alone (each
// thread 8 elements of the flat index, a row's cols side by side: bytes
// / time). Prints each as GB/s and as a share of the contiguous copy.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
template <typename T>
__global__ void read_layout(const T *in, unsigned rows, unsigned cols,
                            unsigned long long ld, unsigned long long *out)
{
    const unsigned long long n = (unsigned long long)rows * cols;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long acc = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += 8 * stride) {
        T x[8];
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            unsigned long long j = i + k * stride;
            if (j < n) {
                unsigned r = (unsigned)(j / cols), c = (unsigned)(j % cols);
                x[k] = __ldg(&in[r * ld + c]);
            } else x[k] = 0;
        }
#pragma unroll
        for (int k = 0; k < 8; ++k) acc ^= (unsigned long long)x[k];
    }
    if (acc == 0x123456789ull) *out = acc;
}
template <typename T> static void run(long long rows, long long cols, long long ld)
{
    size_t bytes = (size_t)rows * cols * sizeof(T), all = (size_t)rows * ld * sizeof(T);
    char *a, *b, *c; unsigned long long *o;
    CK(cudaMalloc(&a, all)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&c, bytes)); CK(cudaMalloc(&o, 8));
    CK(cudaMemset(a, 1, all)); CK(cudaMemset(b, 2, bytes));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    auto time = [&](int which) {
        std::vector<float> v;
        for (int i = 0; i < 23; ++i) {
            CK(cudaEventRecord(e0));
            if (which == 0) CK(cudaMemcpyAsync(c, b, bytes, cudaMemcpyDeviceToDevice));
            else if (which == 1) CK(cudaMemcpy2DAsync(c, cols * sizeof(T), a, ld * sizeof(T), cols * sizeof(T), rows, cudaMemcpyDeviceToDevice));
            else read_layout<T><<<sms * 8, 256>>>((const T *)a, (unsigned)rows, (unsigned)cols, ld, o);
            CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
            float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (i >= 3) v.push_back(ms);
        }
        std::sort(v.begin(), v.end()); return v[v.size() / 2];
    };
    double copy = 2.0 * bytes / time(0) / 1e6, c2d = 2.0 * bytes / time(1) / 1e6, rd = bytes / time(2) / 1e6;
    printf("%zu-byte %lldx%lld ld %lld (%.0f MiB): copy %.0f GB/s | memcpy2D %.0f (%.1f%%) | layout read %.0f (%.1f%%)\n",
           sizeof(T), rows, cols, ld, bytes / 1048576.0, copy, c2d, 100 * c2d / copy, rd, 100 * rd / copy);
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(o);
}
int main(int argc, char **argv)
{
    size_t g0 = 0;
    CK(cudaDeviceGetLimit(&g0, cudaLimitMaxL2FetchGranularity));
    if (getenv("L2G")) CK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, atoi(getenv("L2G"))));
    size_t g1 = 0;
    CK(cudaDeviceGetLimit(&g1, cudaLimitMaxL2FetchGranularity));
    printf("L2 fetch granularity %zu -> %zu\n", g0, g1);
    for (int i = 1; i + 3 < argc; i += 4) {
        int e = atoi(argv[i]); long long r = atoll(argv[i + 1]), c = atoll(argv[i + 2]), l = atoll(argv[i + 3]);
        if (e == 8) run<unsigned long long>(r, c, l);
        else if (e == 4) run<unsigned>(r, c, l);
        else run<unsigned short>(r, c, l);
    }
    return 0;
}
