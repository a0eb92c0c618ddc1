// Probe (issue 36, item 1; not part of the project): a transpose of R
// short rows of 1-byte elements (R <= 64, long rows of C bytes ld_in
// apart) into C rows of R bytes end to end, through shared memory in two
// phases, so neither side's alignment costs per element:
//   1. each row's W bytes from column c0 are loaded as the aligned 16-byte
//      vectors that cover them (W/16 + 1 a row) and stored as they are;
//      row r's byte i then sits off_r + i into its shared row, off_r its
//      address's offset in 16 bytes;
//   2. a thread takes 4 columns: one word a row (two shared words and a
//      funnel shift by off_r), R words in all, byte-permuted at compile
//      time into the R output words those 4 columns make (4R bytes end
//      to end), staged in shared memory;
//   3. the block's W*R output bytes go out as aligned 16-byte vectors
//      (c0*R is a multiple of 16 since W is).
// v2 (gather2): the same in a loop over tiles, a block a processor slot,
// the next tile's vectors copied to shared memory (cp.async) while this
// one is transposed; and a stride of R|1 words a thread in the staged
// output, so even R's stores don't fall on one bank.
// Checked byte for byte against the CPU on random input, output poisoned
// first; timed by events (median of 21) against cudaMemcpy of the same
// bytes. Build: nvcc -O3 -arch=sm_90 -o gather_probe gather_probe.cu
// Run: gather_probe R C LD_IN (ld_out is R).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                             \
    do {                                                                  \
        cudaError_t e_ = (x);                                             \
        if (e_ != cudaSuccess) {                                          \
            fprintf(stderr, "%s: %s (%d), line %d\n", #x,                 \
                    cudaGetErrorString(e_), (int)e_, __LINE__);           \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

template <int R, int W>
__global__ void __launch_bounds__(W / 4)
    gather(const uint8_t *__restrict__ in, uint8_t *__restrict__ out,
           long long C, long long ld_in)
{
    constexpr int T = W / 4, P = W + 32, K = W / 16 + 1;
    extern __shared__ __align__(16) uint8_t s[]; // R rows of P, then so
    uint32_t *so = (uint32_t *)(s + R * P);
    const long long c0 = (long long)blockIdx.x * W;
    const int w = (int)min((long long)W, C - c0);
    for (int i = threadIdx.x; i < R * K; i += T) {
        const int r = i / K, k = i - r * K;
        const uint8_t *row = in + r * ld_in + c0;
        const uint8_t *chunk =
            (const uint8_t *)((uintptr_t)row & ~(uintptr_t)15) + 16 * k;
        if (chunk < row + w)
            *(uint4 *)&s[r * P + 16 * k] = __ldg((const uint4 *)chunk);
    }
    __syncthreads();
    const int t = threadIdx.x;
    const unsigned off0 = (unsigned)((uintptr_t)(in + c0) & 15),
                   ldm = (unsigned)(ld_in & 15);
    uint32_t x[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const int b = (int)((off0 + r * ldm) & 15) + 4 * t;
        const uint32_t *q = (const uint32_t *)&s[r * P + (b & ~3)];
        x[r] = __funnelshift_r(q[0], q[1], 8 * (b & 3));
    }
#pragma unroll
    for (int wd = 0; wd < R; ++wd) {
        uint32_t v = 0;
#pragma unroll
        for (int bb = 0; bb < 4; ++bb) {
            const int k = 4 * wd + bb, col = k / R, row = k % R;
            v |= ((x[row] >> (8 * col)) & 0xffu) << (8 * bb);
        }
        so[t * R + wd] = v;
    }
    __syncthreads();
    uint8_t *o = out + c0 * R;
    const int n = w * R;
    for (int i = threadIdx.x; i * 16 < n; i += T) {
        if (i * 16 + 16 <= n)
            *(uint4 *)(o + 16 * i) = ((const uint4 *)so)[i];
        else
            for (int j = i * 16; j < n; ++j)
                o[j] = ((const uint8_t *)so)[j];
    }
}

#include <cuda_pipeline.h>

// The vectors covering row r's W bytes from column c0 into buf, copied
// asynchronously (cp.async, 16 bytes each).
template <int R, int W>
__device__ __forceinline__ void tile_load(uint8_t *buf,
                                          const uint8_t *__restrict__ in,
                                          long long C, long long ld_in,
                                          long long c0)
{
    constexpr int T = W / 4, P = W + 32, K = W / 16 + 1;
    const int w = (int)min((long long)W, C - c0);
    for (int i = threadIdx.x; i < R * K; i += T) {
        const int r = i / K, k = i - r * K;
        const uint8_t *row = in + r * ld_in + c0;
        const uint8_t *chunk =
            (const uint8_t *)((uintptr_t)row & ~(uintptr_t)15) + 16 * k;
        if (chunk < row + w)
            __pipeline_memcpy_async(&buf[r * P + 16 * k], chunk, 16);
    }
    __pipeline_commit();
}

template <int R, int W>
__global__ void __launch_bounds__(W / 4)
    gather2(const uint8_t *__restrict__ in, uint8_t *__restrict__ out,
            long long C, long long ld_in)
{
    constexpr int T = W / 4, P = W + 32, SR = R | 1;
    extern __shared__ __align__(16) uint8_t sm[]; // 2 tiles, then so
    uint32_t *so = (uint32_t *)(sm + 2 * R * P);
    const long long tiles = (C + W - 1) / W;
    const int t = threadIdx.x;
    const unsigned ldm = (unsigned)(ld_in & 15);
    long long tile = blockIdx.x;
    if (tile < tiles)
        tile_load<R, W>(sm, in, C, ld_in, tile * W);
    for (int it = 0; tile < tiles; ++it, tile += gridDim.x) {
        uint8_t *s = sm + (it & 1) * R * P;
        const long long c0 = tile * W, next = tile + gridDim.x;
        if (next < tiles)
            tile_load<R, W>(sm + ((it + 1) & 1) * R * P, in, C, ld_in,
                            next * W);
        else
            __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        const unsigned off0 = (unsigned)((uintptr_t)(in + c0) & 15);
        uint32_t x[R];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const int b = (int)((off0 + r * ldm) & 15) + 4 * t;
            const uint32_t *q = (const uint32_t *)&s[r * P + (b & ~3)];
            x[r] = __funnelshift_r(q[0], q[1], 8 * (b & 3));
        }
#pragma unroll
        for (int wd = 0; wd < R; ++wd) {
            uint32_t v = 0;
#pragma unroll
            for (int bb = 0; bb < 4; ++bb) {
                const int k = 4 * wd + bb, col = k / R, row = k % R;
                v |= ((x[row] >> (8 * col)) & 0xffu) << (8 * bb);
            }
            so[t * SR + wd] = v;
        }
        __syncthreads();
        const int w = (int)min((long long)W, C - c0), n = w * R;
        uint8_t *o = out + c0 * R;
        for (int i = t; i * 16 < n; i += T) {
            uint32_t v[4];
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int q = 4 * i + j;
                v[j] = so[(q / R) * SR + q % R];
            }
            if (i * 16 + 16 <= n)
                *(uint4 *)(o + 16 * i) = make_uint4(v[0], v[1], v[2], v[3]);
            else
                for (int j = i * 16; j < n; ++j)
                    o[j] = (uint8_t)(so[(j / 4 / R) * SR + j / 4 % R] >>
                                     (8 * (j % 4)));
        }
        __syncthreads();
    }
}

