// Which load shape lets a reduction down columns read at DRAM's rate?
// (issue 36, item 2.) i32 amax down R x C (ld C, rows on 8 bytes where C
// is even), written by hand: a block of 256 threads, warps as row lanes
// (8), a lane V consecutive columns (V 1: an int, 2: an int2, 4: two
// int2, 16 bytes a lane without 16-byte alignment), IT rows in flight a
// lane, the grid split down the rows so that about WAVES x SMs x 8 blocks
// run; partials combined by atomicMax on the output's bits (|x| as
// unsigned). Checked against the CPU, timed by the crosscheck protocol
// against cudaMemcpyAsync of the input's bytes; share as `autotune bench`
// reports it (R*C*4 / t over 2*R*C*4 / t_copy).
//   nvcc -O3 -arch=native -I tests/gpu col_shapes.cu -o cs && ./cs R C
#include "crosscheck_protocol.h"
#include <cstdint>
#include <cstring>

template <int V> struct ld_t;
template <> struct ld_t<1> {
    static __device__ void get(const int *p, unsigned (&x)[1])
    { x[0] = (unsigned)__ldg(p); }
};
template <> struct ld_t<2> {
    static __device__ void get(const int *p, unsigned (&x)[2])
    { int2 v = __ldg((const int2 *)p); x[0] = v.x; x[1] = v.y; }
};
template <> struct ld_t<4> {
    static __device__ void get(const int *p, unsigned (&x)[4])
    {
        int2 a = __ldg((const int2 *)p), b = __ldg((const int2 *)p + 1);
        x[0] = a.x; x[1] = a.y; x[2] = b.x; x[3] = b.y;
    }
};

__device__ __forceinline__ unsigned uabs(unsigned v)
{
    return (int)v < 0 ? 0u - v : v;
}

template <int V, int IT>
__global__ void __launch_bounds__(256) cols_amax(const int *in, unsigned *out,
                                                 int rows, int cols, int seg)
{
    __shared__ unsigned sm[8][32 * V];
    const int lane = threadIdx.x & 31, ty = threadIdx.x >> 5;
    const int c = blockIdx.x * 32 * V + lane * V;
    const int r0 = blockIdx.y * seg;
    const int r1 = min(rows, r0 + seg);
    unsigned a[V];
#pragma unroll
    for (int e = 0; e < V; ++e)
        a[e] = 0;
    const bool whole = c + V <= cols;
    int r = r0 + ty;
    if (whole) {
        for (; r + (IT - 1) * 8 < r1; r += IT * 8) {
            unsigned x[IT][V];
#pragma unroll
            for (int i = 0; i < IT; ++i)
                ld_t<V>::get(in + (size_t)(r + i * 8) * cols + c, x[i]);
#pragma unroll
            for (int i = 0; i < IT; ++i)
#pragma unroll
                for (int e = 0; e < V; ++e)
                    a[e] = max(a[e], uabs(x[i][e]));
        }
    }
    for (; r < r1; r += 8)
#pragma unroll
        for (int e = 0; e < V; ++e)
            if (c + e < cols)
                a[e] = max(a[e], uabs((unsigned)__ldg(in + (size_t)r * cols + c + e)));
#pragma unroll
    for (int e = 0; e < V; ++e)
        sm[ty][lane * V + e] = a[e];
    __syncthreads();
    if (ty == 0)
#pragma unroll
        for (int e = 0; e < V; ++e) {
            unsigned m = sm[0][lane * V + e];
            for (int t = 1; t < 8; ++t)
                m = max(m, sm[t][lane * V + e]);
            if (c + e < cols)
                atomicMax(out + c + e, m);
        }
}


