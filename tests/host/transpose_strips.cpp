/* templates/transpose.cu's strip kind run on the host (make check,
 * through tests/strip_host.sh; no GPU): one configuration given by -D
 * flags (AT_ELEM_BYTES, AT_SHORT, AT_SHORT_ROWS, AT_VEC, AT_STEPS,
 * AT_STAGE, AT_REALIGN; AT_BLOCK_Y; TEMPLATE the template's path), on
 * problems whose long rows sit off every vector and sector (odd and
 * padded lds, runs end to end and apart, batches end to end and apart,
 * an output one element off its vector). Every thread of a block runs as
 * a std::thread, each warp's 32 in step at its shuffles and votes
 * (warp_stubs.h), so the staged runs' and the realigned stores' lane
 * exchanges run as on the GPU; with AT_GATHER, the block's threads meet
 * at a barrier for __syncthreads and the asynchronous copies are plain
 * ones. Buffers are exactly the problem's size (the input's start, too,
 * off its vectors in some), under ASan and UBSan; the output's padding
 * is poisoned and must stay so. A check of the template's arithmetic and
 * lane logic, not of the GPU: gpu_variants verifies every point there.
 * Exits 1 on a failure; prints one summary line. */
#include "warp_stubs.h"
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>
unsigned int at_stage_sm[32 * 1024];
alignas(16) unsigned char at_gather_sm[256 * 1024];
/* Gathered tiles' copies done at once (on the GPU the barrier after the
 * wait orders them alike). */
#define AT_CP_ASYNC_GIVEN 1
static inline void at_cp16(void *d, const void *s) { std::memcpy(d, s, 16); }
static inline void at_cp_commit() {}
static inline void at_cp_wait_prior() {}
#include TEMPLATE

enum { THREADS = 32 * AT_BLOCK_Y };

struct Prob {
    int n;                /* positions along the long side */
    long long ld_in, ld_out;
    int batch;
    long long stride_in, stride_out;
    int out_off;          /* elements the output starts past its block */
    int in_off;           /* and the input */
};

/* Element s of position i of matrix z: where it sits in the input (the
 * long rows are the input's with AT_SHORT_ROWS) and in the output. */
static long long in_at(const Prob &p, int z, long long i, int s)
{
    return z * p.stride_in + (AT_SHORT_ROWS ? s * p.ld_in + i : i * p.ld_in + s);
}
static long long out_at(const Prob &p, int z, long long i, int s)
{
    return z * p.stride_out +
           (AT_SHORT_ROWS ? i * p.ld_out + s : s * p.ld_out + i);
}

/* One launch of grid blocks, a block at a time, its threads at once. */
static void launch(const at_elem *in, at_elem *out, const Prob &p, int grid)
{
    gridDim = {(unsigned)grid, 1, 1};
    for (int b = 0; b < grid; ++b) {
        blockIdx = {(unsigned)b, 0, 0};
        std::barrier<> block(THREADS);
        at_hblock = &block;
        std::vector<at_host_warp> warps(THREADS / 32);
        std::vector<std::thread> ts;
        for (int t = 0; t < THREADS; ++t)
            ts.emplace_back([&, t] {
                threadIdx = {(unsigned)(t % 32), (unsigned)(t / 32), 0};
                at_hw = &warps[t / 32];
                at_hlane = t % 32;
                AT_KERNEL(in, out, AT_SHORT_ROWS ? AT_SHORT : p.n,
                          AT_SHORT_ROWS ? p.n : AT_SHORT, p.ld_in, p.ld_out,
                          p.batch, p.stride_in, p.stride_out);
            });
        for (auto &t : ts)
            t.join();
    }
}

static std::mt19937_64 rng(20261127);

