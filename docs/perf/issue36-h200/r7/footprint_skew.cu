// The footprint copy (docs/perf/issue36-h100/footprint/footprint_copy.cu)
// with the skew's boundary as a parameter: each output row's part is
// stored from the first SKEWB-byte boundary at or after its first element
// (SKEWB 32: the tuned kernel's sectors; 64, 128, 256: DRAM's bursts, L2's
// lines), and with XR 1 a tile also loads the input rows its skewed stores
// would need (SKEWB / E - 1 past its own; the L2's re-reads). Question
// (issue 36, 1-byte odd shapes): do output rows written from 32-byte
// boundaries that are off the 64- or 128-byte ones cost what the H200's
// footprint lost at pitches 16400 and 22736 (16 mod 64), 73-74% against
// 81-83% at pitches that are multiples of 64?
//   footprint_skew E R C LD_IN LD_OUT TY TXB ORDER BPSM SKEWB XR [...]  (11 numbers each)
// Built with -Itests/gpu: the crosscheck programs' timing protocol.
#include "crosscheck_protocol.h"

typedef unsigned long long u64;

// Bytes [p, end) of g, in the widest aligned pieces; every byte nonzero.
__device__ static void put_range(unsigned char *g, u64 p, u64 end)
{
    if ((p & 1) && p < end) { g[p] = 0xff; p += 1; }
    if ((p & 2) && p + 2 <= end) { *(unsigned short *)(g + p) = 0xffff; p += 2; }
    if ((p & 4) && p + 4 <= end) { *(unsigned *)(g + p) = ~0u; p += 4; }
    if ((p & 8) && p + 8 <= end) { *(u64 *)(g + p) = ~0ull; p += 8; }
    for (; p + 16 <= end; p += 16) *(uint4 *)(g + p) = make_uint4(~0u, ~0u, ~0u, ~0u);
    if (p + 8 <= end) { *(u64 *)(g + p) = ~0ull; p += 8; }
    if (p + 4 <= end) { *(unsigned *)(g + p) = ~0u; p += 4; }
    if (p + 2 <= end) { *(unsigned short *)(g + p) = 0xffff; p += 2; }
    if (p < end) g[p] = 0xff;
}

