// Measuring as a user would: a plain nvcc-built program that links an
// emitted .cu (f32), cuBLAS and, built with -DAT_XC_CUTENSOR and its
// header and library, cuTENSOR; checks each, and times them back to back
// against cudaMemcpyAsync of the same bytes: samples of at least 2 ms of
// back-to-back launches between CUDA events, buffer sets rotated so a
// round moves three L2 caches, the median of 21 samples, the contenders
// interleaved sample by sample. `autotune bench` must agree within ~1%.
//
//   autotune transpose --arch auto --rows R --cols C -o t.cu
//   nvcc -O2 -arch=sm_90 tests/gpu/crosscheck.cu t.cu -lcublas -o xc
//     [-DAT_XC_CUTENSOR -I CUTENSOR/include -Xlinker CUTENSOR/libcutensor.so.2]
//   ./xc R C
#include <cublas_v2.h>

#include "crosscheck_protocol.h"
#ifdef AT_XC_CUTENSOR
#include <cutensor.h>
#endif

extern "C" cudaError_t autotune_transpose_f32(const float *in, float *out,
                                              int rows, int cols,
                                              long long ld_in,
                                              long long ld_out,
                                              cudaStream_t stream);

struct bufs {
    std::vector<float *> in, out;
    int rows, cols;
    cublasHandle_t h;
    cudaStream_t s;
#ifdef AT_XC_CUTENSOR
    cutensorHandle_t ct;
    cutensorPlan_t plan;
#endif
};

// Contenders: memcpy, the tuned kernel, cuBLAS, and cuTENSOR if built in.
#ifdef AT_XC_CUTENSOR
enum { K = 4 };
#define CT(call)                                                             \
    do {                                                                     \
        cutensorStatus_t e_ = (call);                                        \
        if (e_ != CUTENSOR_STATUS_SUCCESS) {                                 \
            std::fprintf(stderr, "%s: %s\n", #call,                          \
                         cutensorGetErrorString(e_));                        \
            std::exit(1);                                                    \
        }                                                                    \
    } while (0)

// in (modes c, r) to out (modes r, c): cutensorPermute's plan, made once.
static void plan_cutensor(bufs &b)
{
    const int64_t ext_a[] = {b.cols, b.rows}, str_a[] = {1, b.cols};
    const int64_t ext_b[] = {b.rows, b.cols}, str_b[] = {1, b.rows};
    const int32_t mode_a[] = {'c', 'r'}, mode_b[] = {'r', 'c'};
    cutensorTensorDescriptor_t da, db;
    cutensorOperationDescriptor_t op;
    cutensorPlanPreference_t pref;
    CT(cutensorCreate(&b.ct));
    CT(cutensorCreateTensorDescriptor(b.ct, &da, 2, ext_a, str_a,
                                      CUTENSOR_R_32F, 256));
    CT(cutensorCreateTensorDescriptor(b.ct, &db, 2, ext_b, str_b,
                                      CUTENSOR_R_32F, 256));
    CT(cutensorCreatePermutation(b.ct, &op, da, mode_a, CUTENSOR_OP_IDENTITY,
                                 db, mode_b, CUTENSOR_COMPUTE_DESC_32F));
    CT(cutensorCreatePlanPreference(b.ct, &pref, CUTENSOR_ALGO_DEFAULT,
                                    CUTENSOR_JIT_MODE_NONE));
    CT(cutensorCreatePlan(b.ct, &b.plan, op, pref, 0));
    CT(cutensorDestroyPlanPreference(pref));
    CT(cutensorDestroyOperationDescriptor(op));
    CT(cutensorDestroyTensorDescriptor(db));
    CT(cutensorDestroyTensorDescriptor(da));
}
#else
enum { K = 3 };
#endif

