// Measuring as a user would: a plain nvcc-built program that links an
// emitted transpose .cu (any element type, any leading dimensions),
// cuBLAS where it has the type (geam: f32, f64, c64, c128) and, built
// with -DAT_XC_CUTENSOR and its header and library, cuTENSOR where it has
// it (f16, bf16, f32, f64, c64, c128); checks each bit for bit on finite
// input, and times them back to back against cudaMemcpyAsync of the same
// bytes: samples of at least 2 ms of back-to-back launches between CUDA
// events, buffer sets rotated so a round moves three L2 caches, the
// median of 21 samples, the contenders interleaved sample by sample.
// `autotune bench` must agree within ~1%.
//
//   autotune transpose --arch auto --type T --rows R --cols C
//       [--ld-in A --ld-out B] -o t.cu
//   nvcc -O2 -arch=sm_90 -DAT_XC_TYPE=T tests/gpu/crosscheck.cu t.cu
//       -lcublas -o xc
//     [-DAT_XC_CUTENSOR -I CUTENSOR/include -Xlinker CUTENSOR/libcutensor.so.2]
//   ./xc R C [A B]
#include <cublas_v2.h>
#include <cstdint>
#include <cstring>
#include <string>

#include "crosscheck_protocol.h"
#ifdef AT_XC_CUTENSOR
#include <cutensor.h>
#endif

#ifndef AT_XC_TYPE
#define AT_XC_TYPE f32
#endif
#define XC_CAT2(a, b) a##b
#define XC_CAT(a, b) XC_CAT2(a, b)
#define XC_STR2(a) #a
#define XC_STR(a) XC_STR2(a)

// The emitted launcher (its pointers typed there; the symbol is the same).
extern "C" cudaError_t XC_CAT(XC_CAT(autotune_transpose_, AT_XC_TYPE),
                              _batched)(const void *in, void *out, int rows,
                                        int cols, long long ld_in,
                                        long long ld_out, int batch,
                                        long long stride_in,
                                        long long stride_out,
                                        cudaStream_t stream);
// 1 where the file's launches run its tuned cubin (gen/emit_tuned.c).
extern "C" int XC_CAT(XC_CAT(autotune_transpose_, AT_XC_TYPE),
                      _runs_tuned_cubin)(void);

// What the program needs of the element type: its bytes, the bytes of a
// floating lane (inputs are finite there: a library may rewrite a NaN),
// cuBLAS's geam (0 none, 1 S, 2 D, 3 C, 4 Z) and cuTENSOR's data type
// (-1 none) and compute width (64: 64F, else 32F).
struct elem {
    const char *name;
    int bytes, lane, geam, ct_type, ct_64;
};
static const elem elems[] = {
    {"i8", 1, 0, 0, -1, 0},   {"u8", 1, 0, 0, -1, 0},
    {"f16", 2, 2, 0, 2, 0},   {"bf16", 2, 2, 0, 14, 0},
    {"f32", 4, 4, 1, 0, 0},   {"f64", 8, 8, 2, 1, 1},
    {"c64", 8, 4, 3, 4, 0},   {"c128", 16, 8, 4, 5, 1},
    {"f32x4", 16, 4, 0, -1, 0},
};

struct bufs {
    std::vector<char *> in, out;
    int rows, cols;
    long long ld_in, ld_out;
    size_t in_bytes, out_bytes, moved; // moved: rows x cols elements
    elem t;
    cublasHandle_t h;
    cudaStream_t s;
#ifdef AT_XC_CUTENSOR
    cutensorHandle_t ct;
    cutensorPlan_t plan;
#endif
};

// Contenders: memcpy, the tuned kernel, cuBLAS, and cuTENSOR if built in.
enum { K = 4 };
static const char *const names[K] = {"memcpy", "tuned", "cublas",
                                     "cutensor"};