// Rows read as one flat run, however wide (the template's flat points
// need ld <= threads): a chunk of 4 rows is ld int4 vectors (16 bytes
// each, aligned wherever rows start, as the input starts on 16 bytes), a
// thread takes vectors t, t + 512, ... (K of them), so its 4K columns are
// fixed; a block walks chunks [m0, m1), IT chunks in flight; then its
// slots into shared memory and each column's four rows of the chunk
// combined. Rows past the last whole chunk (rows % 4) by the last block,
// element by element.
template <int K, int IT>
__global__ void __launch_bounds__(512) flat_wide(const int *in, unsigned *out,
                                                 int rows, int ld, int segc)
{
    __shared__ unsigned sm[4 * K * 512];
    const int t = threadIdx.x;
    const int chunks = rows / 4;
    const int m0 = blockIdx.x * segc, m1 = min(chunks, m0 + segc);
    const int4 *pv = (const int4 *)in;
    unsigned a[K][4];
#pragma unroll
    for (int k = 0; k < K; ++k)
#pragma unroll
        for (int e = 0; e < 4; ++e)
            a[k][e] = 0;
    int m = m0;
    for (; m + IT - 1 < m1; m += IT) {
        int4 x[IT][K];
#pragma unroll
        for (int i = 0; i < IT; ++i)
#pragma unroll
            for (int k = 0; k < K; ++k)
                if (t + k * 512 < ld)
                    x[i][k] = __ldg(pv + (size_t)(m + i) * ld + t + k * 512);
                else
                    x[i][k] = make_int4(0, 0, 0, 0);
#pragma unroll
        for (int i = 0; i < IT; ++i)
#pragma unroll
            for (int k = 0; k < K; ++k) {
                a[k][0] = max(a[k][0], uabs(x[i][k].x));
                a[k][1] = max(a[k][1], uabs(x[i][k].y));
                a[k][2] = max(a[k][2], uabs(x[i][k].z));
                a[k][3] = max(a[k][3], uabs(x[i][k].w));
            }
    }
    for (; m < m1; ++m)
#pragma unroll
        for (int k = 0; k < K; ++k)
            if (t + k * 512 < ld) {
                int4 y = __ldg(pv + (size_t)m * ld + t + k * 512);
                a[k][0] = max(a[k][0], uabs(y.x));
                a[k][1] = max(a[k][1], uabs(y.y));
                a[k][2] = max(a[k][2], uabs(y.z));
                a[k][3] = max(a[k][3], uabs(y.w));
            }
#pragma unroll
    for (int k = 0; k < K; ++k)
        if (t + k * 512 < ld)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                sm[(t + k * 512) * 4 + e] = a[k][e];
    __syncthreads();
    const bool tail = blockIdx.x == gridDim.x - 1;
    for (int c = t; c < ld; c += 512) {
        unsigned r = max(max(sm[c], sm[ld + c]), max(sm[2 * ld + c], sm[3 * ld + c]));
        if (tail)
            for (int rr = chunks * 4; rr < rows; ++rr)
                r = max(r, uabs((unsigned)__ldg(in + (size_t)rr * ld + c)));
        atomicMax(out + c, r);
    }
}


// Strips of aligned windows: row r's window w is the 32V elements from
// the 128V-byte line boundary at or before the row's start, plus 32V w,
// so every load (V elements a lane: an int, int2 or int4, aligned
// wherever rows start) lies in whole sectors and lines; lane l's column
// in row r is 32V w + lV - d_r, d_r = (r ld) mod 32V. Rows a thread takes
// 8 apart, IT a step, IT chosen so that 8 IT ld is a multiple of 32V:
// row i of every step has the same d, and accumulator (i, e) one column.
// A column lies in two windows (w and w + 1 by the row): partials meet in
// shared memory, then the output, by atomicMax (amax: exact in any
// order). Windows that reach past the matrix's first or last column (the
// first two and last two) go element by element; the others load whole.
template <int V> struct vload;
template <> struct vload<1> {
    static __device__ void get(const int *p, unsigned (&x)[1]) { x[0] = __ldg(p); }
};
template <> struct vload<2> {
    static __device__ void get(const int *p, unsigned (&x)[2])
    { int2 v = __ldg((const int2 *)p); x[0] = v.x; x[1] = v.y; }
};
template <> struct vload<4> {
    static __device__ void get(const int *p, unsigned (&x)[4])
    {
        int4 v = __ldg((const int4 *)p);
        x[0] = v.x; x[1] = v.y; x[2] = v.z; x[3] = v.w;
    }
};

