// What any reduction of N bytes can reach against the device-to-device
// copy of N bytes (issue 36, item 2): a kernel that only streams the
// input (16-byte loads, a grid of B blocks an SM walking it, the words
// folded by xor into one word a block) timed back to back against
// cudaMemcpyAsync of the same N bytes, by the crosscheck protocol
// (tests/gpu/crosscheck_protocol.h). Share = (N / t_read) / (2N /
// t_copy): the figure `autotune bench reduce` reports. Buffer sets
// rotated so that at least 256 MiB pass between two reads of one.
//   nvcc -O3 -arch=native -I tests/gpu read_ceiling.cu -o rc && ./rc [MIB]
// (MIB: that size alone, as for a profiler.)
#include "crosscheck_protocol.h"

template <int U>
__global__ void __launch_bounds__(256) read_all(const uint4 *in, size_t n,
                                                unsigned *out)
{
    unsigned acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (U - 1) * stride < n; i += U * stride) {
        uint4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            v[u] = __ldg(in + i + u * stride);
#pragma unroll
        for (int u = 0; u < U; ++u)
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
    const size_t only = argc > 1 ? (size_t)atoll(argv[1]) : 0;
    int sms = 0;
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    unsigned *out;
    OK(cudaMalloc(&out, 1024 * sizeof(unsigned)));
    const int bps[] = {2, 4, 8};
    const int cfgs = 6; // bps x unroll {4, 8}
    std::printf("MiB sets copy_GBps best_read_GBps share best(blocks_an_SM,unroll) "
                "all_shares\n");
    for (size_t mib : {64, 96, 128, 192, 256, 384, 512, 1024}) {
        if (only && mib != only)
            continue;
        size_t bytes = mib << 20, n = bytes / 16;
        int sets = (int)std::max<size_t>(1, (256 + mib - 1) / mib);
        std::vector<char *> src(sets), dst(sets);
        for (int i = 0; i < sets; ++i) {
            OK(cudaMalloc(&src[i], bytes));
            OK(cudaMalloc(&dst[i], bytes));
            OK(cudaMemset(src[i], i + 1, bytes));
        }
        auto run = [&](int k, int i) {
            if (k == 0) {
                OK(cudaMemcpyAsync(dst[i], src[i], bytes,
                                   cudaMemcpyDeviceToDevice, s));
                return;
            }
            int c = k - 1, grid = bps[c % 3] * sms;
            if (c < 3)
                read_all<4><<<grid, 256, 0, s>>>((const uint4 *)src[i], n, out);
            else
                read_all<8><<<grid, 256, 0, s>>>((const uint4 *)src[i], n, out);
        };
        double med[1 + cfgs];
        xc_medians(run, s, 1 + cfgs, sets, med);
        OK(cudaGetLastError());
        double copy = 2.0 * bytes / med[0] / 1e6;
        int best = 1;
        for (int k = 2; k <= cfgs; ++k)
            if (med[k] < med[best])
                best = k;
        double rd = bytes / med[best] / 1e6;
        std::printf("%zu %d %.1f %.1f %.1f%% (%d,%d) ", mib, sets, copy, rd,
                    100 * rd / copy, bps[(best - 1) % 3], best <= 3 ? 4 : 8);
        for (int k = 1; k <= cfgs; ++k)
            std::printf("%s%.1f", k > 1 ? "/" : "",
                        100 * (bytes / med[k] / 1e6) / copy);
        std::printf("\n");
        for (int i = 0; i < sets; ++i) {
            OK(cudaFree(src[i]));
            OK(cudaFree(dst[i]));
        }
    }
    return 0;
}
