// Byte transposes with every global access an aligned 16-byte vector, the
// realignment done by where shared memory is read (issue 36, item 1: the
// "rows staged through shared memory and read back at their offset" that
// PERFORMANCE.md left to try). A tile is TR input rows x TC input bytes.
// - Load: each tile row's bytes are read as the aligned 16-byte chunks
//   that hold them (TC/16 + 1 where the row is off the vector) and put
//   as they are, so tile byte (r, c) sits at base(r) + c, base(r) = r*P +
//   rot(r) + (the row's offset mod 16).
// - Store: each output row's part is written as the aligned 16-byte
//   chunks of the output; chunk j of output row c holds tile rows
//   16j - s + i (s: the output row's offset mod 16), gathered by 16
//   shared byte loads at base(row) + c. Output rows c and c + 16 have
//   the same offset mod 16 (16 * ld_out is 0 mod 16), and so do input
//   rows r and r + 16, so a thread keeps its 16 bases for every output
//   row it stores (c, c + G, ...; G a multiple of 16). The head and the
//   tail of an output row that is off the vector (16 bytes together)
//   go as one gathered chunk from the lane of j = 0, in aligned pieces.
//   byte_gather R C LD_IN LD_OUT TR TC PAD ROT ORDER [R C ...]   (9 numbers each)
// ORDER 0 along the tile rows, 1 down the tile columns; the last line of
// tiles first either way (as the template's at_tile_at).
// Built with -Itests/gpu: the crosscheck programs' timing protocol.
#include "crosscheck_protocol.h"
#include <cstdint>

typedef unsigned long long u64;
typedef unsigned char u8;

// Bytes [lo, hi) of the 16-byte chunk v to g + lo.. (g 16-byte aligned), in
// aligned pieces.
__device__ static void put_part(u8 *g, uint4 v, int lo, int hi)
{
    // selects, not an array indexed at run time (which would be local memory)
    auto w = [&](int q) { return q == 0 ? v.x : q == 1 ? v.y : q == 2 ? v.z : v.w; };
    for (int p = lo; p < hi;) {
        const unsigned word = w(p >> 2);
        if ((p & 7) == 0 && p + 8 <= hi) {
            *(uint2 *)(g + p) = make_uint2(word, w((p >> 2) + 1));
            p += 8;
        } else if ((p & 3) == 0 && p + 4 <= hi) {
            *(unsigned *)(g + p) = word;
            p += 4;
        } else if ((p & 1) == 0 && p + 2 <= hi) {
            *(unsigned short *)(g + p) = (unsigned short)(word >> (8 * (p & 3)));
            p += 2;
        } else {
            g[p] = (u8)(word >> (8 * (p & 3)));
            p += 1;
        }
    }
}

__device__ __forceinline__ unsigned pack4(unsigned a, unsigned b, unsigned c, unsigned d)
{
    return __byte_perm(__byte_perm(a, b, 0x0040), __byte_perm(c, d, 0x0040), 0x5410);
}

