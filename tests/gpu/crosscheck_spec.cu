// Measuring a user's kernel as a user would (tests/gpu/crosscheck_spec.sh):
// the .cu autotune emitted for an example spec, linked into this plain
// nvcc program and timed back to back against cudaMemcpyAsync of half the
// bytes it moves (the copy the tuner compares with), with the shared
// protocol. XC_KIND picks the example's launcher signature:
// 1 vector_add, 2 convolution, 3 stencil. Arguments: the sizes.
#include "crosscheck_protocol.h"

#if XC_KIND == 1
#define XC_TUNED autotune_vector_add_runs_tuned_cubin
#elif XC_KIND == 2
#define XC_TUNED autotune_convolution_runs_tuned_cubin
#else
#define XC_TUNED autotune_stencil_runs_tuned_cubin
#endif
// 1 where the file's launches run its tuned cubin (gen/emit_tuned.c).
extern "C" int XC_TUNED(void);

#if XC_KIND == 1
extern "C" cudaError_t autotune_vector_add(float *, const float *,
                                               const float *, long long,
                                               cudaStream_t);
#elif XC_KIND == 2
extern "C" cudaError_t autotune_convolution(float *, const float *,
                                                const float *, long long,
                                                long long, cudaStream_t);
#else
extern "C" cudaError_t autotune_stencil(float *, const float *,
                                            long long, long long,
                                            cudaStream_t);
#endif

int main(int argc, char **argv)
{
    long long x = argc > 1 ? atoll(argv[1]) : 0;
    long long y = argc > 2 ? atoll(argv[2]) : 1;
    if (x <= 0 || y <= 0) {
        std::fprintf(stderr, "usage: %s SIZE_X [SIZE_Y]\n", argv[0]);
        return 2;
    }
    // Elements of the output and of the (first) input, and the bytes a
    // launch moves, as the example's spec says.
#if XC_KIND == 1
    size_t n_out = x, n_in = 2 * x;
    double bytes = 3.0 * x * 4;
#elif XC_KIND == 2
    size_t n_out = x * y, n_in = (x + 6) * (y + 6);
    double bytes = ((double)x * y + (double)(x + 6) * (y + 6)) * 4;
#else
    size_t n_out = x * y, n_in = x * y;
    double bytes = 2.0 * x * y * 4;
#endif
    int l2 = 0;
    OK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    size_t set = (n_out + n_in) * 4;
    int sets = (int)std::min<size_t>(1024, 3 * (size_t)l2 / set + 1);
    std::vector<float *> in(sets), out(sets);
    for (int i = 0; i < sets; ++i) {
        OK(cudaMalloc(&in[i], n_in * 4));
        OK(cudaMalloc(&out[i], std::max(n_out * 4, (size_t)(bytes / 2))));
        OK(cudaMemset(in[i], 0, n_in * 4));
    }
#if XC_KIND == 2
    float filter[49];
    for (int i = 0; i < 49; ++i)
        filter[i] = 1.0f / 49;
#endif
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    size_t copy = std::min((size_t)(bytes / 2), n_in * 4) & ~(size_t)3;
    auto run = [&](int k, int i) {
        if (k == 0) {
            OK(cudaMemcpyAsync(out[i], in[i], copy, cudaMemcpyDeviceToDevice,
                               s));
            return;
        }
#if XC_KIND == 1
        OK(autotune_vector_add(out[i], in[i], in[i] + x, x, s));
#elif XC_KIND == 2
        OK(autotune_convolution(out[i], in[i], filter, x, y, s));
#else
        OK(autotune_stencil(out[i], in[i], x, y, s));
#endif
    };
    double med[2];
    xc_medians(run, s, 2, sets, med);
    double gbps = bytes / med[1] / 1e6, copy_gbps = 2.0 * copy / med[0] / 1e6;
    std::printf("nvcc program: kernel %.4f ms, %.1f GB/s, %.1f%% of the "
                "copy (%.1f GB/s), %d set%s, running %s\n", med[1], gbps,
                100 * gbps / copy_gbps, copy_gbps, sets, sets > 1 ? "s" : "",
                XC_TUNED() ? "the file's cubin" : "nvcc's build");
    return 0;
}