// OB = TY x E: the bytes of an output row's part (a multiple of 32).
template <int TY, int TXB, int OB>
__global__ void __launch_bounds__(256)
footprint(const unsigned char *__restrict__ in, unsigned char *__restrict__ out,
          u64 rows, u64 cols, u64 ld_in, u64 ld_out, int e,
          unsigned trows, unsigned tcols, int order, u64 sk, int xr)
{
    constexpr int VW = TXB / 16, RPP = 256 / VW;  // lanes a row, rows a pass
    constexpr int SW = OB / 16, OPP = 256 / SW;
    static_assert(256 % VW == 0 && 256 % SW == 0 && OB % 32 == 0, "tile");
    const unsigned b = blockIdx.x;
    unsigned ty = order ? b % trows : b / tcols;  // 1: down the tile columns
    unsigned tx = order ? b / trows : b % tcols;
    if (order >= 300) {  // down the tile columns, shifted a column every d tile rows
        const unsigned d = order - 300;
        ty = b % trows;
        tx = (b / trows + ty / d) % tcols;
    } else if (order >= 200) {  // bands of g tile rows, each down its columns
        const unsigned g = order - 200, band = b / (g * tcols), in = b % (g * tcols);
        const unsigned gh = trows - band * g < g ? trows - band * g : g;
        tx = in / gh;
        ty = band * g + in % gh;
    } else if (order >= 100) {  // bands of g tile columns, each along its rows
        const unsigned g = order - 100, band = b / (g * trows), in = b % (g * trows);
        const unsigned gw = tcols - band * g < g ? tcols - band * g : g;
        ty = in / gw;
        tx = band * g + in % gw;
    }
    const u64 r0 = (u64)ty * TY, c0 = (u64)tx * (TXB / e);
    const int nr = (int)(rows - r0 < TY ? rows - r0 : TY);
    const int nc = (int)(cols - c0 < (u64)(TXB / e) ? cols - c0 : TXB / e);
    const u64 sb = (u64)nc * e;
    const int lane = threadIdx.x % VW, rr = threadIdx.x / VW;
    uint4 acc = make_uint4(0x80808080u, 0x80808080u, 0x80808080u, 0x80808080u);
#pragma unroll
    for (int i = rr; i < TY + 256; i += RPP) {
        if (i < TY ? i < nr : xr && i < TY + (int)(sk / e) - 1 && r0 + i < rows) {
            const u64 a = ((r0 + i) * ld_in + c0) * e, a0 = a & ~(u64)15;
            const uint4 *p = (const uint4 *)(in + a0);
            if (a0 + 16 * lane < a + sb) {
                const uint4 v = __ldg(p + lane);
                acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
            }
            if (lane == VW - 1 && a0 + 16 * VW < a + sb) {
                const uint4 v = __ldg(p + VW);
                acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
            }
        }
    }
    const uint4 val = make_uint4(acc.x | 0x80808080u, acc.y | 0x80808080u,
                                 acc.z | 0x80808080u, acc.w | 0x80808080u);
    // Whole 16-byte vectors of every output row's part, except on the
    // matrix's first and last rows of tiles, whose ends go piece by piece.
    const bool whole = r0 > 0 && r0 + TY + (sk + e - 1) / e <= rows;
    const int l2 = threadIdx.x % SW, orow = threadIdx.x / SW;
    for (int j = orow; j < nc; j += OPP) {
        const u64 row = (c0 + j) * ld_out * e, first = row + r0 * e;
        if (whole) {
            *(uint4 *)(out + ((first + sk - 1) & ~(sk - 1)) + 16 * l2) = val;
            continue;
        }
        const u64 lo = r0 == 0 ? first : (first + sk - 1) & ~(sk - 1);
        u64 hi = r0 + nr >= rows ? first + (u64)nr * e
                                 : (first + (u64)nr * e + sk - 1) & ~(sk - 1);
        if (hi > row + rows * e) hi = row + rows * e;
        const u64 v0 = (lo + 15) & ~(u64)15, v1 = hi & ~(u64)15;
        for (u64 q = v0 + 16 * l2; q + 16 <= v1; q += 16 * SW) *(uint4 *)(out + q) = val;
        if (l2 == 0) put_range(out, lo, v0 < hi ? v0 : hi);
        if (l2 == SW - 1 && v0 < hi) put_range(out, v1, hi);
    }
}

struct prob { int e; u64 r, c, li, lo; int ty, txb, order, bpsm; u64 sk; int xr; };