template <int R, int W>
static float run2(const uint8_t *in, uint8_t *out, long long C, long long ld)
{
    const int smem = 2 * R * (W + 32) + W * (R | 1);
    CK(cudaFuncSetAttribute(gather2<R, W>,
                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                            smem));
    int per_sm = 0, sms = 0, dev = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gather2<R, W>,
                                                     W / 4, smem));
    const long long tiles = (C + W - 1) / W;
    const dim3 grid((unsigned)std::min<long long>(tiles, (long long)sms * per_sm));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> ms;
    for (int i = 0; i < 24; ++i) {
        CK(cudaEventRecord(a));
        gather2<R, W><<<grid, W / 4, smem>>>(in, out, C, ld);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float m;
        CK(cudaEventElapsedTime(&m, a, b));
        if (i >= 3)
            ms.push_back(m);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

template <int R, int W>
static float run(const uint8_t *in, uint8_t *out, long long C, long long ld)
{
    const dim3 grid((unsigned)((C + W - 1) / W));
    const int smem = R * (W + 32) + W * R;
    CK(cudaFuncSetAttribute(gather<R, W>,
                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                            smem));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> ms;
    for (int i = 0; i < 24; ++i) {
        CK(cudaEventRecord(a));
        gather<R, W><<<grid, W / 4, smem>>>(in, out, C, ld);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float m;
        CK(cudaEventElapsedTime(&m, a, b));
        if (i >= 3)
            ms.push_back(m);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

static float copy_ms(uint8_t *dst, const uint8_t *src, size_t n)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> ms;
    for (int i = 0; i < 24; ++i) {
        CK(cudaEventRecord(a));
        CK(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice));
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float m;
        CK(cudaEventElapsedTime(&m, a, b));
        if (i >= 3)
            ms.push_back(m);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

template <int R>
static int probe(long long C, long long ld)
{
    const size_t nin = (size_t)(R - 1) * ld + C, nout = (size_t)C * R;
    std::vector<uint8_t> h(nin), got(nout);
    uint64_t z = 0x9e3779b97f4a7c15ull ^ (uint64_t)(C * 131 + ld * 7 + R);
    for (auto &v : h) {
        z ^= z << 13, z ^= z >> 7, z ^= z << 17;
        v = (uint8_t)(z >> 24);
    }
    uint8_t *in, *out, *cp;
    CK(cudaMalloc(&in, nin + 64));
    CK(cudaMalloc(&out, nout + 64));
    CK(cudaMalloc(&cp, nout + 64));
    CK(cudaMemcpy(in, h.data(), nin, cudaMemcpyHostToDevice));
    const float cms = copy_ms(cp, in, nout);
    printf("R=%d C=%lld ld_in=%lld (%.1f MiB): copy %.4f ms\n", R, C, ld,
           nout / 1048576.0, cms);
    int bad_total = 0;
    auto one = [&](const char *name, float (*f)(const uint8_t *, uint8_t *,
                                                 long long, long long)) {
        CK(cudaMemset(out, 0xa5, nout));
        const float m = f(in, out, C, ld);
        CK(cudaMemcpy(got.data(), out, nout, cudaMemcpyDeviceToHost));
        long long bad = 0;
        for (long long c = 0; c < C; ++c)
            for (int r = 0; r < R; ++r)
                bad += got[(size_t)c * R + r] != h[(size_t)r * ld + c];
        bad_total += bad != 0;
        printf("  %-7s %.4f ms  %5.1f%% of the copy  %lld wrong\n", name, m,
               100.0 * cms / m, bad);
    };
    one("W256", run<R, 256>);
    one("W512", run<R, 512>);
    one("W1024", run<R, 1024>);
    one("v2W256", run2<R, 256>);
    one("v2W512", run2<R, 512>);
    one("v2W1024", run2<R, 1024>);
    CK(cudaFree(in));
    CK(cudaFree(out));
    CK(cudaFree(cp));
    return bad_total;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s R C LD_IN\n", argv[0]);
        return 2;
    }
    const int R = atoi(argv[1]);
    const long long C = atoll(argv[2]), ld = atoll(argv[3]);
    if (ld < C) {
        fprintf(stderr, "ld_in %lld < C %lld\n", ld, C);
        return 2;
    }
    switch (R) {
    case 2: return probe<2>(C, ld);
    case 5: return probe<5>(C, ld);
    case 13: return probe<13>(C, ld);
    case 16: return probe<16>(C, ld);
    case 24: return probe<24>(C, ld);
    case 26: return probe<26>(C, ld);
    case 29: return probe<29>(C, ld);
    case 31: return probe<31>(C, ld);
    case 64: return probe<64>(C, ld);
    default: fprintf(stderr, "R=%d not built\n", R); return 2;
    }
}