template <int V, int IT>
__global__ void __launch_bounds__(256) win_amax(const int *in, unsigned *out,
                                                int rows, int cols, int seg)
{
    constexpr int W = 32 * V;
    __shared__ unsigned slot[2 * W];
    const int lane = threadIdx.x & 31, ty = threadIdx.x >> 5;
    const int w = blockIdx.x;
    const int r0 = blockIdx.y * seg;
    const int r1 = min(rows, r0 + seg);
    for (int i = threadIdx.x; i < 2 * W; i += 256)
        slot[i] = 0;
    int d[IT];
#pragma unroll
    for (int i = 0; i < IT; ++i)
        d[i] = (int)(((long long)(r0 + ty + 8 * i) * cols) % W);
    unsigned a[IT][V];
#pragma unroll
    for (int i = 0; i < IT; ++i)
#pragma unroll
        for (int e = 0; e < V; ++e)
            a[i][e] = 0;
    const bool edge = w < 2 || w >= (int)gridDim.x - 2;
    int r = r0 + ty;
    if (!edge)
        for (; r + 8 * (IT - 1) < r1; r += 8 * IT) {
            unsigned x[IT][V];
#pragma unroll
            for (int i = 0; i < IT; ++i)
                vload<V>::get(in + (long long)(r + 8 * i) * cols + W * w +
                                  lane * V - d[i], x[i]);
#pragma unroll
            for (int i = 0; i < IT; ++i)
#pragma unroll
                for (int e = 0; e < V; ++e)
                    a[i][e] = max(a[i][e], uabs(x[i][e]));
        }
    for (; r < r1; r += 8 * IT)
#pragma unroll
        for (int i = 0; i < IT; ++i)
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const int c = W * w + lane * V + e - d[i];
                if (r + 8 * i < r1 && c >= 0 && c < cols)
                    a[i][e] = max(a[i][e], uabs((unsigned)__ldg(
                                               in + (long long)(r + 8 * i) * cols + c)));
            }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < IT; ++i)
#pragma unroll
        for (int e = 0; e < V; ++e)
            atomicMax(&slot[lane * V + e - d[i] + W], a[i][e]);
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * W; i += 256) {
        const int c = W * w - W + i;
        if (c >= 0 && c < cols)
            atomicMax(out + c, slot[i]);
    }
}

struct cfg { int v, it, waves; };