template <int TR, int TC, int NT, int PAD, int ROT>
__global__ void __launch_bounds__(NT)
gather_t(const u8 *__restrict__ in, u8 *__restrict__ out, u64 R, u64 C, u64 li, u64 lo,
         unsigned trows, unsigned tcols, int order)
{
    constexpr int P = TC + 16 + PAD;  // a row's chunks, 16-byte aligned
    constexpr int K = TC / 16 + 1;    // chunks a row may need
    constexpr int JP = TR / 16;       // aligned output chunks a row (and one more)
    constexpr int G = NT / JP;        // output rows at once; a multiple of 16
    static_assert(P % 16 == 0 && G % 16 == 0 && TC % 16 == 0, "shape");
    __shared__ __align__(16) u8 s[TR * P + (ROT ? TR : 0)];
    const unsigned b = blockIdx.x;
    unsigned ty = order ? b % trows : b / tcols;
    unsigned tx = order ? b / trows : b % tcols;
    // the last line of tiles first
    if (order) tx = tx == 0 ? tcols - 1 : tx - 1;
    else ty = ty == 0 ? trows - 1 : ty - 1;
    const u64 r0 = (u64)ty * TR, c0 = (u64)tx * TC;
    const int nr = (int)(R - r0 < TR ? R - r0 : TR);
    const int nc = (int)(C - c0 < TC ? C - c0 : TC);
    const u64 nin = (R - 1) * li + C;  // the input's last byte + 1
    const unsigned lm = (unsigned)(li & 15), s0 = (unsigned)((r0 * li + c0) & 15);
    auto rot = [](int r) { return ROT ? 16 * (r >> 4) : 0; };  // a group of 16 rows 4 banks on

    // Every chunk's load first, then the puts: N loads in flight a thread.
    constexpr int N = (TR * K + NT - 1) / NT;
    uint4 v[N];
    int at[N];
#pragma unroll
    for (int n = 0; n < N; ++n) {
        const int idx = threadIdx.x + n * NT, rr = idx / K, k = idx - rr * K;
        const int sin = (int)((s0 + (unsigned)rr * lm) & 15);
        at[n] = -1;
        if (idx >= TR * K || rr >= nr || 16 * k >= sin + nc) continue;
        at[n] = rr * P + rot(rr) + 16 * k;
        const u64 p = ((r0 + rr) * li + c0 - sin) + 16 * k;
        if (p + 16 <= nin) {
            v[n] = __ldg((const uint4 *)(in + p));
        } else {
            unsigned w[4] = {0, 0, 0, 0};
            for (int i = 0; i < 16 && p + i < nin; ++i) w[i >> 2] |= (unsigned)in[p + i] << (8 * (i & 3));
            v[n] = make_uint4(w[0], w[1], w[2], w[3]);
        }
    }
#pragma unroll
    for (int n = 0; n < N; ++n)
        if (at[n] >= 0) *(uint4 *)(s + at[n]) = v[n];
    __syncthreads();

    const int j = threadIdx.x % JP, cm = threadIdx.x / JP;
    if (cm >= nc) return;
    const u64 o0 = (c0 + cm) * lo + r0;
    const int so = (int)(o0 & 15);
    auto base = [&](int rr) { return rr * P + rot(rr) + (int)((s0 + (unsigned)rr * lm) & 15); };
    if (nr == TR) {
        // Lane j's rows; j = 0 takes the head (bytes so..15 of chunk 0)
        // and the tail (bytes 0..so-1 of chunk JP) together.
        int bs[16];
#pragma unroll
        for (int i = 0; i < 16; ++i) {
            int rr = 16 * j - so + i;
            if (rr < 0) rr += TR;
            bs[i] = base(rr);
        }
        const bool split = j == 0 && so != 0;
        for (int c = cm; c < nc; c += G) {
            unsigned bt[16];
#pragma unroll
            for (int i = 0; i < 16; ++i) bt[i] = s[bs[i] + c];
            const uint4 v = make_uint4(pack4(bt[0], bt[1], bt[2], bt[3]), pack4(bt[4], bt[5], bt[6], bt[7]),
                                       pack4(bt[8], bt[9], bt[10], bt[11]),
                                       pack4(bt[12], bt[13], bt[14], bt[15]));
            u8 *g = out + ((c0 + c) * lo + r0 - so);  // aligned
            if (!split) {
                *(uint4 *)(g + 16 * j) = v;
            } else {
                put_part(g, v, so, 16);
                put_part(g + 16 * JP, v, 0, so);
            }
        }
    } else {
        // The last line of tile rows: any chunk may be cut; byte by byte.
        for (int c = cm; c < nc; c += G)
            for (int pj = j; pj <= JP; pj += JP) {
                u8 *g = out + ((c0 + c) * lo + r0 - so) + 16 * pj;
                for (int i = 0; i < 16; ++i) {
                    const int rr = 16 * pj - so + i;
                    if (rr >= 0 && rr < nr) g[i] = s[base(rr) + c];
                }
            }
    }
}

struct prob {
    u64 r, c, li, lo;
    int tr, tc, pad, rot, order;
};

