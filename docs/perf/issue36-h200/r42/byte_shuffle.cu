// Byte transposes with every global access an aligned 16-byte vector and
// the realignment done in registers (issue 36, item 1; r40's gather from
// shared memory byte by byte ran 52-57% of the copy on odd rows, bound by
// shared memory). A tile is TR input rows x 128 input bytes.
// - Load: the 8 lanes of a row read its aligned chunks; lane k takes bytes
//   [s, s + 16) of its chunk and the next (a shuffle; the last lane loads
//   the one past), s the row's offset mod 16, and puts the tile's bytes
//   [16k, 16k + 16) of that row in shared memory as one aligned vector
//   (the chunk's place XORed with the row's 16-row group: no bank
//   conflicts on the reads below).
// - Store: thread (j, g) reads rows 16j..16j+15 of columns 4g..4g+3 as
//   words and transposes 4x4 blocks by byte permutes: 16 bytes of output
//   rows 4g..4g+3 each, tile-aligned. Each output row's chunk is moved to
//   the output's own 16-byte boundaries with the previous lane's chunk
//   (a shuffle); lane j = 0 holds the row's head and tail (16 bytes
//   together, with the last lane's chunk) and puts them in aligned pieces.
//   byte_shuffle R C LD_IN LD_OUT TR ORDER [R C ...]   (6 numbers each)
// ORDER 0 along the tile rows, 1 down the tile columns; the last line of
// tiles first either way. Built with -Itests/gpu.
#include "crosscheck_protocol.h"
#include <cstdint>

typedef unsigned long long u64;
typedef unsigned char u8;