#ifdef AT_XC_CUTENSOR
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
    const int64_t ext_a[] = {b.cols, b.rows}, str_a[] = {1, b.ld_in};
    const int64_t ext_b[] = {b.rows, b.cols}, str_b[] = {1, b.ld_out};
    const int32_t mode_a[] = {'c', 'r'}, mode_b[] = {'r', 'c'};
    const cutensorDataType_t dt = (cutensorDataType_t)b.t.ct_type;
    cutensorTensorDescriptor_t da, db;
    cutensorOperationDescriptor_t op;
    cutensorPlanPreference_t pref;
    CT(cutensorCreate(&b.ct));
    CT(cutensorCreateTensorDescriptor(b.ct, &da, 2, ext_a, str_a, dt, 256));
    CT(cutensorCreateTensorDescriptor(b.ct, &db, 2, ext_b, str_b, dt, 256));
    CT(cutensorCreatePermutation(
        b.ct, &op, da, mode_a, CUTENSOR_OP_IDENTITY, db, mode_b,
        b.t.ct_64 ? CUTENSOR_COMPUTE_DESC_64F : CUTENSOR_COMPUTE_DESC_32F));
    CT(cutensorCreatePlanPreference(b.ct, &pref, CUTENSOR_ALGO_DEFAULT,
                                    CUTENSOR_JIT_MODE_NONE));
    CT(cutensorCreatePlan(b.ct, &b.plan, op, pref, 0));
    CT(cutensorDestroyPlanPreference(pref));
    CT(cutensorDestroyOperationDescriptor(op));
    CT(cutensorDestroyTensorDescriptor(db));
    CT(cutensorDestroyTensorDescriptor(da));
}
#endif

// Whether contender k runs on this type.
static bool has(const bufs &b, int k)
{
#ifdef AT_XC_CUTENSOR
    const bool ct = true;
#else
    const bool ct = false;
#endif
    return k < 2 || (k == 2 && b.t.geam) || (k == 3 && ct && b.t.ct_type >= 0);
}

// geam transposes: out (rows x cols, ld_out) = in^T (in: cols x rows,
// ld_in, column-major), beta 0 so out is not read.
static cublasStatus_t geam(bufs &b, const void *in, void *out)
{
    const int m = b.rows, n = b.cols;
    const int lda = (int)b.ld_in, ldc = (int)b.ld_out;
    const cublasOperation_t T = CUBLAS_OP_T, N = CUBLAS_OP_N;
    switch (b.t.geam) {
    case 1: {
        const float one = 1, zero = 0;
        return cublasSgeam(b.h, T, N, m, n, &one, (const float *)in, lda,
                           &zero, (float *)out, ldc, (float *)out, ldc);
    }
    case 2: {
        const double one = 1, zero = 0;
        return cublasDgeam(b.h, T, N, m, n, &one, (const double *)in, lda,
                           &zero, (double *)out, ldc, (double *)out, ldc);
    }
    case 3: {
        const cuComplex one = {1, 0}, zero = {0, 0};
        return cublasCgeam(b.h, T, N, m, n, &one, (const cuComplex *)in, lda,
                           &zero, (cuComplex *)out, ldc, (cuComplex *)out,
                           ldc);
    }
    default: {
        const cuDoubleComplex one = {1, 0}, zero = {0, 0};
        return cublasZgeam(b.h, T, N, m, n, &one,
                           (const cuDoubleComplex *)in, lda, &zero,
                           (cuDoubleComplex *)out, ldc,
                           (cuDoubleComplex *)out, ldc);
    }
    }
}

// Runs contender k once on set i.
static void run(bufs &b, int k, int i)
{
    char *in = b.in[i], *out = b.out[i];
    if (k == 0) {
        OK(cudaMemcpyAsync(out, in, b.moved, cudaMemcpyDeviceToDevice, b.s));
    } else if (k == 1) {
        OK(XC_CAT(XC_CAT(autotune_transpose_, AT_XC_TYPE), _batched)(
            in, out, b.rows, b.cols, b.ld_in, b.ld_out, 1,
            (long long)b.rows * b.ld_in, (long long)b.cols * b.ld_out,
            b.s));
    } else if (k == 3) {
#ifdef AT_XC_CUTENSOR
        /* alpha in the compute type, complex for complex data (its
         * imaginary part read too). */
        const double one64[2] = {1, 0};
        const float one32[2] = {1, 0};
        CT(cutensorPermute(b.ct, b.plan,
                           b.t.ct_64 ? (const void *)one64
                                     : (const void *)one32,
                           in, out, b.s));
#endif
    } else if (geam(b, in, out) != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "cublas geam failed\n");
        std::exit(1);
    }
}