// Runs contender k once on set i.
static void run(bufs &b, int k, int i)
{
    float *in = b.in[i], *out = b.out[i];
    size_t n = (size_t)b.rows * b.cols;
    if (k == 0) {
        OK(cudaMemcpyAsync(out, in, n * sizeof(float),
                           cudaMemcpyDeviceToDevice, b.s));
    } else if (k == 1) {
        OK(autotune_transpose_f32(in, out, b.rows, b.cols, b.cols, b.rows,
                                  b.s));
    } else if (k == 3) {
#ifdef AT_XC_CUTENSOR
        const float one = 1;
        CT(cutensorPermute(b.ct, b.plan, &one, in, out, b.s));
#endif
    } else {
        const float one = 1, zero = 0;
        if (cublasSgeam(b.h, CUBLAS_OP_T, CUBLAS_OP_N, b.rows, b.cols, &one,
                        in, b.cols, &zero, out, b.rows, out, b.rows) !=
            CUBLAS_STATUS_SUCCESS) {
            std::fprintf(stderr, "cublasSgeam failed\n");
            std::exit(1);
        }
    }
}

// 0 if contender k (1 tuned, 2 cuBLAS, 3 cuTENSOR) transposes set 0
// right.
static size_t wrong(bufs &b, int k, const std::vector<float> &h)
{
    size_t n = h.size(), bad = 0;
    std::vector<float> back(n);
    OK(cudaMemset(b.out[0], 0xff, n * sizeof(float)));
    run(b, k, 0);
    OK(cudaStreamSynchronize(b.s));
    OK(cudaMemcpy(back.data(), b.out[0], n * sizeof(float),
                  cudaMemcpyDeviceToHost));
    for (int r = 0; r < b.rows; ++r)
        for (int c = 0; c < b.cols; ++c)
            bad += back[(size_t)c * b.rows + r] != h[(size_t)r * b.cols + c];
    return bad;
}

int main(int argc, char **argv)
{
    bufs b;
    b.rows = argc > 2 ? std::atoi(argv[1]) : 8192;
    b.cols = argc > 2 ? std::atoi(argv[2]) : 8192;
    size_t n = (size_t)b.rows * b.cols, bytes = n * sizeof(float);
    int l2 = 0;
    OK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    int sets = (int)std::min<size_t>(3 * (size_t)l2 / (2 * bytes) + 1, 256);
    std::vector<float> h(n);
    for (size_t i = 0; i < n; ++i)
        h[i] = (float)(i % 999983) * 0.5f;
    for (int i = 0; i < sets; ++i) {
        float *in, *out;
        OK(cudaMalloc(&in, bytes));
        OK(cudaMalloc(&out, bytes));
        OK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
        b.in.push_back(in);
        b.out.push_back(out);
    }
    OK(cudaStreamCreate(&b.s));
    cublasCreate(&b.h);
    cublasSetStream(b.h, b.s);
#ifdef AT_XC_CUTENSOR
    plan_cutensor(b);
#endif
    size_t bad[K] = {0};
    for (int k = 1; k < K; ++k)
        bad[k] = wrong(b, k, h);
    double med[K], gbps[K];
    xc_medians([&](int k, int i) { run(b, k, i); }, b.s, K, sets, med);
    for (int k = 0; k < K; ++k)
        gbps[k] = 2.0 * bytes / med[k] / 1e6;
    std::printf("crosscheck f32 %dx%d (%d set%s): memcpy %.1f GB/s", b.rows,
                b.cols, sets, sets > 1 ? "s" : "", gbps[0]);
    static const char *name[] = {"memcpy", "tuned", "cublas", "cutensor"};
    size_t any = 0;
    for (int k = 1; k < K; ++k) {
        std::printf(" | %s %.4f ms %.1f GB/s %.1f%% of copy (%zu wrong)",
                    name[k], med[k], gbps[k], 100 * gbps[k] / gbps[0],
                    bad[k]);
        any += bad[k];
    }
    std::printf("%s\n", K == 3 ? " | no cuTENSOR built in" : "");
    return any != 0;
}
