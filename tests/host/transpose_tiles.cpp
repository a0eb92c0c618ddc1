/* templates/transpose.cu's tile kind run on the host (make check, through
 * tests/template_host.sh; no GPU): its index arithmetic, for one (packed or
 * unpacked) configuration given by -D flags (AT_ELEM_BYTES, AT_TILE_X/Y,
 * AT_BLOCK_X/Y, AT_VEC, AT_SMEM, AT_CSKEW, AT_ROW_EXTRA, AT_EDGE,
 * AT_SHIFT_IN, AT_FLAT_IN/OUT;
 * TEMPLATE the
 * template's path). Each tile runs as the kernel runs it: every thread's
 * load and put into shared memory, then every thread's store (the
 * kernel's skew flag, vec_ok and in_end as it computes them); without
 * AT_EDGE, the emitted launcher's split onto the general kernel for the
 * strips. Shared memory is exactly the launch's size and filled with
 * random bytes before each tile, registers too; built under ASan and
 * UBSan, so a read outside shared memory or the input stops it. Every
 * output byte's writes are counted: a problem fails on a wrong or
 * missing byte, a byte written outside the output, or two fast tiles
 * writing one byte. The problems sit around the skew's reach (rows
 * TY-3 to 3TY+7, columns TX to 2TX-1), odd and padded lds, buffers off
 * by 1 to 32/e elements, batches with stride_out off the sector.
 *
 * A check of the template's arithmetic, not of the GPU: a thread here
 * runs to the barrier alone, so warp intrinsics (none in the tile kind)
 * and timing are not modelled; gpu_variants verifies every point on the
 * device. Written for the review of the packed skew (4572932;
 * docs/perf/issue36-h100/packed-skew/host-emulation). Exits 1 on a
 * failure; prints one summary line. */
#include "cuda_stubs.h"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <random>
#include TEMPLATE
unsigned char at_smem[16];

struct Prob { int rows, cols; long long ld_in, ld_out; int batch; long long stride_in, stride_out; int in_off, out_off; };
struct Regs { at_vec_u r[AT_LOAD_ROWS][AT_LOAD_COLS][AT_PACK]; };

static std::mt19937_64 rng(12345);
static long fails = 0, probs = 0, fastfast = 0, edgeov = 0, skewtiles = 0, fasttiles = 0, flatin = 0, flatout = 0;
static int dseen[64];

static const char *pname() { static char b[160]; snprintf(b, sizeof b, "E%d T%dx%d B%dx%d V%d S%d CS%d EX%d EDGE%d SHIFTIN%d FLAT%d%d", AT_ELEM_BYTES, AT_TILE_X, AT_TILE_Y, AT_BLOCK_X, AT_BLOCK_Y, AT_VEC, AT_SMEM, AT_CSKEW, AT_ROW_EXTRA, AT_EDGE, AT_SHIFT_IN, AT_FLAT_IN, AT_FLAT_OUT); return b; }

