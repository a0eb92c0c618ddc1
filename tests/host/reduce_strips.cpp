/* templates/reduce.cu's column strips run on the host (make check,
 * through tests/reduce_host.sh; no GPU): one point given by -D flags
 * (AT_TYPE 0 f32 or 3 bf16, AT_OP 0 sum or 2 max, AT_THREADS, AT_GROUP,
 * AT_VEC, AT_ITEMS, AT_SHIFT, AT_ANY_BASE; TEMPLATE the template's
 * path), down columns, one block a strip (no split), on problems whose
 * rows sit off the vector (odd and padded lds, a last strip part full,
 * one row to whole steps of the walk and past them) and, with AT_ANY_BASE, on inputs one element and a
 * vector less one past an aligned start. Every thread of a block runs as
 * a std::thread, the block meeting at __syncthreads (warp_stubs.h).
 * Buffers are exactly the problem's size, under ASan and UBSan, so a
 * shifted pair read past the input's end or before its aligned block
 * shows. Elements are small whole numbers, so every sum is exact in any
 * order. A check of the template's arithmetic and addressing, not of the
 * GPU: gpu_reduce verifies every point there. Exits 1 on a failure;
 * prints one summary line. */
#include "reduce_stubs.h"
#include <cstdio>
#include <new>
#include <random>
#include <thread>
#include <vector>
#include TEMPLATE

static_assert(AT_COLS == 1 && (AT_TYPE == 0 || AT_TYPE == 3) &&
                  (AT_OP == 0 || AT_OP == 2),
              "down columns of f32 or bf16, sum or max");

/* A whole number as an element (bf16: a float's high half, exact). */
static at_in elem(int k)
{
    const float f = (float)k;
#if AT_TYPE == 3
    return (at_in)(at_hbits<unsigned>(f) >> 16);
#else
    return f;
#endif
}

/* One launch: a block a strip, a block at a time, its threads at once
 * (the same host threads for every block: thread 0 moves blockIdx on
 * while the others wait, so a block starts when the last has ended). */
static void launch(const at_in *in, at_out *out, long long rows,
                   long long cols, long long ld)
{
    const long long strips = (cols + AT_W - 1) / AT_W;
    gridDim = {(unsigned)strips, 1, 1};
    std::barrier<> block(AT_THREADS);
    at_hblock = &block;
    std::vector<at_host_warp> warps((AT_THREADS + 31) / 32);
    std::vector<std::thread> ts;
    for (int t = 0; t < AT_THREADS; ++t)
        ts.emplace_back([&, t] {
            threadIdx = {(unsigned)t, 0, 0};
            at_hw = &warps[t / 32];
            at_hlane = t % 32;
            for (long long b = 0; b < strips; ++b) {
                if (t == 0)
                    blockIdx = {(unsigned)b, 0, 0};
                block.arrive_and_wait();
                AT_KERNEL(in, out, nullptr, rows, cols, ld, rows, 0);
                block.arrive_and_wait();
            }
        });
    for (auto &t : ts)
        t.join();
}

static std::mt19937_64 rng(20261129);

/* The input placed off elements past an aligned start; returns the
 * number of wrong columns. */
static long run(long long rows, long long cols, long long ld, int off)
{
    const long long n = (rows - 1) * ld + cols;
    const size_t bytes = (size_t)(n + off) * sizeof(at_in);
    void *blk = ::operator new[](bytes, std::align_val_t(16));
    at_in *in = (at_in *)blk + off;
    std::vector<float> want(cols, AT_OP == 0 ? 0.0f : -1e30f);
    for (long long r = 0; r < rows; ++r)
        for (long long c = 0; c < ld && r * ld + c < n; ++c) {
            const int k = (int)(rng() % 17) - 8;
            in[r * ld + c] = elem(c < cols ? k : 99); /* padding: 99 */
            if (c < cols)
                want[c] = AT_OP == 0 ? want[c] + (float)k
                                     : (want[c] > k ? want[c] : (float)k);
        }
    for (int i = 0; i < off; ++i)
        ((at_in *)blk)[i] = elem(99);
    at_out *out = new at_out[cols];
    launch(in, out, rows, cols, ld);
    long wrong = 0;
    for (long long c = 0; c < cols; ++c)
        wrong += out[c] != want[c];
    delete[] out;
    ::operator delete[](blk, std::align_val_t(16));
    return wrong;
}

int main()
{
    const int w = AT_W, v = AT_VEC;
    long problems = 0, fails = 0;
    /* Offsets of the input past an aligned start: one element and a
     * vector less one with AT_ANY_BASE. */
    std::vector<int> offs{0};
    if (AT_ANY_BASE)
        offs.push_back(1);
    if (AT_ANY_BASE && v > 2)
        offs.push_back(v - 1);
    /* Rows: one; whole steps of the unrolled walk, so its last step
     * takes the last row (and a pair read past the input's end shows);
     * and two rows past them, left to the element path. */
    const long long step = (long long)AT_ITEMS * AT_TY;
    for (long long rows : {1LL, 3 * step, 3 * step + 2})
        for (long long cols : {5, 2 * w + 1, 301})
            for (long long pad : {0, 1, 6}) {
                const long long ld = cols + pad;
                /* A point that does not shift takes ld on its vector. */
                if (!AT_SHIFT && ld % v)
                    continue;
                for (int off : offs) {
                    ++problems;
                    const long bad = run(rows, cols, ld, off);
                    if (bad) {
                        ++fails;
                        std::printf("FAILED rows %lld cols %lld ld %lld "
                                    "offset %d: %ld columns wrong\n",
                                    rows, cols, ld, off, bad);
                    }
                }
            }
    std::printf("type %d op %d thr %d grp %d vec %d items %d shift %d "
                "any_base %d: problems %ld fails %ld\n",
                AT_TYPE, AT_OP, AT_THREADS, AT_GROUP, AT_VEC, AT_ITEMS,
                AT_SHIFT, AT_ANY_BASE, problems, fails);
    return fails != 0;
}