// Elements contender k transposes wrong on set 0 (padding not looked at).
static size_t wrong(bufs &b, int k, const std::vector<char> &h)
{
    const size_t e = (size_t)b.t.bytes;
    size_t bad = 0;
    std::vector<char> back(b.out_bytes);
    OK(cudaMemset(b.out[0], 0xff, b.out_bytes));
    run(b, k, 0);
    OK(cudaStreamSynchronize(b.s));
    OK(cudaMemcpy(back.data(), b.out[0], b.out_bytes,
                  cudaMemcpyDeviceToHost));
    for (long long r = 0; r < b.rows; ++r)
        for (long long c = 0; c < b.cols; ++c)
            bad += std::memcmp(&back[(size_t)(c * b.ld_out + r) * e],
                               &h[(size_t)(r * b.ld_in + c) * e], e) != 0;
    return bad;
}

int main(int argc, char **argv)
{
    bufs b;
    const std::string type = XC_STR(AT_XC_TYPE);
    b.t = elems[0];
    bool known = false;
    for (const elem &t : elems)
        if (type == t.name)
            b.t = t, known = true;
    if (!known) {
        std::fprintf(stderr, "unknown element type %s\n", type.c_str());
        return 2;
    }
    b.rows = argc > 2 ? std::atoi(argv[1]) : 8192;
    b.cols = argc > 2 ? std::atoi(argv[2]) : 8192;
    b.ld_in = argc > 4 ? std::atoll(argv[3]) : b.cols;
    b.ld_out = argc > 4 ? std::atoll(argv[4]) : b.rows;
    const size_t e = (size_t)b.t.bytes;
    b.in_bytes = (size_t)((b.rows - 1) * b.ld_in + b.cols) * e;
    b.out_bytes = (size_t)((b.cols - 1) * b.ld_out + b.rows) * e;
    b.moved = (size_t)b.rows * b.cols * e;
    int l2 = 0;
    OK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    const size_t most = std::max(b.in_bytes, b.out_bytes);
    int sets = (int)std::min<size_t>(3 * (size_t)l2 / (2 * most) + 1, 256);
    // Random bytes; each floating lane's top byte 0x3c-0x3f: positive,
    // normal, finite.
    std::vector<char> h(b.in_bytes);
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < h.size(); ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        h[i] = (char)x;
        if (b.t.lane && i % b.t.lane == (size_t)b.t.lane - 1)
            h[i] = (char)(0x3c | (x & 3));
    }
    for (int i = 0; i < sets; ++i) {
        char *in, *out;
        OK(cudaMalloc(&in, b.in_bytes));
        OK(cudaMalloc(&out, b.out_bytes));
        OK(cudaMemcpy(in, h.data(), b.in_bytes, cudaMemcpyHostToDevice));
        b.in.push_back(in);
        b.out.push_back(out);
    }
    OK(cudaStreamCreate(&b.s));
    cublasCreate(&b.h);
    cublasSetStream(b.h, b.s);
#ifdef AT_XC_CUTENSOR
    if (has(b, 3))
        plan_cutensor(b);
#endif
    // The contenders this type has, in order.
    std::vector<int> ks;
    for (int k = 0; k < K; ++k)
        if (has(b, k))
            ks.push_back(k);
    size_t bad[K] = {0}, any = 0;
    for (int k : ks)
        if (k > 0)
            any += bad[k] = wrong(b, k, h);
    std::vector<double> med(ks.size());
    xc_medians([&](int j, int i) { run(b, ks[j], i); }, b.s, (int)ks.size(),
               sets, med.data());
    const double gb0 = 2.0 * b.moved / med[0] / 1e6;
    std::printf("crosscheck %s %dx%d ld %lld/%lld (%d set%s): memcpy %.1f "
                "GB/s", b.t.name, b.rows, b.cols, b.ld_in, b.ld_out, sets,
                sets > 1 ? "s" : "", gb0);
    for (size_t j = 1; j < ks.size(); ++j) {
        const double gb = 2.0 * b.moved / med[j] / 1e6;
        std::printf(" | %s %.4f ms %.1f GB/s %.1f%% of copy (%zu wrong)",
                    names[ks[j]], med[j], gb, 100 * gb / gb0, bad[ks[j]]);
    }
    std::printf("%s | tuned: %s\n",
                has(b, 3) || b.t.ct_type < 0 ? "" : " | no cuTENSOR built in",
                XC_CAT(XC_CAT(autotune_transpose_, AT_XC_TYPE),
                       _runs_tuned_cubin)() ? "the file's cubin"
                                            : "nvcc's build");
    return any != 0;
}
