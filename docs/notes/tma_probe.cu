// Probe for issue 3: do bulk-copy (TMA) loads pay for a transpose on
// Hopper? A measurement, not part of autotune: the tuned kernels reach
// 97.8-98.3% of cudaMemcpy D2D at 256 MiB (docs/PERFORMANCE.md), so TMA
// points belong in the template only if this beats that.
//
// The kernel: each tile of 32 input columns x R input rows is fetched by
// cp.async.bulk.tensor into shared memory with the 128-byte swizzle (a
// 16-byte chunk j of row r lands at chunk j ^ (r % 8)), completing on an
// mbarrier; S such buffers form a ring over a persistent grid, so the
// next tiles are in flight while one is stored. Warps store output rows
// (input columns) 128 bytes a warp at a time, reading shared memory down
// the swizzled columns. Checked bit for bit against the CPU, timed with
// events (median of 11 samples of 20 launches) next to cudaMemcpy D2D of
// the same bytes.
//
//   nvcc -arch=sm_90 -O3 -o tma_probe docs/notes/tma_probe.cu
//   ./tma_probe [rows cols]      (default 8192 8192, f32)
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                \
    do {                                                                     \
        cudaError_t e_ = (x);                                                \
        if (e_ != cudaSuccess) {                                             \
            std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x,            \
                        cudaGetErrorString(e_));                             \
            std::exit(1);                                                    \
        }                                                                    \
    } while (0)

__device__ __forceinline__ unsigned smem_u32(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void bar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)),
                 "r"(count));
}

__device__ __forceinline__ void bar_expect(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     smem_u32(bar)),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void bar_wait(uint64_t *bar, unsigned phase)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n"
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"(smem_u32(bar)), "r"(phase)
                     : "memory");
}

__device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *map,
                                         int x, int y, uint64_t *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                     smem_u32(dst)),
                 "l"(map), "r"(x), "r"(y), "r"(smem_u32(bar))
                 : "memory");
}

// R input rows a tile, S buffers, 256 threads (8 warps).
template <int R, int S>
__global__ void __launch_bounds__(256)
tma_transpose(const __grid_constant__ CUtensorMap map, float *out, int rows,
              int cols, long long ld_out)
{
    extern __shared__ unsigned char raw[];
    unsigned char *smem =
        (unsigned char *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
    constexpr unsigned TILE = 32 * R * 4;
    uint64_t *bar = (uint64_t *)(smem + S * TILE);
    const int tiles_x = cols / 32, ntiles = tiles_x * (rows / R);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; ++s)
            bar_init(&bar[s], 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int s = 0; s < S; ++s) {
            int t = blockIdx.x + s * gridDim.x;
            if (t < ntiles) {
                bar_expect(&bar[s], TILE);
                tma_load(smem + s * TILE, &map, t % tiles_x * 32,
                         t / tiles_x * R, &bar[s]);
            }
        }
    for (int i = 0;; ++i) {
        const int t = blockIdx.x + i * gridDim.x;
        if (t >= ntiles)
            break;
        const int s = i % S;
        bar_wait(&bar[s], (i / S) & 1);
        const unsigned char *a = smem + s * TILE;
        const int x0 = t % tiles_x * 32, y0 = t / tiles_x * R;
#pragma unroll
        for (int c = warp; c < 32; c += 8) {
            float *row = out + (long long)(x0 + c) * ld_out + y0;
#pragma unroll
            for (int k = 0; k < R / 32; ++k) {
                const int r = lane + 32 * k;
                row[r] = *(const float *)(a + r * 128 +
                                          (((c >> 2) ^ (r & 7)) << 4) +
                                          (c & 3) * 4);
            }
        }
        __syncthreads(); // buffer s read by all: refill it
        const int next = blockIdx.x + (i + S) * gridDim.x;
        if (threadIdx.x == 0 && next < ntiles) {
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            bar_expect(&bar[s], TILE);
            tma_load(smem + s * TILE, &map, next % tiles_x * 32,
                     next / tiles_x * R, &bar[s]);
        }
    }
}

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t,
                              void *, const cuuint64_t *, const cuuint64_t *,
                              const cuuint32_t *, const cuuint32_t *,
                              CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion,
                              CUtensorMapFloatOOBfill);

