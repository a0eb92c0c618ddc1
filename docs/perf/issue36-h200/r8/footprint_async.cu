// Does an asynchronous copy raise what a byte tile's traffic allows?
// r7 showed the footprint copy (docs/perf/issue36-h100/footprint/) is
// itself bound by its instructions and load latency: 8 points lost to a
// loop predicated off. Here the loads go to shared memory by cp.async
// (16-byte pieces, L2 only), STAGES tiles deep, in a persistent grid of
// BPSM blocks an SM, so a block keeps its tiles' bytes in flight without
// registers; the stores are the footprint's (each of the tile's output
// rows from its first 32-byte sector boundary, 16-byte vectors), their
// values read from the stage (one 16-byte shared load a store), so the
// stores wait for the loads as a transpose's must. No transposition, no
// realignment: the copy's traffic with the loads off the registers.
//   footprint_async R C LD_IN LD_OUT TY TXB STAGES BPSM [...]  (1-byte elements)
// Built with -Itests/gpu -arch=sm_90: the crosscheck programs' protocol.
#include "crosscheck_protocol.h"

typedef unsigned long long u64;

__device__ static void put_range(unsigned char *g, u64 p, u64 end)
{
    for (; p < end; ++p) g[p] = 0xff;
}

__device__ __forceinline__ void cp16(void *s, const void *g)
{
    const unsigned sa = (unsigned)__cvta_generic_to_shared(s);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(g));
}

// RP: a stage's row, room for a row part that starts anywhere in a piece.
template <int TY, int TXB, int STAGES>
__global__ void __launch_bounds__(256)
fpa(const unsigned char *__restrict__ in, unsigned char *__restrict__ out, u64 rows, u64 cols,
    u64 ld_in, u64 ld_out, unsigned trows, unsigned tcols, int down)
{
    constexpr int CPR = TXB / 16 + 1, RP = CPR * 16, ST = TY * RP;
    extern __shared__ __align__(16) unsigned char sm[];
    const unsigned tiles = trows * tcols;
    const int tid = threadIdx.x;
    auto place = [&](unsigned t, u64 &r0, u64 &c0) {
        const unsigned ty = down ? t % trows : t / tcols, tx = down ? t / trows : t % tcols;
        r0 = (u64)ty * TY;
        c0 = (u64)tx * TXB;
    };
    auto issue = [&](unsigned t, int stage) {
        if (t < tiles) {
            u64 r0, c0;
            place(t, r0, c0);
            const int nr = (int)(rows - r0 < TY ? rows - r0 : TY);
            const u64 sb = cols - c0 < TXB ? cols - c0 : TXB;
            unsigned char *s = sm + stage * ST;
            for (int k = tid; k < TY * CPR; k += 256) {
                const int i = k / CPR, j = k % CPR;
                const u64 a = (r0 + i) * ld_in + c0, a0 = a & ~(u64)15;
                if (i < nr && a0 + 16 * j < a + sb) cp16(s + i * RP + 16 * j, in + a0 + 16 * j);
            }
        }
        asm volatile("cp.async.commit_group;\n" ::);
    };
    unsigned t = blockIdx.x;
#pragma unroll
    for (int k = 0; k < STAGES - 1; ++k) issue(t + k * gridDim.x, k);
    for (int it = 0; t < tiles; t += gridDim.x, ++it) {
        issue(t + (STAGES - 1) * gridDim.x, (it + STAGES - 1) % STAGES);
        asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 1));
        __syncthreads();
        u64 r0, c0;
        place(t, r0, c0);
        const int nr = (int)(rows - r0 < TY ? rows - r0 : TY);
        const int nc = (int)(cols - c0 < TXB ? cols - c0 : TXB);
        const unsigned char *s = sm + (it % STAGES) * ST;
        constexpr int SW = TY / 16;
        const bool whole = r0 > 0 && r0 + TY + 32 <= rows;
        for (int k = tid; k < nc * SW; k += 256) {
            const int j = k / SW, l2 = k % SW;
            // Rows l2 + SW (j % 16): consecutive threads, consecutive rows (no conflict).
            uint4 v = *(const uint4 *)(s + (l2 + SW * (j % 16)) * RP + 16 * (j / 16));
            v.x |= 0x80808080u; v.y |= 0x80808080u; v.z |= 0x80808080u; v.w |= 0x80808080u;
            const u64 row = (c0 + j) * ld_out, first = row + r0;
            if (whole) {
                *(uint4 *)(out + ((first + 31) & ~(u64)31) + 16 * l2) = v;
                continue;
            }
            const u64 lo = r0 == 0 ? first : (first + 31) & ~(u64)31;
            u64 hi = r0 + nr >= rows ? first + (u64)nr : (first + (u64)nr + 31) & ~(u64)31;
            if (hi > row + rows) hi = row + rows;
            const u64 v0 = (lo + 15) & ~(u64)15, v1 = hi & ~(u64)15;
            for (u64 q = v0 + 16 * l2; q + 16 <= v1; q += 16 * SW) *(uint4 *)(out + q) = v;
            if (l2 == 0) put_range(out, lo, v0 < hi ? v0 : hi);
            if (l2 == SW - 1 && v0 < hi) put_range(out, v1 > lo ? v1 : lo, hi);
        }
        __syncthreads();
    }
    asm volatile("cp.async.wait_group 0;\n" ::);
}

