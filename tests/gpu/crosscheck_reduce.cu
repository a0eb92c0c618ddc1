// Measuring a reduction as a user would: a plain nvcc-built program that
// links an emitted reduce .cu (op AT_OP of AT_T elements into AT_OUT:
// float, or long long for int) and CUB (templates/reduce_cub.cu, compiled
// with the same AT_T and AT_OP), checks both,
// and times them back to back against cudaMemcpyAsync of the input's
// bytes with the protocol of crosscheck.cu: samples of at least 2 ms of
// back-to-back launches between CUDA events, buffer sets rotated so a
// round moves three L2 caches, the median of 21 samples, the contenders
// interleaved sample by sample. GB/s count bytes read plus bytes written;
// the copy's, twice the input's bytes. `autotune bench reduce` must agree
// within ~1%. crosscheck.sh builds and runs it:
//
//   autotune reduce --arch auto --type f32 --op sum --rows R --cols C
//       --axis cols -o r.cu
//   nvcc -c -arch=native r.cu; nvcc -c -arch=native -DAT_T=float
//       -DAT_ACC=float -DAT_OP=0 templates/reduce_cub.cu
//   nvcc -arch=native -DAT_T=float -DAT_XC_FN=autotune_reduce_f32
//       tests/gpu/crosscheck_reduce.cu r.o reduce_cub.o -o xr
//   ./xr cols R C          (all 1 N: the whole array; rows: down columns)
// AT_OP (0 sum, 1 min, 2 max, 3 sumsq, 4 amax) and AT_OUT default to sum
// and float; AT_INT 1 for int input (any bits, INT_MIN and INT_MAX among
// them; sums wrap modulo 2^64 as the kernel's do). Floats' sums of
// squares take a sparse input, so they stay exact too.
#include <cstdint>
#include <cstring>
#include <limits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "crosscheck_protocol.h"

#ifndef AT_OP
#define AT_OP 0
#endif
#ifndef AT_OUT
#define AT_OUT float
#endif
#ifndef AT_INT
#define AT_INT 0
#endif
#if AT_INT // the emitted launcher's own type for i32's results
#undef AT_OUT
#define AT_OUT long long
#endif
#ifndef AT_XC_LABEL
#define AT_XC_LABEL (sizeof(AT_T) == 4 ? "f32" : "16-bit")
#endif

// The exact result, as the kernel's type would hold it: floats here are
// small integers (every order of summing them is exact), ints take any
// bits and sum modulo 2^64.
#if AT_INT
typedef long long ref_t;
#else
typedef double ref_t;
#endif

static ref_t ref_map(ref_t v)
{
#if AT_OP == 3
    return v * v; // |v| <= 2^31: 2^62 at most
#elif AT_OP == 4
    return v < 0 ? -v : v;
#else
    return v;
#endif
}

// What an output starts from: the op's identity.
static ref_t ref_identity()
{
#if AT_OP == 1
    return std::numeric_limits<ref_t>::max();
#elif AT_OP == 2 || AT_OP == 4
    return std::numeric_limits<ref_t>::lowest();
#else
    return 0;
#endif
}

// One more element into r: the op's combine (sums of ints wrap).
static ref_t ref_comb(ref_t r, ref_t m)
{
#if AT_OP == 1
    return m < r ? m : r;
#elif AT_OP == 2 || AT_OP == 4
    return m > r ? m : r;
#elif AT_INT
    return (ref_t)((unsigned long long)r + (unsigned long long)m);
#else
    return r + m;
#endif
}

extern "C" cudaError_t AT_XC_FN(const AT_T *in, AT_OUT *out, long long rows,
                                long long cols, long long ld, void *ws,
                                cudaStream_t stream);
extern "C" size_t AT_XC_WS(long long rows, long long cols);
// 1 where the file's launches run its tuned cubin (gen/emit_tuned.c).
extern "C" int AT_XC_TUNED(void);
extern "C" int at_cub_reduce(const void *in, void *out, long long rows,
                             long long cols, long long ld, void *temp,
                             size_t *temp_bytes, cudaStream_t s);

enum { K = 3 }; // memcpy, tuned, CUB
static const char *const name[K] = {"memcpy", "tuned", "cub"};

struct bufs {
    std::vector<AT_T *> in;
    std::vector<AT_OUT *> out;
    long long rows, cols, ld, outs;
    bool down; // one result per column (CUB has none)
    void *ws, *cub_tmp;
    size_t cub_bytes;
    cudaStream_t s;
};

// Runs contender k once on set i.
static void run(bufs &b, int k, int i)
{
    size_t n = (size_t)b.rows * b.cols;
    if (k == 0)
        OK(cudaMemcpyAsync(b.out[i], b.in[i], n * sizeof(AT_T),
                           cudaMemcpyDeviceToDevice, b.s));
    else if (k == 1)
        OK(AT_XC_FN(b.in[i], b.out[i], b.rows, b.cols, b.ld, b.ws, b.s));
    else
        OK((cudaError_t)at_cub_reduce(b.in[i], b.out[i], b.rows, b.cols,
                                      b.ld, b.cub_tmp, &b.cub_bytes, b.s));
}