static float median_ms(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <class F> static float time_ms(F launch)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    launch();
    CK(cudaDeviceSynchronize());
    std::vector<float> v;
    for (int k = 0; k < 11; ++k) {
        CK(cudaEventRecord(a));
        for (int j = 0; j < 20; ++j)
            launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        v.push_back(ms / 20);
    }
    CK(cudaGetLastError());
    return median_ms(v);
}

template <int R, int S>
static void run(const CUtensorMap &map, float *d_out, int rows, int cols,
                const std::vector<float> &ref, double bytes, float copy_ms,
                int sms)
{
    auto k = tma_transpose<R, S>;
    const int smem = S * 32 * R * 4 + S * 8 + 1024;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                            smem));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 256, smem));
    const int ntiles = (cols / 32) * (rows / R);
    const int grid = std::min(ntiles, per_sm * sms);
    CK(cudaMemset(d_out, 0xEE, (size_t)(bytes / 2)));
    k<<<grid, 256, smem>>>(map, d_out, rows, cols, rows);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> got(ref.size());
    CK(cudaMemcpy(got.data(), d_out, (size_t)(bytes / 2),
                  cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < ref.size(); ++i)
        bad += std::memcmp(&got[i], &ref[i], 4) != 0;
    float ms = time_ms([&] { k<<<grid, 256, smem>>>(map, d_out, rows, cols, rows); });
    std::printf("tma R=%3d S=%d grid %5d (%d/SM): %s, %.4f ms, %.0f GB/s, "
                "%.1f%% of copy\n",
                R, S, grid, per_sm, bad ? "WRONG" : "verified", ms,
                bytes / ms / 1e6, 100.0 * copy_ms / ms);
}

int main(int argc, char **argv)
{
    const int rows = argc > 2 ? std::atoi(argv[1]) : 8192;
    const int cols = argc > 2 ? std::atoi(argv[2]) : 8192;
    if (rows % 128 || cols % 32) {
        std::printf("rows must be a multiple of 128, cols of 32\n");
        return 2;
    }
    const size_t n = (size_t)rows * cols;
    const double bytes = 2.0 * n * 4;
    std::vector<float> in(n), ref(n);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        std::memcpy(&in[i], &x, 4);
    }
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            ref[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    float *d_in, *d_out;
    CK(cudaMalloc(&d_in, n * 4));
    CK(cudaMalloc(&d_out, n * 4));
    CK(cudaMemcpy(d_in, in.data(), n * 4, cudaMemcpyHostToDevice));
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    float copy_ms = time_ms([&] {
        CK(cudaMemcpyAsync(d_out, d_in, n * 4, cudaMemcpyDeviceToDevice));
    });
    std::printf("%s, f32 %d x %d: cudaMemcpy D2D %.4f ms, %.0f GB/s\n",
                prop.name, rows, cols, copy_ms, bytes / copy_ms / 1e6);
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                        cudaEnableDefault, &q));
    if (!fn || q != cudaDriverEntryPointSuccess) {
        std::printf("no cuTensorMapEncodeTiled\n");
        return 1;
    }
    for (int R : {64, 128}) {
        CUtensorMap map;
        cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
        cuuint64_t stride[1] = {(cuuint64_t)cols * 4};
        cuuint32_t box[2] = {32, (cuuint32_t)R}, es[2] = {1, 1};
        CUresult r = ((encode_fn)fn)(
            &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d_in, dim, stride, box,
            es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
            CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (r != CUDA_SUCCESS) {
            std::printf("cuTensorMapEncodeTiled: %d\n", (int)r);
            return 1;
        }
        if (R == 64) {
            run<64, 2>(map, d_out, rows, cols, ref, bytes, copy_ms, sms);
            run<64, 3>(map, d_out, rows, cols, ref, bytes, copy_ms, sms);
            run<64, 4>(map, d_out, rows, cols, ref, bytes, copy_ms, sms);
        } else {
            run<128, 2>(map, d_out, rows, cols, ref, bytes, copy_ms, sms);
            run<128, 3>(map, d_out, rows, cols, ref, bytes, copy_ms, sms);
            run<128, 4>(map, d_out, rows, cols, ref, bytes, copy_ms, sms);
        }
    }
    return 0;
}