struct prob { u64 r, c, li, lo; int ty, txb, stages, bpsm; };

template <int TY, int TXB, int STAGES>
static bool pick(const prob &p, const unsigned char *a, unsigned char *b, int sms)
{
    if (p.ty != TY || p.txb != TXB || p.stages != STAGES) return false;
    const unsigned trows = (unsigned)((p.r + TY - 1) / TY), tcols = (unsigned)((p.c + TXB - 1) / TXB);
    const int smem = STAGES * TY * (TXB / 16 + 1) * 16;
    static bool set = false;
    if (!set) {
        OK(cudaFuncSetAttribute(fpa<TY, TXB, STAGES>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        set = true;
    }
    unsigned grid = (unsigned)(sms * p.bpsm);
    if (grid > trows * tcols) grid = trows * tcols;
    fpa<TY, TXB, STAGES><<<grid, 256, smem>>>(a, b, p.r, p.c, p.li, p.lo, trows, tcols, tcols > trows);
    return true;
}

static void go(const prob &p, const unsigned char *a, unsigned char *b, int sms)
{
    if (pick<256, 128, 2>(p, a, b, sms) || pick<256, 128, 3>(p, a, b, sms) ||
        pick<128, 128, 2>(p, a, b, sms) || pick<128, 128, 3>(p, a, b, sms) ||
        pick<128, 128, 4>(p, a, b, sms) || pick<256, 64, 3>(p, a, b, sms) ||
        pick<128, 256, 2>(p, a, b, sms) || pick<64, 256, 3>(p, a, b, sms))
        return;
    fprintf(stderr, "no tile %d x %d, %d stages\n", p.ty, p.txb, p.stages);
    exit(2);
}

int main(int argc, char **argv)
{
    int sms = 0;
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    for (int i = 1; i + 7 < argc; i += 8) {
        prob p = {strtoull(argv[i], 0, 10), strtoull(argv[i + 1], 0, 10), strtoull(argv[i + 2], 0, 10),
                  strtoull(argv[i + 3], 0, 10), atoi(argv[i + 4]), atoi(argv[i + 5]),
                  atoi(argv[i + 6]), atoi(argv[i + 7])};
        const size_t bin = (size_t)(p.r * p.li) + 64, bout = (size_t)(p.c * p.lo) + 64;
        const size_t bytes = (size_t)(p.r * p.c);
        unsigned char *a, *b, *c, *d;
        OK(cudaMalloc(&a, bin)); OK(cudaMalloc(&b, bout));
        OK(cudaMalloc(&c, bytes)); OK(cudaMalloc(&d, bytes));
        OK(cudaMemset(a, 1, bin)); OK(cudaMemset(c, 2, bytes));
        auto run = [&](int which, int) {
            if (which == 0) OK(cudaMemcpyAsync(d, c, bytes, cudaMemcpyDeviceToDevice));
            else go(p, a, b, sms);
        };
        run(1, 0);
        OK(cudaGetLastError());
        double med[2];
        xc_medians(run, 0, 2, 1, med);
        OK(cudaGetLastError());
        u64 missed = 0, stray = 0;
        {
            std::vector<unsigned char> h(bout);
            OK(cudaMemset(b, 0, bout));
            go(p, a, b, sms);
            OK(cudaMemcpy(h.data(), b, bout, cudaMemcpyDeviceToHost));
            for (u64 r = 0; r < p.c; ++r)
                for (u64 k = 0; k < p.lo; ++k) {
                    const bool set = h[r * p.lo + k] != 0, want = k < p.r;
                    missed += want && !set;
                    stray += set && !want;
                }
        }
        const double copy = 2.0 * bytes / med[0] / 1e6, fp = 2.0 * bytes / med[1] / 1e6;
        printf("async %llux%llu ld %llu/%llu tile %d rows x %d bytes stages %d bpsm %d: "
               "copy %.0f GB/s | footprint %.0f GB/s %.1f%% (%llu missed, %llu stray)\n",
               p.r, p.c, p.li, p.lo, p.ty, p.txb, p.stages, p.bpsm, copy, fp, 100 * fp / copy,
               missed, stray);
        fflush(stdout);
        cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(d);
    }
    return 0;
}