/* One kernel launch, simulated block-phase by block-phase; counts writes per byte. */
static void kernel_sim(const at_elem *in, at_elem *out, int rows, int cols, long long ld_in, long long ld_out,
                       int batch, long long stride_in, long long stride_out,
                       unsigned char *scratch, size_t nbytes, unsigned char *final_, int *cnt, unsigned char *fastw)
{
    const long long tiles_x = ((long long)cols + AT_TILE_X - 1) / AT_TILE_X;
    const long long tiles_y = ((long long)rows + AT_TILE_Y - 1) / AT_TILE_Y;
    const long long tiles = tiles_x * tiles_y * batch;
    const at_elem *in_end = in + (batch - 1) * stride_in + (long long)(rows - 1) * ld_in + cols;
    /* The kernel's own flags (skew, vec_ok, flat runs). */
    const at_flags f = at_flags_of(in, out, rows, cols, ld_in, ld_out, batch, stride_in, stride_out);
    const size_t smem = AT_SMEM_BYTES;
    unsigned char *sm = (unsigned char *)malloc(smem);
    std::vector<Regs> regs(AT_THREADS);
    for (long long t = 0; t < tiles; ++t) {
        const at_tile s = at_tile_at(in, out, rows, cols, ld_in, ld_out, stride_in, stride_out, tiles_x, tiles_y, t, f.vec_ok, f.flat_in, in_end);
        for (size_t i = 0; i < smem; ++i) sm[i] = (unsigned char)rng();
        for (auto &R : regs) { unsigned char *p = (unsigned char *)&R; for (size_t i = 0; i < sizeof R; ++i) p[i] = (unsigned char)rng(); }
        at_unit *tile = (at_unit *)sm; at_elem *etile = (at_elem *)sm;
        for (int ty = 0; ty < AT_BLOCK_Y; ++ty) for (int tx = 0; tx < AT_BLOCK_X; ++tx) {
            const int tid = ty * AT_BLOCK_X + tx;
            if (s.fast && !f.flat_in) at_load(regs[tid].r, s.in, ld_in, tx, ty, AT_RV(s), AT_CV(s));
            at_tile_in(tile, etile, s, regs[tid].r, ld_in, tx, ty, tid, f);
        }
        for (int ty = 0; ty < AT_BLOCK_Y; ++ty) for (int tx = 0; tx < AT_BLOCK_X; ++tx)
            at_tile_out(tile, etile, s, ld_out, tx, ty, ty * AT_BLOCK_X + tx, f);
        if (s.fast) { fasttiles++; if (f.skew) skewtiles++; if (f.flat_in) flatin++; if (f.flat_out) flatout++; }
        for (size_t i = 0; i < nbytes; ++i) if (scratch[i] != 0xFF) {
            if (cnt[i]) { if (fastw[i] && s.fast) fastfast++; else edgeov++; if (final_[i] != scratch[i]) { fails++; } }
            cnt[i]++; fastw[i] = s.fast; final_[i] = scratch[i]; scratch[i] = 0xFF;
        }
    }
    free(sm);
}

static void general_sim(const at_elem *in, at_elem *out, int rows, int cols, long long ld_in, long long ld_out,
                        int batch, long long stride_in, long long stride_out,
                        unsigned char *scratch, size_t nbytes, unsigned char *final_, int *cnt, unsigned char *fastw)
{
    for (int z = 0; z < batch; ++z) for (int c = 0; c < cols; ++c) for (int r = 0; r < rows; ++r)
        out[z * stride_out + (long long)c * ld_out + r] = in[z * stride_in + (long long)r * ld_in + c];
    for (size_t i = 0; i < nbytes; ++i) if (scratch[i] != 0xFF) { if (cnt[i]) edgeov++; cnt[i]++; fastw[i] = 0; final_[i] = scratch[i]; scratch[i] = 0xFF; }
}

