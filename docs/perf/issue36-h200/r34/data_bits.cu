// Does what the bytes hold move the copy's rate or a read's, and so a
// reduction's share of the copy? (issue 36: f32 max down 520288x169 read
// 1.6-2.0 points less of the copy in the crosscheck program, whose
// floats are (i % 7) - 3, than in `autotune bench`, whose are k 2^e with
// k of 8 random bits, r25, r26; r26's read ceiling read memset bytes.)
// One buffer size, five fillings, each timed by the crosscheck protocol:
// cudaMemcpyAsync of N bytes and r26's streaming read of the same N
// (16-byte loads, 4 blocks of 256 an SM, unrolled 4), sets rotated past
// 256 MiB.
//   nvcc -O3 -arch=native -I tests/gpu data_bits.cu -o db && ./db [MIB]
#include "crosscheck_protocol.h"
#include <cstdint>
#include <cstring>
#include <cmath>

__global__ void __launch_bounds__(256) read_all(const uint4 *in, size_t n,
                                                unsigned *out)
{
    unsigned acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        uint4 v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u)
            v[u] = __ldg(in + i + u * stride);
#pragma unroll
        for (int u = 0; u < 4; ++u)
            acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    for (; i < n; i += stride) {
        uint4 v = __ldg(in + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    acc = __reduce_xor_sync(0xffffffffu, acc);
    if ((threadIdx.x & 31) == 0)
        atomicXor(out + blockIdx.x % 1024, acc);
}

int main(int argc, char **argv)
{
    const size_t mib = argc > 1 ? (size_t)atoll(argv[1]) : 336;
    const size_t bytes = mib << 20, n = bytes / 16, words = bytes / 4;
    int sms = 0;
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    unsigned *out;
    OK(cudaMalloc(&out, 1024 * sizeof(unsigned)));
    const int sets = (int)std::max<size_t>(1, (256 + mib - 1) / mib);
    std::vector<char *> src(sets), dst(sets);
    for (int i = 0; i < sets; ++i) {
        OK(cudaMalloc(&src[i], bytes));
        OK(cudaMalloc(&dst[i], bytes));
    }
    std::vector<uint32_t> h(words);
    const char *names[] = {"zeros", "f32 (i%7)-3 (crosscheck)",
                           "f32 k*2^e, k 8 random bits (bench)",
                           "random bits", "0x5a bytes (memset)"};
    std::printf("%zu MiB, %d sets\nfilling copy_GBps read_GBps read_share\n",
                mib, sets);
    for (int f = 0; f < 5; ++f) {
        uint64_t lcg = 0x9E3779B97F4A7C15ull + f;
        for (size_t i = 0; i < words; ++i) {
            lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
            const uint32_t r = (uint32_t)(lcg >> 32);
            float x = 0;
            switch (f) {
            case 0: h[i] = 0; continue;
            case 1: x = (float)((int)(i % 7) - 3); break;
            case 2: x = ldexpf((float)((int)(r >> 16 & 0xFF) - 128),
                               (int)((r >> 24) % 9) - 4); break;
            case 3: h[i] = r; continue;
            default: h[i] = 0x5a5a5a5au; continue;
            }
            std::memcpy(&h[i], &x, 4);
        }
        for (int i = 0; i < sets; ++i) {
            OK(cudaMemcpy(src[i], h.data(), bytes, cudaMemcpyHostToDevice));
            OK(cudaMemcpy(dst[i], h.data(), bytes, cudaMemcpyHostToDevice));
        }
        double med[2];
        xc_medians([&](int k, int i) {
            if (k == 0)
                OK(cudaMemcpyAsync(dst[i], src[i], bytes,
                                   cudaMemcpyDeviceToDevice, s));
            else
                read_all<<<4 * sms, 256, 0, s>>>((const uint4 *)src[i], n, out);
        }, s, 2, sets, med);
        OK(cudaGetLastError());
        const double copy = 2.0 * bytes / med[0] / 1e6, rd = bytes / med[1] / 1e6;
        std::printf("%-36s %.1f %.1f %.1f%%\n", names[f], copy, rd,
                    100 * rd / copy);
    }
    return 0;
}