// Results of contender k (1 tuned, 2 CUB) on set 0 that differ from ref
// (small integers: every order sums them exactly).
static size_t wrong(bufs &b, int k, const std::vector<ref_t> &ref)
{
    std::vector<AT_OUT> back(b.outs);
    OK(cudaMemset(b.out[0], 0xff, b.outs * sizeof(AT_OUT)));
    run(b, k, 0);
    OK(cudaStreamSynchronize(b.s));
    OK(cudaMemcpy(back.data(), b.out[0], b.outs * sizeof(AT_OUT),
                  cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (long long o = 0; o < b.outs; ++o)
        bad += back[o] != (AT_OUT)ref[o];
    return bad;
}

int main(int argc, char **argv)
{
    if ((argc != 4 && argc != 5) || (std::strcmp(argv[1], "all") &&
                                     std::strcmp(argv[1], "cols") &&
                                     std::strcmp(argv[1], "rows"))) {
        std::fprintf(stderr, "usage: %s all|cols|rows ROWS COLS [LD]\n",
                     argv[0]);
        return 2;
    }
    bufs b;
    b.down = !std::strcmp(argv[1], "rows");
    b.rows = std::atoll(argv[2]);
    b.cols = std::atoll(argv[3]);
    b.ld = argc == 5 ? std::atoll(argv[4]) : b.cols;
    if (b.ld < b.cols) {
        std::fprintf(stderr, "ld %lld under cols %lld\n", b.ld, b.cols);
        return 2;
    }
    b.outs = b.down ? b.cols : b.rows;
    // The elements (what the copy moves) and the input rows ld apart,
    // their padding a value no output may hold.
    size_t n = (size_t)b.rows * b.cols, bytes = n * sizeof(AT_T);
    size_t in_bytes = (size_t)b.rows * b.ld * sizeof(AT_T);
    // Floats: -3..3 repeating, so every partial sum is a small integer.
    // Ints: any bits (a 64-bit LCG), INT_MIN and INT_MAX here and there.
    std::vector<AT_T> h((size_t)b.rows * b.ld);
    std::vector<ref_t> ref(b.outs, ref_identity());
    uint64_t lcg = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < h.size(); ++i) {
#if AT_INT
        const int pad = INT32_MIN;
        std::memcpy(&h[i], &pad, sizeof pad);
#else
        h[i] = (AT_T)(-1000.0f);
#endif
    }
    for (size_t i = 0; i < n; ++i) {
        AT_T &x = h[i / b.cols * b.ld + i % b.cols];
        lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
#if AT_INT
        // The extremes about once in a million elements each: some
        // outputs meet them, most keep random bits alone.
        const uint64_t place = (lcg >> 33) % 1000003;
        int v = place == 0   ? INT32_MIN
              : place == 1   ? INT32_MAX
                             : (int)(uint32_t)(lcg >> 32);
        std::memcpy(&x, &v, sizeof v);
#elif AT_OP == 3
        // Squares add up: one element in about 128 nonzero (4 a square
        // on average) keeps an output's sum of squares under 2^24, exact
        // in a float, up to about 500 million elements an output; the
        // places hashed, so every output gets some.
        int v = lcg % 128 == 0 ? (int)(i % 7) - 3 : 0;
        x = (AT_T)(float)v;
#else
        int v = (int)(i % 7) - 3;
        x = (AT_T)(float)v;
#endif
        ref_t &r = ref[b.down ? i % b.cols : i / b.cols];
        r = ref_comb(r, ref_map((ref_t)v));
    }
    int l2 = 0;
    OK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    int sets = (int)std::min<size_t>(3 * (size_t)l2 / in_bytes + 1, 256);
    for (int i = 0; i < sets; ++i) {
        AT_T *in;
        AT_OUT *out;
        OK(cudaMalloc(&in, in_bytes));
        // memcpy's destination too: the input's bytes
        OK(cudaMalloc(&out, std::max<size_t>(bytes, b.outs * sizeof(AT_OUT))));
        OK(cudaMemcpy(in, h.data(), in_bytes, cudaMemcpyHostToDevice));
        b.in.push_back(in);
        b.out.push_back(out);
    }
    OK(cudaStreamCreate(&b.s));
    size_t ws = AT_XC_WS(b.rows, b.cols);
    b.ws = nullptr;
    if (ws) {
        OK(cudaMalloc(&b.ws, ws));
        OK(cudaMemset(b.ws, 0, ws)); // once: each launch leaves it zero
    }
    b.cub_tmp = nullptr;
    b.cub_bytes = 0;
    int k_end = b.down ? 2 : K;
    if (!b.down) {
        OK((cudaError_t)at_cub_reduce(b.in[0], b.out[0], b.rows, b.cols,
                                      b.cols, nullptr, &b.cub_bytes, b.s));
        OK(cudaMalloc(&b.cub_tmp, std::max<size_t>(b.cub_bytes, 1)));
    }
    size_t bad[K] = {0};
    for (int k = 1; k < k_end; ++k)
        bad[k] = wrong(b, k, ref);
    double med[K], gbps[K];
    xc_medians([&](int k, int i) { run(b, k, i); }, b.s, k_end, sets, med);
    size_t moved = bytes + b.outs * sizeof(AT_OUT);
    std::printf("crosscheck %s %s %lldx%lld ld %lld (%d set%s): memcpy",
                argv[1], AT_XC_LABEL, b.rows, b.cols, b.ld, sets,
                sets > 1 ? "s" : "");
    size_t any = 0;
    for (int k = 0; k < k_end; ++k) {
        gbps[k] = (k ? moved : 2.0 * bytes) / med[k] / 1e6;
        if (k == 0) {
            std::printf(" %.1f GB/s", gbps[0]);
            continue;
        }
        std::printf(" | %s %.4f ms %.1f GB/s %.1f%% of copy (%zu wrong)",
                    name[k], med[k], gbps[k], 100 * gbps[k] / gbps[0],
                    bad[k]);
        any += bad[k];
    }
    std::printf("%s | tuned: %s\n",
                b.down ? " | no CUB reduction down columns" : "",
                AT_XC_TUNED() ? "the file's cubin" : "nvcc's build");
    return any != 0;
}