static void run(const Prob &P)
{
    probs++;
    const int E = AT_ELEM_BYTES;
    const long long in_n = P.in_off + (long long)(P.batch - 1) * P.stride_in + (long long)(P.rows - 1) * P.ld_in + P.cols;
    const long long out_n = P.out_off + (long long)(P.batch - 1) * P.stride_out + (long long)(P.cols - 1) * P.ld_out + P.rows;
    unsigned char *ib = (unsigned char *)malloc(in_n * E);
    for (long long i = 0; i < in_n * E; ++i) ib[i] = (unsigned char)(rng() % 255);
    unsigned char *ob = (unsigned char *)malloc(out_n * E);
    memset(ob, 0xFF, out_n * E);
    std::vector<unsigned char> fin(out_n * E, 0xFF), fw(out_n * E, 0);
    std::vector<int> cnt(out_n * E, 0);
    const at_elem *in = (const at_elem *)ib + P.in_off;
    at_elem *out = (at_elem *)ob + P.out_off;
    const long long ff0 = fastfast;
    for (int c = 0; c < P.cols && c < 64; ++c) { long long a = (long long)(unsigned long long)(out + (long long)c * P.ld_out); dseen[(32 - a % 32) % 32 / E] = 1; }
#if AT_EDGE
    kernel_sim(in, out, P.rows, P.cols, P.ld_in, P.ld_out, P.batch, P.stride_in, P.stride_out, ob, out_n * E, fin.data(), cnt.data(), fw.data());
#else
    /* the emitted launcher's GENERAL_LAUNCH */
    const long long aw = AT_VEC * AT_PACK; const unsigned long long ab = aw * E;
    const int rows_w = P.rows - P.rows % AT_TILE_Y, cols_w = P.cols - P.cols % AT_TILE_X;
    if (rows_w == 0 || cols_w == 0 || P.ld_in % aw || (P.batch > 1 && P.stride_in % aw) || (unsigned long long)in % ab ||
        (!AT_SKEW && (P.ld_out % aw || (P.batch > 1 && P.stride_out % aw) || (unsigned long long)out % ab)))
        general_sim(in, out, P.rows, P.cols, P.ld_in, P.ld_out, P.batch, P.stride_in, P.stride_out, ob, out_n * E, fin.data(), cnt.data(), fw.data());
    else {
        if (cols_w < P.cols) general_sim(in + cols_w, out + (long long)cols_w * P.ld_out, P.rows, P.cols - cols_w, P.ld_in, P.ld_out, P.batch, P.stride_in, P.stride_out, ob, out_n * E, fin.data(), cnt.data(), fw.data());
        if (rows_w < P.rows) general_sim(in + (long long)rows_w * P.ld_in, out + rows_w, P.rows - rows_w, cols_w, P.ld_in, P.ld_out, P.batch, P.stride_in, P.stride_out, ob, out_n * E, fin.data(), cnt.data(), fw.data());
        kernel_sim(in, out, rows_w, cols_w, P.ld_in, P.ld_out, P.batch, P.stride_in, P.stride_out, ob, out_n * E, fin.data(), cnt.data(), fw.data());
    }
#endif
    /* verify */
    long bad = 0, miss = 0, multi = 0, stray = 0;
    std::vector<unsigned char> want(out_n * E, 0), inm(out_n * E, 0);
    for (int z = 0; z < P.batch; ++z) for (int c = 0; c < P.cols; ++c) for (int r = 0; r < P.rows; ++r) {
        long long o = (P.out_off + z * P.stride_out + (long long)c * P.ld_out + r) * E;
        long long i = (P.in_off + z * P.stride_in + (long long)r * P.ld_in + c) * E;
        for (int b = 0; b < E; ++b) { want[o + b] = ib[i + b]; inm[o + b] = 1; }
    }
    for (long long k = 0; k < out_n * E; ++k) {
        if (inm[k]) { if (cnt[k] == 0) miss++; else if (fin[k] != want[k]) bad++; if (cnt[k] > 1) multi++; }
        else if (cnt[k]) stray++;
    }
    if (bad || miss || stray || fastfast != ff0) {
        fails++;
        if (fails < 20) printf("FAIL %s: rows %d cols %d ld %lld/%lld batch %d strides %lld/%lld offs %d/%d: bad %ld missing %ld stray %ld multi %ld fastfast %lld\n",
               pname(), P.rows, P.cols, P.ld_in, P.ld_out, P.batch, P.stride_in, P.stride_out, P.in_off, P.out_off, bad, miss, stray, multi, fastfast - ff0);
    }
    free(ib); free(ob);
}

static long long pick(std::initializer_list<long long> l) { auto it = l.begin(); std::advance(it, rng() % l.size()); return *it; }
static long long up(long long x, long long m) { return (x + m - 1) / m * m; }