int main(int argc, char **argv)
{
    const int rows = argc > 2 ? atoi(argv[1]) : 36716;
    const int cols = argc > 2 ? atoi(argv[2]) : 1430;
    int sms = 0;
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t n = (size_t)rows * cols, bytes = n * 4;
    std::vector<int> h(n);
    uint64_t s = 12345;
    for (auto &x : h) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x = (int)(s >> 32);
    }
    std::vector<unsigned> ref(cols, 0);
    for (size_t i = 0; i < n; ++i) {
        unsigned v = (unsigned)h[i];
        v = (int)v < 0 ? 0u - v : v;
        ref[i % cols] = std::max(ref[i % cols], v);
    }
    const int sets = std::max(1, (int)((256ull << 20) / bytes) + 1);
    std::vector<int *> src(sets);
    std::vector<char *> dst(sets);
    for (int i = 0; i < sets; ++i) {
        OK(cudaMalloc(&src[i], bytes));
        OK(cudaMalloc(&dst[i], bytes));
        OK(cudaMemcpy(src[i], h.data(), bytes, cudaMemcpyHostToDevice));
    }
    unsigned *out;
    OK(cudaMalloc(&out, cols * 4));
    cudaStream_t st;
    OK(cudaStreamCreate(&st));
    std::vector<cfg> cs;
    const int kw = (cols + 511) / 512;
    for (int v : {1, 2, 4})
        if (v == 1 || cols % 2 == 0)
            for (int it : {4, 8, 16})
                for (int w : {1, 2, 4})
                    cs.push_back({v, it, w});
    auto launch = [&](const cfg &c, int i) {
        if (c.v < 0) {
            const int v = -c.v, wn = 32 * v;
            const int strips = (cols + wn - 2) / wn + 1;
            int segs = std::max(1, c.waves * sms * 8 / strips);
            int seg = (rows + segs - 1) / segs;
            seg = (seg + 8 * c.it - 1) / (8 * c.it) * (8 * c.it);
            segs = (rows + seg - 1) / seg;
            dim3 g(strips, segs);
#define V(A, B) if (v == A && c.it == B) win_amax<A, B><<<g, 256, 0, st>>>(src[i], out, rows, cols, seg)
            V(1, 4); V(1, 8); V(2, 4); V(2, 8); V(2, 16); V(4, 4); V(4, 8);
#undef V
            return;
        }
        if (c.v == 0) {
            const int chunks = rows / 4;
            int blocks = std::min(chunks, c.waves * sms);
            int segc = (chunks + blocks - 1) / blocks;
            blocks = (chunks + segc - 1) / segc;
#define W(K, IT) if (kw == K && c.it == IT) flat_wide<K, IT><<<blocks, 512, 0, st>>>(src[i], out, rows, cols, segc)
            W(1, 1); W(1, 2); W(1, 4); W(2, 1); W(2, 2); W(2, 4);
            W(3, 1); W(3, 2); W(3, 4); W(4, 1); W(4, 2); W(4, 4);
#undef W
            return;
        }
        const int strips = (cols + 32 * c.v - 1) / (32 * c.v);
        int segs = std::max(1, c.waves * sms * 8 / strips);
        int seg = (rows + segs - 1) / segs;
        seg = (seg + 7) / 8 * 8;
        segs = (rows + seg - 1) / seg;
        dim3 g(strips, segs);
#define L(V, IT) if (c.v == V && c.it == IT) cols_amax<V, IT><<<g, 256, 0, st>>>(src[i], out, rows, cols, seg)
        L(1, 4); L(1, 8); L(1, 16); L(2, 4); L(2, 8); L(2, 16); L(4, 4); L(4, 8); L(4, 16);
#undef L
    };
    std::printf("i32 amax down %dx%d (%d sets)\n", rows, cols, sets);
    // V 0: flat_wide (K = ceil(cols / 512) vectors a thread), it = chunks
    // in flight, waves = blocks of 512 an SM.
    // V -1, -2, -4: win_amax<V, IT>, IT where 8 IT cols is a multiple
    // of 32V; waves as the strips'.
    for (int v : {1, 2, 4})
        for (int it : {4, 8, 16})
            if ((8LL * it * cols) % (32 * v) == 0 && !(v == 4 && it == 16) &&
                !(v == 1 && it == 16))
                for (int w : {1, 2, 4})
                    cs.insert(cs.begin(), cfg{-v, it, w});
    if (kw <= 4)
        for (int it : {1, 2, 4})
            for (int w : {1, 2, 3, 4})
                cs.insert(cs.begin(), cfg{0, it, w});
    std::printf("V IT waves  ms  share_of_copy  wrong\n");
    for (const cfg &c : cs) {
        OK(cudaMemset(out, 0, cols * 4));
        launch(c, 0);
        OK(cudaDeviceSynchronize());
        std::vector<unsigned> got(cols);
        OK(cudaMemcpy(got.data(), out, cols * 4, cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int j = 0; j < cols; ++j)
            wrong += got[j] != ref[j];
        double med[2];
        xc_medians([&](int k, int i) {
            if (k == 0)
                OK(cudaMemcpyAsync(dst[i], src[i], bytes, cudaMemcpyDeviceToDevice, st));
            else
                launch(c, i);
        }, st, 2, sets, med);
        OK(cudaGetLastError());
        std::printf("%d %2d %d  %.4f  %.1f%%  %d\n", c.v, c.it, c.waves, med[1],
                    100.0 * (bytes / med[1]) / (2.0 * bytes / med[0]), wrong);
    }
    return 0;
}