// Bytes [sh, sh + 16) of the 32 bytes a then b (0 <= sh <= 16): selects by
// the bits of sh / 4, then a funnel shift.
__device__ __forceinline__ uint4 window(uint4 a, uint4 b, unsigned sh)
{
    const unsigned q = sh >> 2, r = 8 * (sh & 3);  // q 0..3 (sh 16: b whole, below)
    const unsigned w[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    unsigned v[6], u[5];
#pragma unroll
    for (int i = 0; i < 6; ++i) v[i] = (q & 2) ? w[i + 2] : w[i];
#pragma unroll
    for (int i = 0; i < 5; ++i) u[i] = (q & 1) ? v[i + 1] : v[i];
    uint4 o = make_uint4(__funnelshift_r(u[0], u[1], r), __funnelshift_r(u[1], u[2], r),
                         __funnelshift_r(u[2], u[3], r), __funnelshift_r(u[3], u[4], r));
    return sh == 16 ? b : o;
}

__device__ __forceinline__ uint4 shfl4(uint4 v, int src)
{
    return make_uint4(__shfl_sync(~0u, v.x, src), __shfl_sync(~0u, v.y, src), __shfl_sync(~0u, v.z, src),
                      __shfl_sync(~0u, v.w, src));
}

__device__ __forceinline__ unsigned word_at(uint4 v, int q)
{
    return q == 0 ? v.x : q == 1 ? v.y : q == 2 ? v.z : v.w;
}

// Bytes [lo, hi) of v to g + lo (g 16-byte aligned): the head [so, 16) or
// the tail [0, so), in at most four aligned pieces.
__device__ __forceinline__ void put_head(u8 *g, uint4 v, int so)
{
    int p = so;
    if (p & 1) { g[p] = (u8)(word_at(v, p >> 2) >> (8 * (p & 3))); p += 1; }
    if (p & 2) { *(unsigned short *)(g + p) = (unsigned short)(word_at(v, p >> 2) >> (8 * (p & 3))); p += 2; }
    if (p & 4) { *(unsigned *)(g + p) = word_at(v, p >> 2); p += 4; }
    if (p & 8) { *(uint2 *)(g + p) = make_uint2(v.z, v.w); }
}
__device__ __forceinline__ void put_tail(u8 *g, uint4 v, int so)
{
    int p = 0;
    if (so & 8) { *(uint2 *)g = make_uint2(v.x, v.y); p = 8; }
    if (so & 4) { *(unsigned *)(g + p) = word_at(v, p >> 2); p += 4; }
    if (so & 2) { *(unsigned short *)(g + p) = (unsigned short)(word_at(v, p >> 2) >> (8 * (p & 3))); p += 2; }
    if (so & 1) { g[p] = (u8)(word_at(v, p >> 2) >> (8 * (p & 3))); }
}

__device__ __forceinline__ unsigned byte_of(uint4 v, int b)
{
    return (word_at(v, b >> 2) >> (8 * (b & 3))) & 0xff;
}

// The chunk at p where it passes the input's end: its bytes before nin.
__device__ __noinline__ uint4 tail_load(const u8 *in, u64 p, u64 nin)
{
    unsigned w[4] = {0, 0, 0, 0};
#pragma unroll
    for (int i = 0; i < 16; ++i)
        if (p + i < nin) w[i >> 2] |= (unsigned)in[p + i] << (8 * (i & 3));
    return make_uint4(w[0], w[1], w[2], w[3]);
}

template <int TR>
__global__ void __launch_bounds__(TR * 2)
shuffle_t(const u8 *__restrict__ in, u8 *__restrict__ out, u64 R, u64 C, u64 li, u64 lo,
          unsigned trows, unsigned tcols, int order)
{
    constexpr int TC = 128, K = 8, NT = TR * 2, JP = TR / 16;
    __shared__ __align__(16) u8 s[TR * TC];
    const unsigned b = blockIdx.x;
    unsigned ty = order ? b % trows : b / tcols;
    unsigned tx = order ? b / trows : b % tcols;
    if (order) tx = tx == 0 ? tcols - 1 : tx - 1;
    else ty = ty == 0 ? trows - 1 : ty - 1;
    const u64 r0 = (u64)ty * TR, c0 = (u64)tx * TC;
    const int nr = (int)(R - r0 < TR ? R - r0 : TR);
    const int nc = (int)(C - c0 < TC ? C - c0 : TC);
    const u64 nin = (R - 1) * li + C;
    const unsigned lm = (unsigned)(li & 15), s0 = (unsigned)((r0 * li + c0) & 15);
    const int lane = threadIdx.x & 31;

    // Load: NT / 8 rows a pass, 8 lanes a row, 4 passes.
    {
        const int k = threadIdx.x % K, rp = threadIdx.x / K;
        constexpr int PASSES = TR * K / NT;
        uint4 v[PASSES], x[PASSES];
#pragma unroll
        for (int n = 0; n < PASSES; ++n) {
            const int rr = rp + n * (NT / K);
            const unsigned sin = (s0 + (unsigned)rr * lm) & 15;
            const u64 p = ((r0 + rr) * li + c0 - sin) + 16 * k;
            const bool want = rr < nr && 16 * k < (int)sin + nc;
            const bool extra = rr < nr && k == K - 1 && sin != 0 && 16 * K < (int)sin + nc;
            v[n] = x[n] = make_uint4(0, 0, 0, 0);
            if (want) {
                if (p + 16 <= nin) v[n] = __ldg((const uint4 *)(in + p));
                else v[n] = tail_load(in, p, nin);
            }
            if (extra) {
                const u64 q = p + 16;
                if (q + 16 <= nin) x[n] = __ldg((const uint4 *)(in + q));
                else x[n] = tail_load(in, q, nin);
            }
        }
#pragma unroll
        for (int n = 0; n < PASSES; ++n) {
            const int rr = rp + n * (NT / K);
            const unsigned sin = (s0 + (unsigned)rr * lm) & 15;
            const uint4 nx = shfl4(v[n], (lane + 1) & 31);  // lane K-1 takes its own x instead
            const uint4 t = window(v[n], k == K - 1 ? x[n] : nx, sin);
            const int f = (rr >> 4) & (K - 1);
            *(uint4 *)(s + rr * TC + 16 * (k ^ f)) = t;
        }
    }
    __syncthreads();

    // Store: thread (j, g), j fastest; a warp is JP x (32 / JP).
    const int j = threadIdx.x % JP, g = threadIdx.x / JP;  // g: columns 4g..4g+3
    unsigned xw[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) {
        const int rr = 16 * j + i, f = j & (K - 1);
        xw[i] = *(const unsigned *)(s + rr * TC + 16 * ((g >> 2) ^ f) + 4 * (g & 3));
    }
    uint4 row[4];  // output rows 4g + m, tile rows 16j..16j+15
    {
        unsigned o[4][4];
#pragma unroll
        for (int t = 0; t < 4; ++t) {
            const unsigned a = xw[4 * t], bb = xw[4 * t + 1], c = xw[4 * t + 2], d = xw[4 * t + 3];
            const unsigned t0 = __byte_perm(a, bb, 0x5140), t1 = __byte_perm(a, bb, 0x7362);
            const unsigned t2 = __byte_perm(c, d, 0x5140), t3 = __byte_perm(c, d, 0x7362);
            o[0][t] = __byte_perm(t0, t2, 0x5410);
            o[1][t] = __byte_perm(t0, t2, 0x7632);
            o[2][t] = __byte_perm(t1, t3, 0x5410);
            o[3][t] = __byte_perm(t1, t3, 0x7632);
        }
#pragma unroll
        for (int m = 0; m < 4; ++m) row[m] = make_uint4(o[m][0], o[m][1], o[m][2], o[m][3]);
    }
    const int src = j == 0 ? lane + JP - 1 : lane - 1;  // the row's previous chunk (j = 0: its last)
#pragma unroll
    for (int m = 0; m < 4; ++m) {
        const uint4 prev = shfl4(row[m], src);
        const int c = 4 * g + m;
        const u64 o0 = (c0 + c) * lo + r0;
        const int so = (int)(o0 & 15);
        const uint4 w = window(prev, row[m], (unsigned)(16 - so));  // rows 16j - so ..
        if (c >= nc) continue;
        u8 *gp = out + (o0 - so);
        if (nr == TR) {
            if (j != 0 || so == 0) *(uint4 *)(gp + 16 * j) = w;
            else {
                put_head(gp, w, so);
                put_tail(gp + 16 * JP, w, so);
            }
        } else {
#pragma unroll
            for (int bq = 0; bq < 16; ++bq) {
                const int rr = (j == 0 && bq < so) ? TR - so + bq : 16 * j - so + bq;
                const u64 at = (j == 0 && bq < so) ? 16 * JP + bq : 16 * j + bq;
                if (rr >= 0 && rr < nr) gp[at] = (u8)byte_of(w, bq);
            }
        }
    }
}

struct prob {
    u64 r, c, li, lo;
    int tr, order;
};

static void go(const prob &p, const u8 *a, u8 *b)
{
    const unsigned trows = (unsigned)((p.r + p.tr - 1) / p.tr), tcols = (unsigned)((p.c + 127) / 128);
    if (p.tr == 128)
        shuffle_t<128><<<trows * tcols, 256>>>(a, b, p.r, p.c, p.li, p.lo, trows, tcols, p.order);
    else if (p.tr == 256)
        shuffle_t<256><<<trows * tcols, 512>>>(a, b, p.r, p.c, p.li, p.lo, trows, tcols, p.order);
    else {
        fprintf(stderr, "no kernel for %d rows\n", p.tr);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 5 < argc; i += 6) {
        prob p = {strtoull(argv[i], 0, 10), strtoull(argv[i + 1], 0, 10), strtoull(argv[i + 2], 0, 10),
                  strtoull(argv[i + 3], 0, 10), atoi(argv[i + 4]), atoi(argv[i + 5])};
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
        double med[2] = {1, 1};
        if (!getenv("NOTIME")) xc_medians(run, 0, 2, 1, med);  // NOTIME: the check alone (compute-sanitizer)
        OK(cudaGetLastError());
        const double copy = 2.0 * bytes / med[0] / 1e6, k = 2.0 * bytes / med[1] / 1e6;
        printf("u8 %llux%llu ld %llu/%llu tile %dx128 order %d (%.0f MiB): copy %.0f GB/s | "
               "shuffle %.0f GB/s %.1f%% (%llu wrong, %llu stray)\n",
               p.r, p.c, p.li, p.lo, p.tr, p.order, bytes / 1048576.0, copy, k, 100 * k / copy, wrong, stray);
        fflush(stdout);
        cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(d);
    }
    return 0;
}