/* Exact-size buffers; returns the number of wrong elements. */
static long run(const Prob &p)
{
    const long long in_n = in_at(p, p.batch - 1, p.n - 1, AT_SHORT - 1) + 1;
    const long long out_n = out_at(p, p.batch - 1, p.n - 1, AT_SHORT - 1) + 1;
    at_elem *in_blk = new at_elem[in_n + p.in_off];
    at_elem *in = in_blk + p.in_off;
    at_elem *blk = new at_elem[out_n + p.out_off];
    at_elem *out = blk + p.out_off;
    unsigned char *ib = (unsigned char *)in, *ob = (unsigned char *)blk;
    for (size_t i = 0; i < in_n * sizeof(at_elem); ++i)
        ib[i] = (unsigned char)rng();
    std::memset(ob, 0xAB, (out_n + p.out_off) * sizeof(at_elem));
    const long long groups =
        ((long long)p.n + AT_VEC - 1) / AT_VEC * p.batch;
    const long long per = (long long)THREADS * AT_STEPS;
    long long blocks = (groups + per - 1) / per;
    /* Few blocks, so the grid-stride loop turns too. */
    launch(in, out, p, (int)(blocks < 3 ? blocks : 3));
    long wrong = 0;
    std::vector<char> data(out_n, 0);
    for (int z = 0; z < p.batch; ++z)
        for (int s = 0; s < AT_SHORT; ++s)
            for (int i = 0; i < p.n; ++i) {
                const long long o = out_at(p, z, i, s);
                data[o] = 1;
                const at_elem &want = in[in_at(p, z, i, s)];
                wrong += std::memcmp(&out[o], &want, sizeof(at_elem)) != 0;
            }
    for (long long o = -p.out_off; o < out_n; ++o)
        if (o < 0 || !data[o]) {
            const unsigned char *c = (const unsigned char *)&out[o];
            for (size_t k = 0; k < sizeof(at_elem); ++k)
                wrong += c[k] != 0xAB;
        }
    delete[] in_blk;
    delete[] blk;
    return wrong;
}

int main()
{
    const int s = AT_SHORT, v = AT_VEC;
    std::vector<Prob> ps;
    /* ld: between long rows; s or s + 1: between runs. */
    auto prob = [&](int n, long long ld, long long run, int batch,
                    int apart, int off) {
        const long long longs = s * ld + 5 * apart, runs = n * run + 2 * apart;
        return AT_SHORT_ROWS
                   ? Prob{n, ld, run, batch, longs, runs, off, 0}
                   : Prob{n, run, ld, batch, runs, longs, off, 0};
    };
    for (int n : {v * 32 * 3 + 5, 517, 4099})
        for (long long pad : {0, 1, 3}) {
            const long long ld = n + pad;
            ps.push_back(prob(n, ld, s, 1, 0, 0));
            ps.push_back(prob(n, ld, s + 1, 1, 0, 1));
            /* batches: apart (strides padded), and end to end */
            ps.push_back(prob(n, ld, s, 3, 1, 0));
            ps.push_back(prob(n, ld, s, 3, 0, 0));
            /* the input's start off its vectors */
            Prob q = prob(n, ld, s, 1, 0, 0);
            q.in_off = 1;
            ps.push_back(q);
        }
    /* Batches whose output matrices start on 16 bytes (1040 positions),
     * end to end, and with the input's rows, matrices and start off
     * them: gathered tiles take these (with AT_GATHER). */
    for (long long pad : {0, 3}) {
        ps.push_back(prob(1040, 1040 + pad, s, 3, 0, 0));
        Prob q = prob(1040, 1040 + pad, s, 3, 0, 0);
        (AT_SHORT_ROWS ? q.stride_in : q.stride_out) += 5;
        q.in_off = 3;
        ps.push_back(q);
    }
#if AT_GATHER
    /* Runs a few elements apart and more than 16 bytes apart, the
     * output's start off its vectors: gathered tiles walk the first as
     * one stretch, the second a run at a time. */
    for (long long run : {s + 9, s + 40})
        ps.push_back(prob(1040, 1043, run, 2, 1, 3));
#endif
    long fails = 0;
    for (const Prob &p : ps) {
        const long w = run(p);
        if (w) {
            ++fails;
            std::printf("FAILED n %d ld_in %lld ld_out %lld batch %d "
                        "strides %lld/%lld out_off %d: %ld wrong\n",
                        p.n, p.ld_in, p.ld_out, p.batch, p.stride_in,
                        p.stride_out, p.out_off, w);
        }
    }
    std::printf("E%d short %d %s vec %d steps %d stage %d realign %d "
                "gather %d: problems %zu fails %ld\n",
                AT_ELEM_BYTES, AT_SHORT, AT_SHORT_ROWS ? "rows" : "cols",
                AT_VEC, AT_STEPS, AT_STAGE, AT_REALIGN, AT_GATHER, ps.size(),
                fails);
    return fails != 0;
}