int main(int argc, char **argv)
{
    const int TX = AT_TILE_X, TY = AT_TILE_Y, E = AT_ELEM_BYTES, SR = AT_SKEW_ROWS;
    const long long aw = AT_VEC * AT_PACK;
    rng.seed(argc > 1 ? atoll(argv[1]) : 1);
#if AT_EDGE
    const long long rows_opts[] = {TY > 3 ? TY - 3 : 1, 5, TY, TY + 1, 2 * TY - 1, 2 * TY, 2 * TY + 1, 2 * TY + 3, 2 * TY + SR - 1, 2 * TY + SR, 2 * TY + SR + 1, 2 * TY + SR / 2, 3 * TY + 7};
    for (long long rows : rows_opts) for (int rep = 0; rep < 3; ++rep) {
        Prob P;
        P.rows = (int)rows;
        P.cols = (int)pick({(long long)TX, TX + 1LL, 2LL * TX - 1, 2LL * TX, TX + 3LL});
        P.ld_in = pick({(long long)P.cols, P.cols + 1LL, up(P.cols, 16) + aw, up(P.cols, 16)});
        P.ld_out = pick({(long long)P.rows, P.rows + 1LL, P.rows + 3LL, up(P.rows, 32 / E) + 1, up(P.rows, aw) + aw, up(P.rows, 32 / E)});
        P.batch = (int)pick({1, 1, 2});
        P.stride_in = P.batch > 1 ? (long long)P.rows * P.ld_in + pick({0, 1, aw, 16}) : 0;
        P.stride_out = P.batch > 1 ? (long long)P.cols * P.ld_out + pick({0, 1, 3, aw, 32 / E}) : 0;
        P.in_off = (int)pick({0, 0, 0, 1, aw});
        P.out_off = (int)pick({0, 0, 1, 2, 3, aw, 16 / E, 32 / E});
        if (P.batch == 1) { P.stride_in = (long long)P.rows * P.ld_in; P.stride_out = (long long)P.cols * P.ld_out; }
        run(P);
    }
#else
    const long long rows_opts[] = {TY, 2 * TY, 3 * TY, 2 * TY + 5, 2LL * TY + SR};
    for (long long rows : rows_opts) for (int rep = 0; rep < 3; ++rep) {
        Prob P;
        P.rows = (int)rows;
        P.cols = (int)pick({(long long)TX, 2LL * TX, 2LL * TX + 3});
        P.ld_in = pick({up(P.cols, aw), up(P.cols, aw) + aw, up(P.cols, 16) + 16});
        P.ld_out = pick({(long long)P.rows, P.rows + 1LL, P.rows + 3LL, P.rows + aw, P.rows + 16LL / E, P.rows + 32LL / E});
        P.batch = (int)pick({1, 1, 2});
        P.stride_in = (long long)P.rows * P.ld_in + (P.batch > 1 ? pick({0, aw, 16}) : 0);
        P.stride_out = (long long)P.cols * P.ld_out + (P.batch > 1 ? pick({0, 1, 3, aw, 32 / E}) : 0);
        P.in_off = 0;
        P.out_off = (int)pick({0, 0, 1, 2, 3, aw, 16 / E, 32 / E});
        run(P);
    }
#endif
#if AT_FLAT_IN || AT_FLAT_OUT
    /* Tiles that span the rows (columns) of matrices whose output (input)
     * rows are end to end: flat runs, starting anywhere in a vector. */
    for (int rep = 0; rep < 24; ++rep) {
        Prob P;
#if AT_EDGE
        P.rows = (int)pick({(long long)TY, TY - 3LL, TY / 2 + 1LL, 5, 2LL * TY + 1});
        P.cols = (int)pick({(long long)TX, TX - 5LL, TX / 2 + 3LL, 2LL * TX + 1});
        P.ld_in = pick({(long long)P.cols, (long long)P.cols, P.cols + 1LL});
        P.ld_out = pick({(long long)P.rows, (long long)P.rows, P.rows + 1LL});
        P.in_off = (int)pick({0, 1, 3, aw});
        P.out_off = (int)pick({0, 1, 2, 3, 16 / E});
#else
        P.rows = TY;
        P.cols = TX;
        P.ld_in = TX;
        P.ld_out = TY;
        P.in_off = 0;
        P.out_off = (int)pick({0, 1, 3, 16 / E});
#endif
        P.batch = (int)pick({1, 1, 3});
        P.stride_in = (long long)P.rows * P.ld_in + (P.batch > 1 ? pick({0, 0, 1, aw}) : 0);
        P.stride_out = (long long)P.cols * P.ld_out + (P.batch > 1 ? pick({0, 0, 1, 3}) : 0);
        run(P);
    }
#endif
    int nd = 0; for (int i = 0; i < 32 / E; ++i) nd += dseen[i];
    printf("%s: problems %ld fails %ld fast tiles %ld skewed %ld flat in %ld flat out %ld fast-fast overlaps %ld edge overlaps %ld d values seen %d/%d\n",
           pname(), probs, fails, fasttiles, skewtiles, flatin, flatout, fastfast, edgeov, nd, 32 / E);
    /* Flat runs compiled in and never taken: the problems missed them. */
    if ((AT_FLAT_IN && !flatin) || (AT_FLAT_OUT && !flatout)) {
        printf("FAIL %s: no tile took the flat runs compiled in\n", pname());
        return 1;
    }
    return fails ? 1 : 0;
}