template <int TR, int TC, int PAD, int ROT>
static bool try_launch(const prob &p, const u8 *a, u8 *b)
{
    if (p.tr != TR || p.tc != TC || p.pad != PAD || p.rot != ROT) return false;
    const unsigned trows = (unsigned)((p.r + TR - 1) / TR), tcols = (unsigned)((p.c + TC - 1) / TC);
    gather_t<TR, TC, 256, PAD, ROT><<<trows * tcols, 256>>>(a, b, p.r, p.c, p.li, p.lo, trows, tcols, p.order);
    return true;
}

static void go(const prob &p, const u8 *a, u8 *b)
{
#define T(tr, tc, pad, rot) try_launch<tr, tc, pad, rot>(p, a, b) ||
    if (T(256, 64, 0, 0) T(256, 64, 0, 1) T(256, 64, 16, 1) T(256, 128, 0, 1) T(256, 128, 16, 1)
        T(128, 64, 0, 1) T(128, 128, 0, 1) T(256, 32, 0, 1) false)
        return;
#undef T
    fprintf(stderr, "no kernel for tile %d x %d pad %d rot %d\n", p.tr, p.tc, p.pad, p.rot);
    exit(2);
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 8 < argc; i += 9) {
        prob p = {strtoull(argv[i], 0, 10), strtoull(argv[i + 1], 0, 10), strtoull(argv[i + 2], 0, 10),
                  strtoull(argv[i + 3], 0, 10), atoi(argv[i + 4]), atoi(argv[i + 5]), atoi(argv[i + 6]),
                  atoi(argv[i + 7]), atoi(argv[i + 8])};
        // The buffers hold exactly what the matrix's rows reach, so a read
        // past the input's end is compute-sanitizer's to see.
        const size_t bin = (size_t)((p.r - 1) * p.li + p.c), bout = (size_t)(p.c * p.lo);
        const size_t bytes = (size_t)(p.r * p.c);
        u8 *a, *b, *c, *d;
        OK(cudaMalloc(&a, bin));
        OK(cudaMalloc(&b, bout));
        OK(cudaMalloc(&c, bytes));
        OK(cudaMalloc(&d, bytes));
        std::vector<u8> h(bin), o(bout);
        uint64_t x = 0x9e3779b97f4a7c15ull ^ p.r ^ (p.c << 20);
        for (auto &v : h) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; v = (u8)(x >> 24); }
        OK(cudaMemcpy(a, h.data(), bin, cudaMemcpyHostToDevice));
        OK(cudaMemset(b, 0xa5, bout));
        OK(cudaMemset(c, 2, bytes));
        go(p, a, b);
        OK(cudaGetLastError());
        OK(cudaMemcpy(o.data(), b, bout, cudaMemcpyDeviceToHost));
        u64 wrong = 0, stray = 0;
        for (u64 col = 0; col < p.c; ++col)
            for (u64 k = 0; k < p.lo; ++k) {
                const u8 got = o[col * p.lo + k];
                if (k < p.r) wrong += got != h[k * p.li + col];
                else stray += got != 0xa5;
            }
        auto run = [&](int which, int) {
            if (which == 0) OK(cudaMemcpyAsync(d, c, bytes, cudaMemcpyDeviceToDevice));
            else go(p, a, b);
        };
        double med[2];
        xc_medians(run, 0, 2, 1, med);
        OK(cudaGetLastError());
        const double copy = 2.0 * bytes / med[0] / 1e6, k = 2.0 * bytes / med[1] / 1e6;
        printf("u8 %llux%llu ld %llu/%llu tile %dx%d pad %d rot %d order %d (%.0f MiB): copy %.0f GB/s | "
               "gather %.0f GB/s %.1f%% (%llu wrong, %llu stray)\n",
               p.r, p.c, p.li, p.lo, p.tr, p.tc, p.pad, p.rot, p.order, bytes / 1048576.0, copy, k,
               100 * k / copy, wrong, stray);
        fflush(stdout);
        cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(d);
    }
    return 0;
}