template <int TY, int TXB, int OB>
static void launch(const prob &p, const unsigned char *a, unsigned char *b)
{
    const unsigned trows = (unsigned)((p.r + TY - 1) / TY);
    const unsigned tcols = (unsigned)((p.c + TXB / p.e - 1) / (TXB / p.e));
    const int smem = p.bpsm ? (233472 / p.bpsm - 1024) & ~127 : 0;
    static int set = 0;  // the largest asked for so far
    if (smem > 48 * 1024 && smem > set) {
        set = smem;
        OK(cudaFuncSetAttribute(footprint<TY, TXB, OB>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    }
    const int order = p.order == 2 ? tcols > trows : p.order;
    footprint<TY, TXB, OB><<<trows * tcols, 256, smem>>>(a, b, p.r, p.c, p.li, p.lo,
                                                         p.e, trows, tcols, order, p.sk, p.xr);
}

template <int TY, int TXB>
static bool pick(const prob &p, const unsigned char *a, unsigned char *b)
{
    if (p.ty != TY || p.txb != TXB) return false;
    const int ob = TY * p.e;
#define O(n) if (ob == n) { launch<TY, TXB, n>(p, a, b); return true; }
    O(32) O(64) O(128) O(256) O(512) O(1024) O(2048) O(4096)
#undef O
    return false;
}

static void go(const prob &p, const unsigned char *a, unsigned char *b)
{
    if (pick<32, 128>(p, a, b) || pick<32, 256>(p, a, b) || pick<32, 512>(p, a, b) ||
        pick<64, 128>(p, a, b) || pick<64, 256>(p, a, b) || pick<64, 512>(p, a, b) ||
        pick<128, 128>(p, a, b) || pick<128, 256>(p, a, b) || pick<128, 512>(p, a, b) ||
        pick<256, 128>(p, a, b) || pick<256, 256>(p, a, b) || pick<512, 128>(p, a, b) ||
        pick<16, 512>(p, a, b) || pick<16, 1024>(p, a, b) || pick<32, 1024>(p, a, b) ||
        pick<256, 512>(p, a, b) || pick<512, 256>(p, a, b) || pick<64, 1024>(p, a, b))
        return;
    fprintf(stderr, "no tile of %d rows x %d bytes for %d-byte elements\n", p.ty, p.txb, p.e);
    exit(2);
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 10 < argc; i += 11) {
        prob p = {atoi(argv[i]), strtoull(argv[i + 1], 0, 10), strtoull(argv[i + 2], 0, 10),
                  strtoull(argv[i + 3], 0, 10), strtoull(argv[i + 4], 0, 10),
                  atoi(argv[i + 5]), atoi(argv[i + 6]), atoi(argv[i + 7]), atoi(argv[i + 8]),
                  strtoull(argv[i + 9], 0, 10), atoi(argv[i + 10])};
        const size_t bin = (size_t)(p.r * p.li * p.e) + 64, bout = (size_t)(p.c * p.lo * p.e) + 64;
        const size_t bytes = (size_t)(p.r * p.c * p.e);
        unsigned char *a, *b, *c, *d;
        OK(cudaMalloc(&a, bin)); OK(cudaMalloc(&b, bout));
        OK(cudaMalloc(&c, bytes)); OK(cudaMalloc(&d, bytes));
        OK(cudaMemset(a, 1, bin)); OK(cudaMemset(c, 2, bytes));
        // contender 0 the copy, 1 the footprint; one buffer set
        auto run = [&](int which, int) {
            if (which == 0) OK(cudaMemcpyAsync(d, c, bytes, cudaMemcpyDeviceToDevice));
            else go(p, a, b);
        };
        run(1, 0);
        OK(cudaGetLastError());
        double med[2];
        xc_medians(run, 0, 2, 1, med);
        OK(cudaGetLastError());
        // Every byte of the transpose's output written, the padding not.
        u64 missed = 0, stray = 0;
        if (p.bpsm == 0 && (p.order == 2 || p.order % 100 == 4 || p.order == 301)) {
            std::vector<unsigned char> h(bout);
            OK(cudaMemset(b, 0, bout));
            go(p, a, b);
            OK(cudaMemcpy(h.data(), b, bout, cudaMemcpyDeviceToHost));
            for (u64 r = 0; r < p.c; ++r)
                for (u64 k = 0; k < p.lo * p.e; ++k) {
                    const bool set = h[r * p.lo * p.e + k] != 0, want = k < p.r * p.e;
                    missed += want && !set;
                    stray += set && !want;
                }
        }
        const double copy = 2.0 * bytes / med[0] / 1e6, fp = 2.0 * bytes / med[1] / 1e6;
        printf("%d-byte %llux%llu ld %llu/%llu (mod 128: %llu/%llu) tile %d rows x %d bytes skew %llu xr %d (%.0f MiB): "
               "copy %.0f GB/s | footprint %.0f GB/s %.1f%% (%llu missed, %llu stray)\n",
               p.e, p.r, p.c, p.li, p.lo, p.li * p.e % 128, p.lo * p.e % 128, p.ty, p.txb, p.sk, p.xr,
               bytes / 1048576.0, copy, fp, 100 * fp / copy, missed, stray);
        fflush(stdout);
        cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(d);
    }
    return 0;
}
