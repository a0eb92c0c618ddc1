/* Out-of-place transpose of a batch of matrices: out[z][c][r] = in[z][r][c],
 * for 1-, 2-, 4-, 8- and 16-byte elements (bits are moved, never
 * interpreted).
 *
 * Two kinds of kernel: tiles through shared memory for every shape, and
 * strips for matrices with a short side (AT_STRIP 1, the first section
 * below, its macros described there). A tile point is chosen by the
 * generator with these macros:
 *   AT_ELEM_BYTES          1, 2, 4, 8 or 16
 *   AT_TILE_X, AT_TILE_Y   tile of the input: columns, rows (elements)
 *   AT_BLOCK_X, AT_BLOCK_Y threads
 *   AT_PACK                1, or 4 / AT_ELEM_BYTES for 1- and 2-byte
 *                          elements: that many rows of elements are packed
 *                          into 32-bit words and transposed in registers
 *                          with byte permutes, so shared memory and global
 *                          memory see whole words
 *   AT_VEC                 units per global load/store, a unit being an
 *                          element (AT_PACK 1) or a packed word; <= 16 B
 *   AT_SMEM                shared tile layout: 0 plain, 1 padded rows
 *                          (AT_ROW_EXTRA units a row, 1 by default), 2
 *                          swizzled (16-byte chunks XORed by row, no
 *                          padding)
 *   AT_CSKEW, AT_ROW_EXTRA (AT_SMEM 1, packed tiles) a padded row's
 *                          units after every 32 and at its end: set by
 *                          the generator for its smem 3 points
 *                          (gen/transpose_smem.c) so that a warp's put
 *                          and column reads hit distinct banks; 0 and 1
 *                          by default
 *   AT_TILES               tiles per block, in sequence; the next tile's
 *                          loads are issued before the current one is
 *                          stored
 *   AT_LDG                 1: loads through the read-only cache (__ldg)
 *   AT_RESTRICT            1: pointers are __restrict__
 *   AT_KERNEL              the kernel's name
 *
 * and these code paths, each compiled in only where the problem the
 * variant is made for needs it (NVRTC's time grows with every path):
 *   AT_SKEW                1: skewed stores, for output rows off the
 *                          32-byte sectors (2- to 16-byte elements, and
 *                          packed bytes), every fast tile's (rows on the
 *                          sectors have skew 0); without it such rows
 *                          take the plain paths, correct and slower
 *                          (packed rows off the vector, the element
 *                          path)
 *   AT_THIN                1: the strided copy for vectors (1 x N, N x 1);
 *                          without it vectors go through tiles, correct
 *                          and slower
 *   AT_WIDE                1: 64-bit tile indices; without it a launch
 *                          must have fewer than 2^32 tiles (the emitted
 *                          launcher refuses more)
 *   AT_EDGE                1: tiles cut by the matrix's edge on the
 *                          fast path, and the element path for rows the
 *                          vector width does not divide; without it the
 *                          kernel takes whole tiles on rows (and buffers)
 *                          on its vectors alone, and its launcher sends
 *                          any other launch to another kernel (the
 *                          emitted .cu's plain one; the API's, this point
 *                          with every path)
 *   AT_SHIFT_IN            1 (packed tiles): input rows off the word
 *                          (an odd ld_in of bytes) load whole aligned
 *                          words and funnel-shift them into place, instead
 *                          of taking the element path; rows on it load
 *                          words too (no vectors)
 *   AT_FLAT_OUT            1: where a tile spans the matrix's rows and
 *                          the output rows are end to end (ld_out ==
 *                          rows), the tile's output is one run, stored as
 *                          aligned 16-byte vectors whatever ld_out's
 *                          alignment (a medium-thin matrix's output rows of
 *                          a few hundred bytes, each off the sector)
 *   AT_FLAT_IN             1: the same for loads, where a tile spans the
 *                          matrix's columns and the input rows are end to
 *                          end (ld_in == cols)
 *
 * Launch: block (AT_BLOCK_X, AT_BLOCK_Y), a 1-D grid of
 * min(ceil(tiles / AT_TILES), 2^31 - 1) blocks (the kernel loops), where
 * tiles = ceil(cols / AT_TILE_X) * ceil(rows / AT_TILE_Y) * batch; dynamic
 * shared memory AT_SMEM_BYTES: (AT_TILE_Y + AT_SKEW_ROWS) * (AT_TILE_X + 1)
 * * AT_ELEM_BYTES bytes, or with a padded row wider than AT_TILE_X + 1
 * units, (AT_TILE_Y + AT_SKEW_ROWS) * AT_ROW * AT_ELEM_BYTES.
 *
 * Output rows that do not start on a 32-byte sector (an odd ld_out, say)
 * are written skewed by tiles of 2- to 16-byte elements and packed tiles
 * of 1- and 2-byte ones: a tile writes each output row from the first
 * sector boundary at or after its first element, for AT_TILE_Y elements
 * (the tile above wrote the ones before; the top tile writes them too), so
 * stores cover whole sectors instead of sharing one with the next tile;
 * it reads up to AT_SKEW_ROWS more input rows for that. A packed tile's
 * words are shifted by the boundary's place in a word as they leave
 * shared memory (H100, u8 2605x159740: 80% of the copy with words
 * shifted to the row's place and its ends stored element by element, 89%
 * skewed). An edge tile below a skewed one writes its rows unskewed, the
 * few elements they share with the same values.
 *
 * Tiles whose rows allow the vector width (or shifted words) take the
 * fast path: each thread loads its part of the tile into registers,
 * (transposes packed words in registers,) writes shared memory along rows,
 * and after a barrier reads it down columns and stores whole vectors.
 * With AT_EDGE, tiles cut by the matrix's edge take it too: rows past the
 * last and vectors starting past the last column are neither loaded nor
 * stored, and each output row's last partial vector goes element by
 * element (H100, f16 164 x 304536: 55% of the copy to 93%). Tiles whose
 * loads would pass the input's last element, and rows the vector width
 * does not divide, take the element path, which walks the valid part of
 * the tile linearly so that thin matrices (3 x 1000000, 1 x N) keep every
 * thread busy and their stores contiguous. Without AT_EDGE every tile is
 * whole and takes the fast path. */

#if AT_ELEM_BYTES == 1
typedef unsigned char at_elem;
#elif AT_ELEM_BYTES == 2
typedef unsigned short at_elem;
#elif AT_ELEM_BYTES == 4
typedef unsigned int at_elem;
#elif AT_ELEM_BYTES == 8
typedef unsigned long long at_elem;
#elif AT_ELEM_BYTES == 16
typedef uint4 at_elem;
#else
#error "AT_ELEM_BYTES must be 1, 2, 4, 8 or 16"
#endif

/* AT_MAX_REGS and AT_MIN_BLOCKS (the emitted .cu): the registers a
 * thread and blocks per SM of the tuned build, asked of nvcc so that it
 * keeps the occupancy the tuner measured (nvcc and NVRTC may spend
 * different registers on the same source). The registers themselves
 * where nvcc takes __maxnreg__: held to the fewest blocks alone, nvcc
 * may spend the room on other code (f16 sumsq down 100344x1534,
 * thr512_grp8: 64 registers and 85% of the copy, against NVRTC's 50
 * and 92.5%, docs/PERFORMANCE.md). */
#if defined(AT_MAX_REGS) &&                                              \
    (__CUDACC_VER_MAJOR__ > 12 ||                                        \
     (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define AT_BOUNDS __maxnreg__(AT_MAX_REGS)
#elif defined(AT_MIN_BLOCKS)
#define AT_BOUNDS __launch_bounds__(AT_THREADS, AT_MIN_BLOCKS)
#else
#define AT_BOUNDS __launch_bounds__(AT_THREADS)
#endif

/* A bits type of n bytes, for vectors of units. */
#define AT_BITS_1 unsigned char
#define AT_BITS_2 unsigned short
#define AT_BITS_4 unsigned int
#define AT_BITS_8 uint2
#define AT_BITS_16 uint4
#define AT_BITS_(n) AT_BITS_##n
#define AT_BITS(n) AT_BITS_(n)

#if AT_RESTRICT
#define AT_RST __restrict__
#else
#define AT_RST
#endif

#if AT_LDG
#define AT_LD(p) __ldg(p)
#else
#define AT_LD(p) (*(p))
#endif

/* Empty; the GPU suite's planted faulting, trapping and hanging
 * variants put their code here (runtime/tune/tune_plant.c). */
#ifndef AT_TEST_HOOK
#define AT_TEST_HOOK
#endif

#if AT_STRIP
/* The strip kind, for matrices with a short side: AT_SHORT (1 to 64)
 * elements, a compile-time constant (input rows with AT_SHORT_ROWS 1, else
 * input columns). The other side is long. Its rows are the long rows (the
 * input's with AT_SHORT_ROWS, else the output's); the other buffer holds
 * runs of AT_SHORT elements, one per position along the long side,
 * ld_run apart (contiguous where that is AT_SHORT: AoS <-> SoA, pairs
 * interleaved, copies when AT_SHORT is 1).
 *
 * A thread moves a group: AT_VEC consecutive positions, every short
 * element of each, AT_STEPS groups at a time (all loaded before any is
 * stored). The exchange is in registers: along the long rows it reads or
 * writes AT_SHORT vectors of AT_VEC elements, coalesced across the warp;
 * along the runs, the group's AT_VEC runs, which are one contiguous span
 * where runs are AT_SHORT apart (vectors of AT_DENSE_BYTES), else a run at
 * a time (AT_RUN_BYTES), else element by element where nothing is
 * aligned; or, with AT_STAGE, dense runs a warp at a time through shared
 * memory. No barrier across the block.
 *
 * Macros beside AT_ELEM_BYTES, AT_LDG, AT_RESTRICT and AT_KERNEL:
 *   AT_SHORT, AT_SHORT_ROWS  the short side and which it is
 *   AT_VEC                   positions per group; AT_LONG_BYTES = AT_VEC
 *                            elements (1 to 16 bytes)
 *   AT_STEPS                 groups per thread in flight
 *   AT_BLOCK_X, AT_BLOCK_Y   threads (a 1-D walk)
 *   AT_DENSE_BYTES           largest power of two <= 16 dividing a group's
 *                            bytes, AT_RUN_BYTES a run's
 *   AT_STAGE                 1: dense runs a warp at a time through shared
 *                            memory (groups of a multiple of 4 bytes)
 *   AT_GATHER                1 (1- and 2-byte elements, AT_SHORT_ROWS,
 *                            AT_VEC a word of them): tiles gathered
 *                            through shared memory (at_gather), the
 *                            launch's AT_STEPS tiles a block pipelined
 *   AT_REALIGN               1 (AT_VEC > 1, AT_SHORT_ROWS 0): long output
 *                            rows off AT_LONG_BYTES store whole aligned
 *                            vectors realigned in registers
 *                            (at_long_store) in place of an element at a
 *                            time
 *
 * Launch: block (AT_BLOCK_X, AT_BLOCK_Y), AT_STRIP_SMEM bytes of dynamic
 * shared memory, a 1-D grid of
 * min(ceil(groups / (threads * AT_STEPS)), 2^31 - 1) blocks (the kernel
 * loops), groups = ceil(long / AT_VEC) * batch. Only for problems whose
 * short side is AT_SHORT on the AT_SHORT_ROWS side (the emitted launcher
 * refuses others). */

#define AT_THREADS (AT_BLOCK_X * AT_BLOCK_Y)
#define AT_GROUP (AT_VEC * AT_SHORT)
#ifndef AT_GATHER
#define AT_GATHER 0
#endif
#if AT_GATHER
#if !(AT_SHORT_ROWS && AT_ELEM_BYTES <= 2 && AT_VEC * AT_ELEM_BYTES == 4 && \
      !AT_STAGE)
#error "AT_GATHER is for short input rows of 1- or 2-byte elements, a word a thread"
#endif
#define AT_GW_POS (AT_THREADS * AT_VEC) /* positions a gathered tile */
#define AT_GP (AT_THREADS * 4 + 32) /* a tile row's bytes in shared memory */
#define AT_GSR (AT_SHORT | 1)       /* words a thread stages (odd: banks) */
/* A buffer: a tile's rows, then (once they are read) its staged output
 * in their place. */
#define AT_GBUF                                                          \
    (AT_SHORT * AT_GP > AT_THREADS * 4 * AT_GSR ? AT_SHORT * AT_GP         \
                                                : AT_THREADS * 4 * AT_GSR)
#endif
#if AT_STAGE
/* A group's words, and a warp's 32 groups in shared memory with a word
 * of padding every 32 (lanes write their groups' words AT_GW apart:
 * without it, 32 lanes of an AT_GW of 32 words share a bank). */
#define AT_GW (AT_GROUP * AT_ELEM_BYTES / 4)
#define AT_WARP_WORDS (33 * AT_GW)
#define AT_PAD(i) ((i) + (i) / 32)
#define AT_STRIP_SMEM (AT_THREADS / 32 * AT_WARP_WORDS * 4)
#elif AT_GATHER
/* Two buffers: the next tile's rows arrive in one while the other holds
 * this tile's, then its staged output. (A third buffer for the staged
 * output cost occupancy: H200, u8 31 x 3552786 at 4 blocks an SM, not 6,
 * 0.0667 ms against 0.0627; u8 62 x 2000003 0.084 against 0.077;
 * docs/perf/issue36-h200/r72.sh.) */
#define AT_STRIP_SMEM (2 * AT_GBUF)
#else
#define AT_STRIP_SMEM 0
#endif
#define AT_DN (AT_GROUP * AT_ELEM_BYTES / AT_DENSE_BYTES)
#define AT_RN (AT_SHORT * AT_ELEM_BYTES / AT_RUN_BYTES)
typedef AT_BITS(AT_LONG_BYTES) at_lvec;
typedef AT_BITS(AT_DENSE_BYTES) at_dvec;
typedef AT_BITS(AT_RUN_BYTES) at_rvec;

union at_long_u {
    at_lvec v;
    at_elem e[AT_VEC];
};

/* A group in registers, in run order: element s of position v at
 * e[v * AT_SHORT + s]. */
union at_group_u {
    at_dvec d[AT_DN];
    at_rvec r[AT_VEC * AT_RN];
    at_elem e[AT_GROUP];
#if AT_STAGE
    unsigned int w[AT_GW];
#endif
};

/* How the runs are reached. */
enum { AT_RUN_ELEMS, AT_RUN_RUNS, AT_RUN_DENSE };

#ifndef AT_REALIGN
#define AT_REALIGN 0
#endif
#if AT_REALIGN && (AT_VEC == 1 || AT_SHORT_ROWS)
#error "AT_REALIGN is for vectors of more than one element, output rows long"
#endif

/* How the long rows are reached: their vectors whole where every row is
 * on AT_LONG_BYTES, else element by element, or with AT_REALIGN whole
 * aligned vectors realigned in registers. */
enum { AT_LONG_ELEMS, AT_LONG_VEC, AT_LONG_REALIGN };

#if AT_REALIGN
#define AT_LW (AT_LONG_BYTES >= 4 ? AT_LONG_BYTES / 4 : 1)
union at_lwords {
    at_lvec v;
    unsigned int w[AT_LW];
};

/* Bytes [b, b + AT_LONG_BYTES) of x and y laid end to end, 0 < b <
 * AT_LONG_BYTES: whole words by selects on b's bits (a register indexed
 * at run time would go to local memory), then a funnel shift. */
__device__ __forceinline__ at_lvec at_bytes_at(at_lvec x, at_lvec y,
                                               unsigned int b)
{
#if AT_LONG_BYTES == 2
    const unsigned int t = (unsigned int)x | (unsigned int)y << 16;
    return (at_lvec)(t >> (8 * b));
#else
    at_lwords a, c, r;
    a.v = x;
    c.v = y;
    unsigned int t[2 * AT_LW];
#pragma unroll
    for (int i = 0; i < AT_LW; ++i) {
        t[i] = a.w[i];
        t[AT_LW + i] = c.w[i];
    }
#if AT_LW >= 2
    const unsigned int q = b >> 2;
#endif
#if AT_LW == 4
#pragma unroll
    for (int i = 0; i < 6; ++i)
        t[i] = q & 2 ? t[i + 2] : t[i];
#endif
#if AT_LW >= 2
#pragma unroll
    for (int i = 0; i < 2 * AT_LW - 1; ++i)
        t[i] = q & 1 ? t[i + 1] : t[i];
#endif
#pragma unroll
    for (int i = 0; i < AT_LW; ++i)
        r.w[i] = __funnelshift_r(t[i], t[i + 1], (b & 3) * 8);
    return r.v;
#endif
}

/* The next lane's vector (the warp's last lane gets its own). */
__device__ __forceinline__ at_lvec at_next_lane(at_lvec x)
{
#if AT_LONG_BYTES == 2
    return (at_lvec)__shfl_down_sync(0xFFFFFFFFu, (unsigned int)x, 1);
#else
    at_lwords a;
    a.v = x;
#pragma unroll
    for (int i = 0; i < AT_LW; ++i)
        a.w[i] = __shfl_down_sync(0xFFFFFFFFu, a.w[i], 1);
    return a.v;
#endif
}
#endif

/* Along the long rows: row s of the group at p + s * ld. (Loads are not
 * realigned: on an H100 realigned loads won no problem, i8 26 x 7639115,
 * u8 13 x 19022487, i8 29 x 18193165, where elements one by one run at
 * 77-81% of the copy.) */
__device__ __forceinline__ void at_long_load(at_group_u &g,
                                             const at_elem *AT_RST p,
                                             long long ld, int mode)
{
#pragma unroll
    for (int s = 0; s < AT_SHORT; ++s) {
        at_long_u u;
        const at_elem *q = p + s * ld;
        if (mode == AT_LONG_VEC) {
            u.v = AT_LD((const at_lvec *)q);
        } else {
#pragma unroll
            for (int v = 0; v < AT_VEC; ++v)
                u.e[v] = AT_LD(q + v);
        }
#pragma unroll
        for (int v = 0; v < AT_VEC; ++v)
            g.e[v * AT_SHORT + s] = u.e[v];
    }
}

/* Realigned (AT_REALIGN, the warp's 32 groups whole and end to end): a
 * row m bytes past a vector stores the aligned vector from its first
 * boundary, of its own bytes and the next lane's, every lane but the
 * last; the warp's first lane stores its elements before that boundary,
 * and its last lane those from it, one by one (they share their vectors
 * with the warps beside). */
__device__ __forceinline__ void at_long_store(const at_group_u &g,
                                              at_elem *AT_RST p,
                                              long long ld, int mode,
                                              int lane)
{
    (void)lane;
#pragma unroll
    for (int s = 0; s < AT_SHORT; ++s) {
        at_long_u u;
        at_elem *q = p + s * ld;
#pragma unroll
        for (int v = 0; v < AT_VEC; ++v)
            u.e[v] = g.e[v * AT_SHORT + s];
#if AT_REALIGN
        if (mode == AT_LONG_REALIGN) {
            const unsigned int m =
                (unsigned int)((unsigned long long)q % AT_LONG_BYTES);
            if (m == 0) { /* the same for the whole warp */
                *(at_lvec *)q = u.v;
                continue;
            }
            const unsigned int b = AT_LONG_BYTES - m;
            const at_lvec next = at_next_lane(u.v);
            if (lane < 31)
                *(at_lvec *)((char *)q + b) = at_bytes_at(u.v, next, b);
            const int d = (int)b / AT_ELEM_BYTES;
#pragma unroll
            for (int v = 0; v < AT_VEC; ++v)
                if (lane == 0 ? v < d : lane == 31 && v >= d)
                    q[v] = u.e[v];
            continue;
        }
#endif
        if (mode == AT_LONG_VEC) {
            *(at_lvec *)q = u.v;
        } else {
#pragma unroll
            for (int v = 0; v < AT_VEC; ++v)
                q[v] = u.e[v];
        }
    }
}

/* Along the runs: run v of the group at p + v * ld. */
__device__ __forceinline__ void at_run_load(at_group_u &g,
                                            const at_elem *AT_RST p,
                                            long long ld, int mode)
{
    if (mode == AT_RUN_DENSE) {
#pragma unroll
        for (int k = 0; k < AT_DN; ++k)
            g.d[k] = AT_LD((const at_dvec *)p + k);
    } else if (mode == AT_RUN_RUNS) {
#pragma unroll
        for (int v = 0; v < AT_VEC; ++v)
#pragma unroll
            for (int k = 0; k < AT_RN; ++k)
                g.r[v * AT_RN + k] = AT_LD((const at_rvec *)(p + v * ld) + k);
    } else {
#pragma unroll
        for (int v = 0; v < AT_VEC; ++v)
#pragma unroll
            for (int s = 0; s < AT_SHORT; ++s)
                g.e[v * AT_SHORT + s] = AT_LD(p + v * ld + s);
    }
}

__device__ __forceinline__ void at_run_store(const at_group_u &g,
                                             at_elem *AT_RST p, long long ld,
                                             int mode)
{
    if (mode == AT_RUN_DENSE) {
#pragma unroll
        for (int k = 0; k < AT_DN; ++k)
            ((at_dvec *)p)[k] = g.d[k];
    } else if (mode == AT_RUN_RUNS) {
#pragma unroll
        for (int v = 0; v < AT_VEC; ++v)
#pragma unroll
            for (int k = 0; k < AT_RN; ++k)
                ((at_rvec *)(p + v * ld))[k] = g.r[v * AT_RN + k];
    } else {
#pragma unroll
        for (int v = 0; v < AT_VEC; ++v)
#pragma unroll
            for (int s = 0; s < AT_SHORT; ++s)
                p[v * ld + s] = g.e[v * AT_SHORT + s];
    }
}

#if AT_STAGE
/* Dense runs a warp at a time: its 32 consecutive groups are one span of
 * 32 * AT_GW words, which the warp stores (or loads) a word a lane, each
 * instruction 128 contiguous bytes, exchanging the groups through shared
 * memory; per thread, a group of more than 16 bytes would be stored in
 * pieces AT_GW words apart across the warp (H100, f32 29 x 578525: 43% of
 * the copy). */
__device__ __forceinline__ void at_stage_store(const at_group_u &g,
                                               unsigned int *sm,
                                               unsigned int *AT_RST p,
                                               int lane)
{
#pragma unroll
    for (int w = 0; w < AT_GW; ++w)
        sm[AT_PAD(lane * AT_GW + w)] = g.w[w];
    __syncwarp();
#pragma unroll
    for (int k = 0; k < AT_GW; ++k)
        p[k * 32 + lane] = sm[AT_PAD(k * 32 + lane)];
    __syncwarp();
}

__device__ __forceinline__ void at_stage_load(at_group_u &g, unsigned int *sm,
                                              const unsigned int *AT_RST p,
                                              int lane)
{
#pragma unroll
    for (int k = 0; k < AT_GW; ++k)
        sm[AT_PAD(k * 32 + lane)] = AT_LD(p + k * 32 + lane);
    __syncwarp();
#pragma unroll
    for (int w = 0; w < AT_GW; ++w)
        g.w[w] = sm[AT_PAD(lane * AT_GW + w)];
    __syncwarp();
}
#endif

/* The last group of a matrix, n < AT_VEC positions: element by element,
 * not unrolled (one group a matrix). */
__device__ __forceinline__ void at_group_tail(
    const at_elem *AT_RST in, at_elem *AT_RST out, long long ld_in,
    long long ld_out, int n)
{
#pragma unroll 1
    for (int i = 0; i < n * AT_SHORT; ++i) {
        const int v = i / AT_SHORT, s = i - v * AT_SHORT;
#if AT_SHORT_ROWS
        out[v * ld_out + s] = AT_LD(in + s * ld_in + v);
#else
        out[s * ld_out + v] = AT_LD(in + v * ld_in + s);
#endif
    }
}

#if AT_GATHER
/* Gathered tiles (AT_GATHER): short input rows of 1- or 2-byte elements,
 * output runs of AT_SHORT elements ld_out apart. A strip loads
 * such rows an element at a time where they are off its vector, and
 * stores runs of AT_SHORT elements; a tile of AT_GW_POS positions
 * instead
 *   1. copies the aligned 16-byte vectors covering each row's part to
 *      shared memory as they are (cp.async), the next tile's while this
 *      one is transposed;
 *   2. reads a word a row for its AT_VEC positions a thread (two shared
 *      words and a funnel shift by the row's offset in 16 bytes),
 *      permuted at compile time into the AT_SHORT output words those
 *      positions make, and stages them where the tile's rows were;
 *   3. stores the tile's output as aligned 16-byte vectors: where the
 *      runs are end to end from a multiple of 16 bytes, the whole tile's
 *      (at_gather_store_flat); else each vector that lies in one stretch
 *      of the stream, realigned from the staged words, and the words and
 *      bytes of the rest (at_gather_store_runs). The generator offers
 *      these points where the runs are end to end (the batches' output
 *      off 16 bytes too: H200, u8 16 x 31 x 200003, 54% of the copy as
 *      a tile, 86% gathered); runs apart are for any other launch, and
 *      correct rather than fast (a tile's coalesced bytes are 4x faster
 *      there, and no kernel tried passes 40% of the copy: the layout).
 * H200, u8 31 x 3552786: 39% of the copy as strips, 92% gathered
 * (docs/perf/issue36-h200/gather/, r73). */

/* 16 bytes from global to shared memory, asynchronously (sm_80 on);
 * the copies since the last commit as a group; every group but the last
 * done. (AT_CP_ASYNC_GIVEN: the includer gives them, as tests/host does
 * with plain copies.) */
#ifndef AT_CP_ASYNC_GIVEN
__device__ __forceinline__ void at_cp16(void *dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (unsigned)__cvta_generic_to_shared(dst)),
                 "l"(__cvta_generic_to_global(src))
                 : "memory");
}
__device__ __forceinline__ void at_cp_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void at_cp_wait_prior()
{
    asm volatile("cp.async.wait_group 1;\n" ::: "memory");
}
#endif

/* A tile's rows, row r's bytes [src + r * ld_bytes, + bytes), into buf:
 * row r at r * AT_GP from its address's offset in 16 bytes; vectors
 * reaching outside the input's bytes [lo, hi) byte by byte. One commit
 * group. */
__device__ __forceinline__ void at_gather_load(unsigned char *buf,
                                               const unsigned char *src,
                                               long long ld_bytes,
                                               int bytes,
                                               unsigned long long lo,
                                               unsigned long long hi,
                                               int tid)
{
    const int k_row = AT_THREADS * 4 / 16 + 1;
#pragma unroll 1
    for (int i = tid; i < AT_SHORT * k_row; i += AT_THREADS) {
        const int r = i / k_row, k = i - r * k_row;
        const unsigned long long row =
            (unsigned long long)(src + r * ld_bytes);
        const unsigned long long a = (row & ~15ULL) + 16 * k;
        unsigned char *d = buf + r * AT_GP + 16 * k;
        if (a >= row + bytes)
            continue;
        if (a >= lo && a + 16 <= hi)
            at_cp16(d, (const void *)a);
        else
            for (int j = 0; j < 16; ++j)
                if (a + j >= lo && a + j < hi)
                    d[j] = *(const unsigned char *)(a + j);
    }
    at_cp_commit();
}

/* Tile t of the batch: its first row's first byte, its first position
 * c0 and its positions w. */
__device__ __forceinline__ const unsigned char *
at_gather_at(const at_elem *in, long long t, long long per, int cols,
             long long stride_in, long long *z, int *c0, int *w)
{
    *z = t / per;
    *c0 = (int)(t - *z * per) * AT_GW_POS;
    *w = cols - *c0 < AT_GW_POS ? cols - *c0 : AT_GW_POS;
    return (const unsigned char *)(in + *z * stride_in + *c0);
}

/* The staged output is the tile's runs end to end, a byte stream of
 * w * AT_SHORT elements: thread k's words k * AT_SHORT on, each thread's
 * AT_GSR apart in so. Its word k, and its byte s. */
__device__ __forceinline__ unsigned int at_gather_word(const unsigned int *so,
                                                       int k)
{
    return so[k / AT_SHORT * AT_GSR + k % AT_SHORT];
}
__device__ __forceinline__ unsigned int at_gather_byte(const unsigned int *so,
                                                       int s)
{
    return (at_gather_word(so, s >> 2) >> (8 * (s & 3))) & 0xFFu;
}

/* 16 bytes of the staged stream from byte s0 (any alignment) to c. With
 * an odd AT_SHORT the stream is so itself: two aligned 16-byte loads (a
 * load a word would be 4-way bank conflicts), else the five words. */
__device__ __forceinline__ void at_gather_vec(uint4 *c, int s0,
                                              const unsigned int *so)
{
    const int k = s0 >> 2, sh = 8 * (s0 & 3);
    unsigned int x[5];
#if AT_SHORT & 1
    const uint4 a = ((const uint4 *)so)[k >> 2];
    uint4 b = {0u, 0u, 0u, 0u}; /* none past the stream */
    if ((k & 3) || sh)
        b = ((const uint4 *)so)[(k >> 2) + 1];
    const unsigned int y[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    /* selects on k & 3, each index a constant (no local array) */
#pragma unroll
    for (int m = 0; m < 5; ++m)
        x[m] = (k & 3) == 0   ? y[m]
               : (k & 3) == 1 ? y[m + 1]
               : (k & 3) == 2 ? y[m + 2]
                              : y[m + 3];
#else
#pragma unroll
    for (int m = 0; m < 4; ++m)
        x[m] = at_gather_word(so, k + m);
    x[4] = sh ? at_gather_word(so, k + 4) : 0u; /* none past the stream */
#endif
    uint4 v;
    v.x = __funnelshift_r(x[0], x[1], sh);
    v.y = __funnelshift_r(x[1], x[2], sh);
    v.z = __funnelshift_r(x[2], x[3], sh);
    v.w = __funnelshift_r(x[3], x[4], sh);
    *c = v;
}

/* The tile's output where runs end to end from a multiple of 16 bytes:
 * one run of n bytes, as aligned 16-byte vectors. */
__device__ __forceinline__ void at_gather_store_flat(unsigned char *o, int n,
                                                     const unsigned int *so,
                                                     int tid)
{
#pragma unroll 1
    for (int i = tid; i * 16 < n; i += AT_THREADS) {
        if (i * 16 + 16 <= n) {
            at_gather_vec((uint4 *)o + i, 16 * i, so);
        } else {
            for (int j = i * 16; j < n; ++j)
                o[j] = (unsigned char)at_gather_byte(so, j);
        }
    }
}

/* The aligned 16 bytes at c of any other tile's output, whose run p
 * starts at c - q (q may be negative: c before it) and whose runs are lb
 * bytes apart: the bytes of runs p_lo to p_hi - 1 (run p's from stream
 * byte p * AT_SHORT * AT_ELEM_BYTES), nothing between. One vector where
 * the 16 lie in run p, else a word where its 4 are, else bytes. (Whole
 * vectors across runs end to end are at_gather_store_runs' own.) */
__device__ __forceinline__ void at_gather_chunk(unsigned char *c, int p, int q,
                                                int lb, int p_lo, int p_hi,
                                                const unsigned int *so)
{
    const int rb = AT_SHORT * AT_ELEM_BYTES;
    if (p >= p_lo && p < p_hi && q >= 0 && q + 16 <= rb) {
        at_gather_vec((uint4 *)c, p * rb + q, so);
        return;
    }
#pragma unroll
    for (int m = 0; m < 4; ++m) {
        unsigned int v = 0, mask = 0;
#pragma unroll
        for (int j = 0; j < 4; ++j, ++q) {
            if (q == lb) {
                q = 0;
                ++p;
            }
            if (q >= 0 && q < rb && p >= p_lo && p < p_hi) {
                v |= at_gather_byte(so, p * rb + q) << (8 * j);
                mask |= 1u << j;
            }
        }
        if (mask == 0xFu)
            ((unsigned int *)c)[m] = v;
        else
            for (int j = 0; j < 4; ++j)
                if (mask >> j & 1)
                    c[4 * m + j] = (unsigned char)(v >> (8 * j));
    }
}

/* Any other tile's output: w runs lb bytes apart from o (any alignment).
 * Runs a few bytes apart (or end to end) are walked as one stretch of
 * aligned 16 bytes; runs 16 bytes or more apart a run at a time, so that
 * no thread walks only the gaps between them. */
__device__ __forceinline__ void at_gather_store_runs(unsigned char *o, int w,
                                                     long long lb,
                                                     const unsigned int *so,
                                                     int tid)
{
    const int rb = AT_SHORT * AT_ELEM_BYTES;
    const int head = (int)((unsigned long long)o & 15);
    if (lb - rb < 16) {
        const int l = (int)lb, len = (w - 1) * l + rb;
        unsigned char *a = o - head;
#pragma unroll 1
        for (int i = tid; i * 16 < len + head; i += AT_THREADS) {
            const int d = 16 * i - head;
            /* end to end: the stream's bytes as they are, no division */
            if (l == rb && d >= 0 && d + 16 <= len) {
                at_gather_vec((uint4 *)a + i, d, so);
                continue;
            }
            const int p = d < 0 ? 0 : d / l;
            at_gather_chunk(a + 16 * i, p, d - p * l, l, 0, w, so);
        }
        return;
    }
    /* The most aligned 16 bytes a run of rb bytes touches. */
    const int kr = (rb + 15) / 16 + 1;
#pragma unroll 1
    for (int i = tid; i < w * kr; i += AT_THREADS) {
        const int p = i / kr, k = i - p * kr;
        unsigned char *r = o + p * lb;
        unsigned char *c =
            (unsigned char *)(((unsigned long long)r & ~15ULL) + 16 * k);
        /* rb for lb: the chunk's bytes of run p alone */
        if (c < r + rb)
            at_gather_chunk(c, p, (int)(c - r), rb, p, p + 1, so);
    }
}

__device__ void at_gather(const at_elem *AT_RST in, at_elem *AT_RST out,
                          int cols, long long ld_in, long long ld_out,
                          int batch, long long stride_in,
                          long long stride_out, int tid)
{
    extern __shared__ __align__(16) unsigned char at_gather_sm[];
    const long long per = ((long long)cols + AT_GW_POS - 1) / AT_GW_POS;
    const long long tiles = per * batch, ld_bytes = ld_in * AT_ELEM_BYTES;
    const unsigned long long lo = (unsigned long long)in,
                             hi = (unsigned long long)(
                                 in + (batch - 1) * stride_in +
                                 (AT_SHORT - 1) * ld_in + cols);
    const unsigned ldm = (unsigned)(ld_bytes & 15);
    /* Runs end to end, each matrix's output from a multiple of 16. */
    const bool flat = ld_out == AT_SHORT &&
                      (unsigned long long)out % 16 == 0 &&
                      (batch == 1 || stride_out * AT_ELEM_BYTES % 16 == 0);
    long long t = blockIdx.x, z = 0;
    int c0 = 0, w = 0;
    const unsigned char *src = NULL;
    if (t < tiles) {
        src = at_gather_at(in, t, per, cols, stride_in, &z, &c0, &w);
        at_gather_load(at_gather_sm, src, ld_bytes, w * AT_ELEM_BYTES, lo,
                       hi, tid);
    }
#pragma unroll 1
    for (int it = 0; t < tiles; ++it, t += gridDim.x) {
        unsigned char *s = at_gather_sm + (it & 1) * AT_GBUF;
        /* The next tile's place, carried over to the next turn. */
        long long nz = 0;
        int nc0 = 0, nw = 0;
        const unsigned char *nsrc = NULL;
        if (t + gridDim.x < tiles) {
            nsrc = at_gather_at(in, t + gridDim.x, per, cols, stride_in, &nz,
                                &nc0, &nw);
            at_gather_load(at_gather_sm + ((it + 1) & 1) * AT_GBUF,
                           nsrc, ld_bytes, nw * AT_ELEM_BYTES, lo, hi, tid);
        } else {
            at_cp_commit();
        }
        at_cp_wait_prior();
        __syncthreads();
        const unsigned off0 = (unsigned)((unsigned long long)src & 15);
        unsigned int x[AT_SHORT];
#pragma unroll
        for (int r = 0; r < AT_SHORT; ++r) {
            const int b = (int)((off0 + r * ldm) & 15) + 4 * tid;
            const unsigned int *q =
                (const unsigned int *)(s + r * AT_GP + (b & ~3));
            x[r] = __funnelshift_r(q[0], q[1], 8 * (b & 3));
        }
        /* every thread's words read before the output takes their place */
        __syncthreads();
        unsigned int *so = (unsigned int *)s;
        /* Output word wd of the thread's AT_VEC positions: its elements
         * AT_VEC wd + u, position k / AT_SHORT's element k % AT_SHORT. */
#pragma unroll
        for (int wd = 0; wd < AT_SHORT; ++wd) {
            unsigned int v = 0;
#pragma unroll
            for (int u = 0; u < AT_VEC; ++u) {
                const int k = AT_VEC * wd + u, bits = 8 * AT_ELEM_BYTES;
                v |= ((x[k % AT_SHORT] >> (bits * (k / AT_SHORT))) &
                      (AT_ELEM_BYTES == 1 ? 0xFFu : 0xFFFFu))
                     << (bits * u);
            }
            so[tid * AT_GSR + wd] = v;
        }
        __syncthreads();
        unsigned char *o = (unsigned char *)(out + z * stride_out +
                                             (long long)c0 * ld_out);
        if (flat)
            at_gather_store_flat(o, w * AT_SHORT * AT_ELEM_BYTES, so, tid);
        else
            at_gather_store_runs(o, w, ld_out * AT_ELEM_BYTES, so, tid);
        __syncthreads();
        z = nz;
        c0 = nc0;
        w = nw;
        src = nsrc;
    }
}
#endif

/* Whether p and every row and matrix after it start on a multiple of
 * bytes. */
__device__ __forceinline__ bool at_aligned(const void *p, long long ld,
                                           long long stride, int batch,
                                           int bytes)
{
    return ((unsigned long long)p % bytes) == 0 &&
           (ld * AT_ELEM_BYTES) % bytes == 0 &&
           (batch == 1 || (stride * AT_ELEM_BYTES) % bytes == 0);
}

extern "C" __global__ void AT_BOUNDS
AT_KERNEL(const at_elem *AT_RST in, at_elem *AT_RST out, int rows, int cols,
          long long ld_in, long long ld_out, int batch, long long stride_in,
          long long stride_out)
{
    AT_TEST_HOOK
    const int tid = threadIdx.y * AT_BLOCK_X + threadIdx.x;
#if AT_GATHER
    at_gather(in, out, cols, ld_in, ld_out, batch, stride_in, stride_out,
              tid);
    return;
#else
#if AT_SHORT_ROWS
    long long n = cols; /* positions along the long side */
    const long long ld_long = ld_in, ld_run = ld_out;
    const long long s_long = stride_in, s_run = stride_out;
    const void *long_p = in, *run_p = out;
#else
    long long n = rows;
    const long long ld_long = ld_out, ld_run = ld_in;
    const long long s_long = stride_out, s_run = stride_in;
    const void *long_p = out, *run_p = in;
#endif
#if AT_SHORT == 1
    /* A batch of vectors laid end to end on both sides is one vector. */
    if (batch > 1 && ld_run == 1 && s_long == n && s_run == n) {
        n *= batch;
        batch = 1;
    }
#endif
    const int lmode =
        AT_VEC == 1 ||
                at_aligned(long_p, ld_long, s_long, batch, AT_LONG_BYTES)
            ? AT_LONG_VEC
        : AT_REALIGN ? AT_LONG_REALIGN
                     : AT_LONG_ELEMS;
    /* Dense groups start AT_GROUP elements apart, whatever a run's
     * alignment. */
    const int mode =
        ld_run == AT_SHORT && at_aligned(run_p, 0, s_run, batch,
                                         AT_DENSE_BYTES)
            ? AT_RUN_DENSE
        : at_aligned(run_p, ld_run, s_run, batch, AT_RUN_BYTES) ? AT_RUN_RUNS
                                                                : AT_RUN_ELEMS;
    const long long per = (n + AT_VEC - 1) / AT_VEC; /* groups a matrix */
    const long long groups = per * batch;
    /* 32-bit division where it suffices. */
    const bool narrow = groups <= 0xFFFFFFFFLL;
    const long long step = (long long)gridDim.x * AT_THREADS * AT_STEPS;
    const int lane = tid % 32;
#if AT_STAGE
    extern __shared__ unsigned int at_stage_sm[];
    unsigned int *sm = at_stage_sm + tid / 32 * AT_WARP_WORDS;
#endif
    /* By warps, so that a warp's lanes stay together (shuffles). */
#pragma unroll 1
    for (long long base = (long long)blockIdx.x * AT_THREADS * AT_STEPS +
                          (tid - lane);
         base < groups; base += step) {
        const long long g0 = base + lane;
        at_group_u r[AT_STEPS];
        long long at_in[AT_STEPS], at_out[AT_STEPS];
        int valid[AT_STEPS];
#if AT_STAGE
        bool staged[AT_STEPS];
#endif
#if AT_REALIGN
        int smode[AT_STEPS];
#endif
#pragma unroll
        for (int k = 0; k < AT_STEPS; ++k) {
            const long long g = g0 + (long long)k * AT_THREADS;
            long long z = 0, q = g;
            if (batch > 1) {
                z = narrow ? (unsigned int)g / (unsigned int)per : g / per;
                q = g - z * per;
            }
            const long long w0 = q * AT_VEC;
            valid[k] = g >= groups ? 0
                       : n - w0 < AT_VEC ? (int)(n - w0)
                                         : AT_VEC;
            const long long lo = z * s_long + w0, ro = z * s_run + w0 * ld_run;
#if AT_STAGE
            /* The warp's 32 groups whole and end to end in dense runs. */
            staged[k] = mode == AT_RUN_DENSE &&
                        __all_sync(0xFFFFFFFFu, valid[k] == AT_VEC) &&
                        __shfl_sync(0xFFFFFFFFu, ro, 31) -
                                __shfl_sync(0xFFFFFFFFu, ro, 0) ==
                            31LL * AT_GROUP;
#endif
#if AT_REALIGN
            /* Realigned stores pass bytes between lanes: the warp's 32
             * groups whole and end to end, else element by element. */
            smode[k] = lmode != AT_LONG_REALIGN ? lmode
                       : __all_sync(0xFFFFFFFFu, valid[k] == AT_VEC) &&
                               __shfl_sync(0xFFFFFFFFu, lo, 31) -
                                       __shfl_sync(0xFFFFFFFFu, lo, 0) ==
                                   31LL * AT_VEC
                           ? AT_LONG_REALIGN
                           : AT_LONG_ELEMS;
#endif
#if AT_SHORT_ROWS
            at_in[k] = lo;
            at_out[k] = ro;
            if (valid[k] == AT_VEC)
                at_long_load(r[k], in + lo, ld_in, lmode);
#else
            at_in[k] = ro;
            at_out[k] = lo;
#if AT_STAGE
            if (staged[k])
                at_stage_load(r[k], sm,
                              (const unsigned int *)(in + ro -
                                                     lane * AT_GROUP),
                              lane);
            else
#endif
            if (valid[k] == AT_VEC)
                at_run_load(r[k], in + ro, ld_in, mode);
#endif
        }
#pragma unroll
        for (int k = 0; k < AT_STEPS; ++k) {
#if AT_STAGE && AT_SHORT_ROWS
            if (staged[k])
                at_stage_store(r[k], sm,
                               (unsigned int *)(out + at_out[k] -
                                                lane * AT_GROUP),
                               lane);
            else
#endif
            if (valid[k] == AT_VEC)
#if AT_SHORT_ROWS
                at_run_store(r[k], out + at_out[k], ld_out, mode);
#else
#if AT_REALIGN
                at_long_store(r[k], out + at_out[k], ld_out, smode[k], lane);
#else
                at_long_store(r[k], out + at_out[k], ld_out, lmode, lane);
#endif
#endif
            else if (valid[k] > 0)
                at_group_tail(in + at_in[k], out + at_out[k], ld_in, ld_out,
                              valid[k]);
        }
    }
#endif /* AT_GATHER */
}

#else /* the tile kind */

#if AT_PACK == 1
typedef at_elem at_unit;
#define AT_UNIT_BYTES AT_ELEM_BYTES
#elif AT_PACK * AT_ELEM_BYTES == 4
typedef unsigned int at_unit;
#define AT_UNIT_BYTES 4
#else
#error "AT_PACK must be 1 or 4 / AT_ELEM_BYTES"
#endif

/* Vector bytes as literals, for AT_BITS. */
#if AT_VEC * AT_UNIT_BYTES == 1
#define AT_VEC_BYTES 1
#elif AT_VEC * AT_UNIT_BYTES == 2
#define AT_VEC_BYTES 2
#elif AT_VEC * AT_UNIT_BYTES == 4
#define AT_VEC_BYTES 4
#elif AT_VEC * AT_UNIT_BYTES == 8
#define AT_VEC_BYTES 8
#elif AT_VEC * AT_UNIT_BYTES == 16
#define AT_VEC_BYTES 16
#else
#error "AT_VEC * unit bytes must be 1, 2, 4, 8 or 16"
#endif
typedef AT_BITS(AT_VEC_BYTES) at_vec;

union at_vec_u {
    at_vec v;
    at_unit u[AT_VEC];
};

/* The shared tile of the fast path: AT_G rows (groups of AT_PACK input
 * rows) of AT_TILE_X units. A thread writes AT_CH consecutive units of a
 * row per step, in stores of AT_W units. */
#define AT_G (AT_TILE_Y / AT_PACK)
#define AT_CH (AT_VEC * AT_PACK)
#if AT_CH * AT_UNIT_BYTES >= 16
#define AT_W (16 / AT_UNIT_BYTES)
#else
#define AT_W AT_CH
#endif
#if AT_W * AT_UNIT_BYTES == 1
#define AT_W_BYTES 1
#elif AT_W * AT_UNIT_BYTES == 2
#define AT_W_BYTES 2
#elif AT_W * AT_UNIT_BYTES == 4
#define AT_W_BYTES 4
#elif AT_W * AT_UNIT_BYTES == 8
#define AT_W_BYTES 8
#else
#define AT_W_BYTES 16
#endif
typedef AT_BITS(AT_W_BYTES) at_wvec;
union at_w_u {
    at_wvec v;
    at_unit u[AT_W];
};

#if AT_SMEM == 2
/* Swizzled: chunk k of row g holds chunk k ^ ((g / AT_VEC) % AT_NS), where
 * a chunk is AT_W units and AT_NS chunks span the 32 banks; so the
 * column reads (rows g0 .. g0 + AT_VEC - 1 for consecutive lanes, g0 a
 * multiple of AT_VEC) spread over the banks, and the row writes stay
 * whole chunks. */
#define AT_NS (128 / (AT_W * AT_UNIT_BYTES))
#define AT_ROW AT_TILE_X
#define AT_SIDX(g, c) \
    ((g) * AT_ROW + ((c) ^ ((((g) / AT_VEC) % AT_NS) * AT_W)))
#else
/* Padded: AT_CSKEW units after every 32 of a row and AT_ROW_EXTRA at its
 * end. A thread puts AT_CH consecutive units, so lanes AT_CH units apart
 * would share banks (the 1-byte winner's 16 lanes of 8 units: each store
 * 4-way, 45% of its shared wavefronts); the skew every 32 units moves
 * them apart, and the row's length keeps the column reads apart too.
 * (No faster for that winner: the generator offers it beside a unit a
 * row.) */
#ifndef AT_CSKEW
#define AT_CSKEW 0
#endif
#ifndef AT_ROW_EXTRA
#define AT_ROW_EXTRA AT_SMEM
#endif
#if AT_CSKEW && AT_PACK == 1
#error "AT_CSKEW is for packed tiles"
#endif
#define AT_ROW (AT_TILE_X + AT_CSKEW * (AT_TILE_X / 32) + AT_ROW_EXTRA)
#if AT_CSKEW
#define AT_SIDX(g, c) ((g) * AT_ROW + (c) + AT_CSKEW * ((c) >> 5))
#else
#define AT_SIDX(g, c) ((g) * AT_ROW + (c))
#endif
#endif

/* Shared memory offsets of the fast path's unrolled steps: at_put's unit
 * k of load step (i, j), at_store's column of store step (i, j). Swizzled,
 * the XOR changes only the low AT_M units of a column, so the part of a
 * step's offset above them is added after it, and the XORs repeat every
 * few steps, where NVVM shares them (with one XOR per unit, swizzled
 * points compiled 10 ms slower than padded ones, f32, 16 to a program).
 * The same layout as AT_SIDX (checked by brute force on every geometry
 * the space allows, and by the GPU suite on every point). */
#if AT_SMEM == 2
#define AT_M (AT_NS * AT_W)
/* Steps of n units repeat modulo span (powers of two) every
 * AT_PERIOD(span, n) steps. */
#define AT_PERIOD(span, n) ((n) < (span) ? (span) / (n) : 1)
#endif

__device__ __forceinline__ int at_put_idx(int i, int j, int k, int tx, int ty)
{
    const int g = ty + i * AT_BLOCK_Y;
#if AT_SMEM == 2
    /* Rows repeat their swizzle every R steps, columns their low part
     * every J. */
    const int R = AT_PERIOD(AT_VEC * AT_NS, AT_BLOCK_Y);
    const int J = AT_PERIOD(AT_M, AT_BLOCK_X * AT_CH);
    const int s = (ty + i % R * AT_BLOCK_Y) / AT_VEC % AT_NS * AT_W;
    const int lo = ((tx + j % J * AT_BLOCK_X) * AT_CH + k) ^ s;
    return g * AT_ROW + lo + j / J * J * AT_BLOCK_X * AT_CH;
#else
    /* A step's AT_CH units share one skew (AT_CH divides 32). */
    const int c = (tx + j * AT_BLOCK_X) * AT_CH;
    return AT_SIDX(g, c) + k;
#endif
}

__device__ __forceinline__ int at_store_idx(int i, int j, int tx, int ty)
{
    const int g0 = (tx + j * AT_BLOCK_X) * AT_VEC;
#if AT_SMEM == 2
    /* Columns repeat their swizzle every Q steps, rows their low part
     * every P. */
    const int P = AT_PERIOD(AT_M, AT_BLOCK_Y);
    const int Q = AT_PERIOD(AT_NS, AT_BLOCK_X);
    const int s = (tx + j % Q * AT_BLOCK_X) % AT_NS * AT_W;
    return g0 * AT_ROW + ((ty + i % P * AT_BLOCK_Y) ^ s) +
           i / P * P * AT_BLOCK_Y;
#else
    return AT_SIDX(g0, ty + i * AT_BLOCK_Y);
#endif
}

#define AT_THREADS (AT_BLOCK_X * AT_BLOCK_Y)
#define AT_LOAD_ROWS (AT_G / AT_BLOCK_Y)
#define AT_LOAD_COLS (AT_TILE_X / (AT_BLOCK_X * AT_CH))
#define AT_STORE_ROWS (AT_TILE_X / AT_BLOCK_Y)
#define AT_STORE_COLS (AT_G / (AT_BLOCK_X * AT_VEC))

/* The extra input rows a skewed tile reads: a 32-byte sector's elements
 * but one, for packed tiles a whole sector's (whole groups of AT_PACK
 * rows). Not for unpacked bytes (H100: 32 more rows of a short tile cost
 * 1-byte loads more than whole sectors saved, 91% of the copy down to 68%
 * on 4099x2053 i8). Shared memory keeps room for them with or without
 * AT_SKEW, so a variant's launch is the same whichever paths it was
 * compiled with. */
/* The boundary skewed stores start on. Other values are for experiments
 * with an emitted .cu (docs/perf/issue36-h200/r10.sh: 64 and 128 only
 * cost the extra rows' loads); the tuner's launch and gen/transpose.c's
 * paths take 32 (at_tp_skew_rows). */
#ifndef AT_SKEW_BYTES
#define AT_SKEW_BYTES 32
#endif
#if AT_PACK > 1
#define AT_SKEW_ROWS (AT_SKEW_BYTES / AT_ELEM_BYTES)
#elif AT_ELEM_BYTES > 1
#define AT_SKEW_ROWS (AT_SKEW_BYTES / AT_ELEM_BYTES - 1)
#else
#define AT_SKEW_ROWS 0
#endif
#if AT_SKEW && AT_SKEW_ROWS == 0
#error "AT_SKEW is for 2- to 16-byte elements and packed bytes"
#endif

/* The launch's dynamic shared memory: the element path's tile (AT_TILE_X
 * + 1 elements a row) or the fast path's (AT_ROW units a row of AT_PACK
 * input rows), whichever is larger, with the skew's rows. */
#define AT_SMEM_BYTES                                                      \
    ((AT_TILE_Y + AT_SKEW_ROWS) *                                          \
     (AT_ROW > AT_TILE_X + 1 ? AT_ROW : AT_TILE_X + 1) * AT_ELEM_BYTES)

#if AT_PACK == 4
/* w[q] holds bytes (row q, cols 0..3); afterwards w[j] holds bytes
 * (rows 0..3, col j). */
__device__ __forceinline__ void at_transpose_words(unsigned int *w)
{
    const unsigned int t0 = __byte_perm(w[0], w[1], 0x5140);
    const unsigned int t1 = __byte_perm(w[0], w[1], 0x7362);
    const unsigned int t2 = __byte_perm(w[2], w[3], 0x5140);
    const unsigned int t3 = __byte_perm(w[2], w[3], 0x7362);
    w[0] = __byte_perm(t0, t2, 0x5410);
    w[1] = __byte_perm(t0, t2, 0x7632);
    w[2] = __byte_perm(t1, t3, 0x5410);
    w[3] = __byte_perm(t1, t3, 0x7632);
}
#elif AT_PACK == 2
__device__ __forceinline__ void at_transpose_words(unsigned int *w)
{
    const unsigned int t0 = __byte_perm(w[0], w[1], 0x5410);
    w[1] = __byte_perm(w[0], w[1], 0x7632);
    w[0] = t0;
}
#endif

/* The tile a block works on: where it starts, how much of it is inside
 * the matrix, and whether it takes the fast path. */
/* Elements past a row's last that shifted loads may read. */
#if AT_SHIFT_IN
#define AT_SLACK ((4 - AT_ELEM_BYTES) / AT_ELEM_BYTES)
#else
#define AT_SLACK 0
#endif
/* The valid rows and columns of a fast tile: any, with the element path
 * (tiles cut by the edge take the fast path); else all. */
#if AT_EDGE
#define AT_RV(s) ((s).rv)
#define AT_CV(s) ((s).cv)
#else
#define AT_RV(s) AT_TILE_Y
#define AT_CV(s) AT_TILE_X
#endif

struct at_tile {
    const at_elem *in;  /* the tile's first input element */
    at_elem *out;       /* the tile's first output element */
    int rv, cv;         /* valid rows, columns */
    int avail;          /* rows from its first to the matrix's last, at most
                           AT_TILE_Y + AT_SKEW_ROWS */
    bool top;           /* the first tile of its columns */
    bool fast;
};

__device__ __forceinline__ at_tile at_tile_at(
    const at_elem *in, at_elem *out, int rows, int cols, long long ld_in,
    long long ld_out, long long stride_in, long long stride_out,
    long long tiles_x, long long tiles_y, long long t, bool vec_ok,
    bool flat_in, const at_elem *in_end)
{
    at_tile s;
    /* Consecutive tiles run along the shorter side of the grid of tiles
     * (down the tile columns where there are more tile columns than tile
     * rows, else along the tile rows), so that the blocks in flight at
     * once cover whole output rows (or whole input rows) in few DRAM
     * pages. H100, tile rows first always: c128 421x48858 88.6% of the
     * copy, f32 520x374851 84.4%, u8 22119x17643 64.3%; tile columns
     * first there: 97.1%, 96.4%, 78.7%; f64 16735x5235, whose winner had
     * more tile rows than columns, 94.3% tile rows first, 92.5% columns
     * first. */
    const bool down = tiles_x > tiles_y;
    const long long n0 = down ? tiles_y : tiles_x;
    const long long n1 = down ? tiles_x : tiles_y;
    long long i0, i1, z;
#if AT_WIDE
    if (tiles_x * tiles_y > 0xFFFFFFFFLL || t > 0xFFFFFFFFLL) {
        const long long rest = t / n0;
        i0 = t - rest * n0;
        i1 = rest % n1;
        z = rest / n1;
    } else
#endif
    {
        /* 32-bit division where it suffices: much cheaper than 64-bit. */
        const unsigned int tt = (unsigned int)t, m0 = (unsigned int)n0;
        const unsigned int m1 = (unsigned int)n1, rest = tt / m0;
        i0 = tt - rest * m0;
        /* The first matrix (every tile of a batch of one) needs no second
         * division: a block's branch, taken alike by all its threads. */
        if (rest < m1) {
            i1 = rest;
            z = 0;
        } else {
            z = rest / m1;
            i1 = rest - (unsigned int)z * m1;
        }
    }
    /* The last line of tiles first (the last tile column, going down the
     * columns). Where the last column cuts the tiles, the matrix's last
     * tile reads past the input's end and takes the element path (see
     * below), one element at a time; as the launch's last block it ran
     * alone, its tail. H200, u8 19200x22783, tile 256x256 vec4 with the
     * element path: 78.0% of the copy with that line last, 97.6% first
     * (96.4% on 19200x22784, whole); 19194x22735, 81.7% to 96.9%. */
    i1 = i1 == 0 ? n1 - 1 : i1 - 1;
    const long long bx = down ? i1 : i0, by = down ? i0 : i1;
    const int x0 = (int)bx * AT_TILE_X, y0 = (int)by * AT_TILE_Y;
    /* Sizes may reach INT_MAX: compare by differences, never x0 + n. */
    s.rv = rows - y0 < AT_TILE_Y ? rows - y0 : AT_TILE_Y;
    s.cv = cols - x0 < AT_TILE_X ? cols - x0 : AT_TILE_X;
    s.avail = rows - y0 < AT_TILE_Y + AT_SKEW_ROWS ? rows - y0
                                                   : AT_TILE_Y + AT_SKEW_ROWS;
    s.top = y0 == 0;
    s.in = in + z * stride_in + (long long)y0 * ld_in + x0;
    s.out = out + z * stride_out + (long long)x0 * ld_out + y0;
    /* A tile cut by the edge takes the fast path too (with the element
     * path compiled in) where its loads, a vector that straddles the
     * last column or a shifted load's 3 bytes past a row, stay before the
     * input's last element: checked for whole rows of the tile. */
#if AT_EDGE
    /* (Flat loads read the tile's valid elements alone.) */
    const bool inside = s.in + (long long)(s.avail - 1) * ld_in + AT_TILE_X +
                            AT_SLACK <= in_end;
    s.fast = vec_ok && (flat_in || inside);
#else
    /* Without the element path every tile is whole and every row on the
     * vector (the launch's, checked by its launcher), and its loads are
     * inside (AT_SLACK is 0: shifted loads come with the element path). */
    (void)in_end;
    (void)vec_ok;
    (void)flat_in;
    s.fast = true;
#endif
    return s;
}

#if AT_SHIFT_IN && AT_PACK == 1
#error "AT_SHIFT_IN is for packed tiles"
#endif
/* A whole tile's loads are inside the input only without shifted loads
 * (at_tile_at tests it with the element path alone). */
#if AT_SHIFT_IN && !AT_EDGE
#error "AT_SHIFT_IN comes with AT_EDGE"
#endif

/* Whether this thread's vector (i, j) of packed row q is inside the
 * tile's valid part: its row before rv, its first column before cv. */
__device__ __forceinline__ bool at_load_in(int i, int j, int q, int tx,
                                           int ty, int rv, int cv)
{
    return ty * AT_PACK + q + i * (AT_BLOCK_Y * AT_PACK) < rv &&
           (tx + j * AT_BLOCK_X) * AT_CH < cv;
}

#if AT_SHIFT_IN
/* Fast path, step 1, for input rows off the word: each unit from the two
 * aligned words it straddles, by a funnel shift of the row's offset in
 * the word (a runtime value: with an odd ld_in every row has its own); a
 * row on the word reads no second word. Word loads, as rows may sit
 * anywhere in a vector; the second word is the next lane's first, from
 * L1. A row's last word reads up to 3 bytes past its last element: a
 * tile whose loads would pass the input's last element takes the element
 * path (at_tile_at). */
__device__ __forceinline__ void at_load(
    at_vec_u (&r)[AT_LOAD_ROWS][AT_LOAD_COLS][AT_PACK],
    const at_elem *AT_RST src, long long ld_in, int tx, int ty, int rv,
    int cv)
{
    const at_elem *p = src + (long long)(ty * AT_PACK) * ld_in + tx * AT_CH;
    const long long step = ld_in * (AT_BLOCK_Y * AT_PACK);
#pragma unroll
    for (int i = 0; i < AT_LOAD_ROWS; ++i, p += step)
#pragma unroll
        for (int q = 0; q < AT_PACK; ++q) {
            const unsigned long long a =
                (unsigned long long)(p + q * ld_in);
            const unsigned int off = (unsigned int)a & 3u, sh = off * 8;
            const unsigned int *w = (const unsigned int *)(a - off);
#pragma unroll
            for (int j = 0; j < AT_LOAD_COLS; ++j) {
                const unsigned int *wj = w + j * (AT_BLOCK_X * AT_VEC);
                /* Past the matrix's edge: zeros (see below). */
                const bool in = at_load_in(i, j, q, tx, ty, rv, cv);
                unsigned int x[AT_VEC + 1];
#pragma unroll
                for (int k = 0; k < AT_VEC; ++k)
                    x[k] = in ? AT_LD(wj + k) : 0u;
                x[AT_VEC] = in && sh ? AT_LD(wj + AT_VEC) : 0u;
#pragma unroll
                for (int k = 0; k < AT_VEC; ++k)
                    r[i][j][q].u[k] = __funnelshift_r(x[k], x[k + 1], sh);
            }
        }
}
#else
/* Fast path, step 1: this thread's part of a tile into registers: of its
 * first rv rows (the rest are past the matrix's last row), the vectors
 * that start before column cv (the rest are past the last column; a
 * vector that straddles it reads a few elements of padding, never
 * stored, where at_tile_at finds them inside the input). Addresses as a
 * base and constant steps: the unrolled body's index arithmetic is a
 * large share of NVVM's time. */
__device__ __forceinline__ void at_load(
    at_vec_u (&r)[AT_LOAD_ROWS][AT_LOAD_COLS][AT_PACK],
    const at_elem *AT_RST src, long long ld_in, int tx, int ty, int rv,
    int cv)
{
    const at_elem *p = src + (long long)(ty * AT_PACK) * ld_in + tx * AT_CH;
    const long long step = ld_in * (AT_BLOCK_Y * AT_PACK);
#pragma unroll
    for (int i = 0; i < AT_LOAD_ROWS; ++i, p += step)
#pragma unroll
        for (int j = 0; j < AT_LOAD_COLS; ++j)
#pragma unroll
            for (int q = 0; q < AT_PACK; ++q)
                /* Zero past it: a register left as the last tile had it
                 * would stay live across the loop. */
                r[i][j][q].v = at_load_in(i, j, q, tx, ty, rv, cv)
                                   ? AT_LD((const at_vec *)(
                                         p + q * ld_in +
                                         j * (AT_BLOCK_X * AT_CH)))
                                   : at_vec();
}
#endif

/* Fast path, step 2: the registers into shared memory along rows, packed
 * words transposed first. */
__device__ __forceinline__ void at_put(
    at_unit *tile, at_vec_u (&r)[AT_LOAD_ROWS][AT_LOAD_COLS][AT_PACK],
    int tx, int ty)
{
#pragma unroll
    for (int i = 0; i < AT_LOAD_ROWS; ++i)
#pragma unroll
        for (int j = 0; j < AT_LOAD_COLS; ++j) {
            at_unit u[AT_CH]; /* this step's AT_CH consecutive units */
#pragma unroll
            for (int k = 0; k < AT_VEC; ++k) {
#if AT_PACK > 1
                unsigned int w[AT_PACK];
#pragma unroll
                for (int q = 0; q < AT_PACK; ++q)
                    w[q] = r[i][j][q].u[k];
                at_transpose_words(w);
#pragma unroll
                for (int q = 0; q < AT_PACK; ++q)
                    u[k * AT_PACK + q] = w[q];
#else
                u[k] = r[i][j][0].u[k];
#endif
            }
#if AT_SMEM == 1
            /* Padded rows are not aligned to a chunk: unit by unit. */
#pragma unroll
            for (int k = 0; k < AT_CH; ++k)
                tile[at_put_idx(i, j, k, tx, ty)] = u[k];
#else
#pragma unroll
            for (int k = 0; k < AT_CH; k += AT_W) {
                at_w_u w;
#pragma unroll
                for (int q = 0; q < AT_W; ++q)
                    w.u[q] = u[k + q];
                *(at_wvec *)&tile[at_put_idx(i, j, k, tx, ty)] = w.v;
            }
#endif
        }
}

/* Element y of output row c in the shared tile. */
__device__ __forceinline__ at_elem at_tile_elem(const at_unit *tile, int y,
                                                int c)
{
#if AT_PACK > 1
    return (at_elem)(tile[AT_SIDX(y / AT_PACK, c)] >>
                     (8 * AT_ELEM_BYTES * (y % AT_PACK)));
#else
    return tile[AT_SIDX(y, c)];
#endif
}

/* Fast path, step 3: shared memory down columns into whole vectors of the
 * output, those wholly inside the row's first rv elements (the rest are
 * at_store_rest's); rows past cv are past the matrix's last column. A
 * vector's AT_VEC units share one swizzle (their rows share g / AT_VEC),
 * so they are a column's offset and constant row steps. */
__device__ __forceinline__ void at_store(
    at_elem *AT_RST dst, const at_unit *tile, long long ld_out, int tx,
    int ty, int rv, int cv)
{
    at_elem *p = dst + (long long)ty * ld_out + tx * (AT_VEC * AT_PACK);
    const long long step = ld_out * AT_BLOCK_Y;
#pragma unroll
    for (int i = 0; i < AT_STORE_ROWS; ++i, p += step) {
        if (ty + i * AT_BLOCK_Y >= cv)
            continue;
#pragma unroll
        for (int j = 0; j < AT_STORE_COLS; ++j) {
            if ((tx + j * AT_BLOCK_X + 1) * (AT_VEC * AT_PACK) > rv)
                continue;
            const at_unit *col = tile + at_store_idx(i, j, tx, ty);
            at_vec_u u;
#pragma unroll
            for (int k = 0; k < AT_VEC; ++k)
                u.u[k] = col[k * AT_ROW];
            *(at_vec *)(p + j * (AT_BLOCK_X * AT_VEC * AT_PACK)) = u.v;
        }
    }
}

/* Fast path, step 3, the elements at_store left: of each of the first cv
 * output rows, those past its last whole vector before rv, fewer than
 * AT_REST_SLOTS a row; every row's slots shared out over the block at
 * once (a loop over rows, slots within, left the block waiting on one
 * row after another). */
#define AT_REST_SLOTS (AT_VEC * AT_PACK)
__device__ __forceinline__ void at_store_rest(at_elem *AT_RST dst,
                                              const at_unit *tile,
                                              long long ld_out, int tid,
                                              int rv, int cv)
{
    const int end = rv / AT_REST_SLOTS * AT_REST_SLOTS;
#pragma unroll 1
    for (int i = tid; i < cv * AT_REST_SLOTS; i += AT_THREADS) {
        const int c = i / AT_REST_SLOTS, y = end + i % AT_REST_SLOTS;
        if (y < rv)
            dst[(long long)c * ld_out + y] = at_tile_elem(tile, y, c);
    }
}

#if AT_SKEW
/* Skewed tiles: elements from an output row's first to the first sector
 * boundary at or after it (0 if it starts on one). */
__device__ __forceinline__ int at_skew(const at_elem *row)
{
    return (int)((AT_SKEW_BYTES - (unsigned long long)row % AT_SKEW_BYTES) %
                 AT_SKEW_BYTES) /
           AT_ELEM_BYTES;
}

/* The input rows past the tile's own that a skewed tile stores, after its
 * own went through at_put (AT_SKEW_ROWS, in AT_XG groups of AT_PACK),
 * shared out over the block. 2- to 16-byte elements: AT_XI steps a
 * thread, every load issued before the first store (a step a loop turn,
 * each turn waiting on its loads, held a quarter of the stall samples of
 * f16 2777x107525's winner, H200; all at once, 2-byte skewed problems
 * ran 0.5 to 1 point of the copy faster: docs/perf/issue36-h200/r77,
 * r79). Elements past the matrix's last row are zeros, and past its
 * last column too in unpacked tiles (packed ones take whole words). */
#define AT_XG ((AT_SKEW_ROWS + AT_PACK - 1) / AT_PACK)
/* x as the compiler sees it: unknown, so that what is computed from it
 * stays where it is written (the steps' addresses, hoisted out of the
 * tile loop, held registers across the tile's own loads: u8 128x256
 * tiles of 512 threads 32 registers to 40, a block an SM less; f16
 * 2777x107525's winner 47 to 64; with it, 31 and 54). */
#define at_opaque(x) asm volatile("" : "+r"(x))
/* A step's loads guarded only where the steps do not divide evenly, as
 * its stores are: at_opaque hides tid < AT_THREADS from the compiler, so
 * the test would not fold. */
#define AT_X_IN(e) (AT_XN % AT_THREADS == 0 || (e) < AT_XN)
#if AT_PACK > 1
/* The word of packed elements from p on (zero where !in), from the two
 * aligned words it straddles where rows are off the word, as at_load's. */
__device__ __forceinline__ unsigned int at_word_at(const at_elem *p, bool in)
{
#if AT_SHIFT_IN
    const unsigned long long a = (unsigned long long)p;
    const unsigned int off = (unsigned int)a & 3u, sh = off * 8;
    const unsigned int *x = (const unsigned int *)(a - off);
    const unsigned int lo = in ? AT_LD(x) : 0u;
    const unsigned int hi = in && sh ? AT_LD(x + 1) : 0u;
    return __funnelshift_r(lo, hi, sh);
#else
    return in ? AT_LD((const unsigned int *)p) : 0u;
#endif
}

/* Packed tiles' step e: AT_PACK columns of an extra group, a word from
 * each of its AT_PACK rows (shifted into place where rows are off the
 * word, at_word_at; zero where !ok or past the matrix's last row; bytes
 * past the last column are the row's, as at_load's, never stored). */
__device__ __forceinline__ void at_extra_words(unsigned int (&w)[AT_PACK],
                                               const at_tile &s,
                                               long long ld_in, int e,
                                               bool ok)
{
    const int c = e % (AT_TILE_X / AT_PACK) * AT_PACK;
    const int r = AT_TILE_Y + e / (AT_TILE_X / AT_PACK) * AT_PACK;
    const at_elem *p = s.in + (long long)r * ld_in + c;
#pragma unroll
    for (int q = 0; q < AT_PACK; ++q, p += ld_in)
        w[q] = at_word_at(p, ok && c < AT_CV(s) && r + q < s.avail);
}

/* Step e's words into the tile, transposed in registers as at_put's
 * (word k then holds column k's AT_PACK rows). */
__device__ __forceinline__ void at_extra_put(at_unit *tile,
                                             unsigned int (&w)[AT_PACK],
                                             int e)
{
    const int c = e % (AT_TILE_X / AT_PACK) * AT_PACK;
    const int g = e / (AT_TILE_X / AT_PACK);
    at_transpose_words(w);
#pragma unroll
    for (int k = 0; k < AT_PACK; ++k)
        tile[AT_SIDX(AT_G + g, c + k)] = w[k];
}
#endif

#if AT_PACK == 4
/* Bytes: a step a loop turn, as before 54490d9. All at once, ten drawn
 * 1-byte problems ran 0.3 points of the copy slower on average (-1.5 to
 * +0.9; r84; r79 and r83 alike). A step's words, one a row of its group
 * (at_extra_words), took a quarter of the loads of a byte an element
 * (H200, r88: ten drawn 1-byte problems +0.6 to +5.0 points of the
 * copy). Groups past the tile's last row are not written (no store reads
 * them). */
__device__ __forceinline__ void at_put_extra(at_unit *tile, const at_tile &s,
                                             long long ld_in, int tid)
{
    const int n = (s.avail - AT_TILE_Y + AT_PACK - 1) / AT_PACK *
                  (AT_TILE_X / AT_PACK);
#pragma unroll 1
    for (int i = tid; i < n; i += AT_THREADS) {
        unsigned int w[AT_PACK];
        at_extra_words(w, s, ld_in, i, true);
        at_extra_put(tile, w, i);
    }
}

#elif AT_PACK > 1
/* 2-byte elements: AT_XI steps a thread (at_extra_words), half the loads
 * of an element at a time where rows are on the word (H200, r88: ten
 * drawn 2-byte problems -0.1 to +3.0 points of the copy). */
#define AT_XN (AT_XG * (AT_TILE_X / AT_PACK))
#define AT_XI ((AT_XN + AT_THREADS - 1) / AT_THREADS)
__device__ __forceinline__ void at_put_extra(at_unit *tile, const at_tile &s,
                                             long long ld_in, int tid)
{
    unsigned int w[AT_XI][AT_PACK];
    at_opaque(tid);
#pragma unroll
    for (int i = 0; i < AT_XI; ++i) {
        const int e = tid + i * AT_THREADS;
        at_extra_words(w[i], s, ld_in, e, AT_X_IN(e));
    }
#pragma unroll
    for (int i = 0; i < AT_XI; ++i) {
        const int e = tid + i * AT_THREADS;
        if (!AT_X_IN(e))
            break;
        at_extra_put(tile, w[i], e);
    }
}

#else
/* A step: a vector of the same width as the tile's own loads. */
#define AT_XN (AT_XG * (AT_TILE_X / AT_VEC))
#define AT_XI ((AT_XN + AT_THREADS - 1) / AT_THREADS)
__device__ __forceinline__ void at_put_extra(at_unit *tile, const at_tile &s,
                                             long long ld_in, int tid)
{
    at_vec_u u[AT_XI];
    at_opaque(tid);
#pragma unroll
    for (int i = 0; i < AT_XI; ++i) {
        const int e = tid + i * AT_THREADS;
        const int r = AT_TILE_Y + e / (AT_TILE_X / AT_VEC);
        const int c = e % (AT_TILE_X / AT_VEC) * AT_VEC;
        u[i].v = AT_X_IN(e) && r < s.avail
                     ? AT_LD((const at_vec *)(s.in + (long long)r * ld_in + c))
                     : at_vec();
    }
#pragma unroll
    for (int i = 0; i < AT_XI; ++i) {
        const int e = tid + i * AT_THREADS;
        if (!AT_X_IN(e))
            break;
        const int r = AT_TILE_Y + e / (AT_TILE_X / AT_VEC);
        const int c = e % (AT_TILE_X / AT_VEC) * AT_VEC;
#pragma unroll
        for (int k = 0; k < AT_VEC; ++k)
            tile[AT_SIDX(r, c + k)] = u[i].u[k];
    }
}

#endif /* AT_PACK */

/* Fast path, step 3, skewed: the whole vectors of output row c from its
 * element d, those that end by hi. WHOLE: hi is d past the tile's
 * height (every tile but those of the matrix's last rows), so every
 * vector is inside and none is checked (f16 579x380071, H100: the row
 * loop took 72 instructions a row for two vector stores, 65 now). A
 * packed tile's aligned words each come from the two units they
 * straddle (a funnel shift by d's place in a unit, one for the row). */
template <bool WHOLE>
__device__ __forceinline__ void at_store_vectors(const at_unit *tile,
                                                 at_elem *row, int c, int d,
                                                 int hi, int tx)
{
#if AT_PACK > 1
    const unsigned int sh = (unsigned int)(d % AT_PACK) *
                            (8 * AT_ELEM_BYTES);
#endif
#pragma unroll
    for (int j = 0; j < AT_STORE_COLS; ++j) {
        const int m = (tx + j * AT_BLOCK_X) * AT_VEC; /* units past d */
        const int y = d + m * AT_PACK;
#if AT_PACK > 1
        if (!WHOLE && y + AT_VEC * AT_PACK > hi)
            continue;
        const int u = d / AT_PACK + m;
        unsigned int x[AT_VEC + 1];
#pragma unroll
        for (int k = 0; k < AT_VEC; ++k)
            x[k] = tile[AT_SIDX(u + k, c)];
        x[AT_VEC] = sh ? tile[AT_SIDX(u + AT_VEC, c)] : 0u;
        at_vec_u v;
#pragma unroll
        for (int k = 0; k < AT_VEC; ++k)
            v.u[k] = __funnelshift_r(x[k], x[k + 1], sh);
        *(at_vec *)(row + y) = v.v;
#else
        at_vec_u u;
#pragma unroll
        for (int k = 0; k < AT_VEC; ++k)
            u.u[k] = tile[AT_SIDX(y + k, c)];
        if (WHOLE || y + AT_VEC <= hi)
            *(at_vec *)(row + y) = u.v;
#endif
    }
}

/* Fast path, step 3, skewed: output row c from its first sector boundary
 * d at or after the tile's first element, whole vectors up to the
 * matrix's last row; the top tile also writes the d elements before. */
__device__ __forceinline__ void at_store_skewed(
    const at_tile &s, const at_unit *tile, long long ld_out, int tx, int ty,
    bool skew)
{
    /* Rows up to the skew's reach (AT_SKEW_ROWS past the tile's) take
     * every vector of every row; else the matrix's last row cuts some. */
    const bool whole = s.avail >= AT_TILE_Y + AT_SKEW_ROWS;
    /* Rows not unrolled: the per-row skew would double the compile time
     * of every unpacked point (measured: 95 ms a point more) for stores
     * that need no unrolling to overlap. */
#pragma unroll 1
    for (int i = 0; i < AT_STORE_ROWS; ++i) {
        const int c = ty + i * AT_BLOCK_Y;
        if (c >= s.cv)
            break; /* past the matrix's last column */
        /* (A pointer stepped from row to row costs 8 registers more.) */
        at_elem *row = s.out + (long long)c * ld_out;
        /* Unskewed (0) where the launch's rows are on the sectors: no
         * extra rows were put in the tile then. */
        const int d = skew ? at_skew(row) : 0;
        const int hi = s.avail < AT_TILE_Y + d ? s.avail : AT_TILE_Y + d;
        if (whole) {
            at_store_vectors<true>(tile, row, c, d, hi, tx);
        } else {
            at_store_vectors<false>(tile, row, c, d, hi, tx);
            /* The matrix's last rows cut the last vector: element by
             * element (kept out of the unrolled loop, which it would
             * double). Where they end before d, the first y is past hi
             * (the quotient rounds towards zero). */
#pragma unroll 1
            for (int y = d +
                         (hi - d) / (AT_VEC * AT_PACK) * (AT_VEC * AT_PACK) +
                         tx;
                 y < hi; y += AT_BLOCK_X)
                row[y] = at_tile_elem(tile, y, c);
        }
        if (s.top) /* (a matrix may end before d) */
#pragma unroll 1
            for (int y = tx; y < d && y < hi; y += AT_BLOCK_X)
                row[y] = at_tile_elem(tile, y, c);
    }
}
#endif /* AT_SKEW */

/* i / d for i < 2^18 and 1 <= d <= 512 (an index into a tile, a side of
 * one), by a multiply: m = 2^32 / d rounded up is off by less than 2^-14
 * of i / d, which never crosses an integer when d <= 2^9. */
__device__ __forceinline__ unsigned long long at_div_magic(unsigned int d)
{
    return 0xFFFFFFFFULL / d + 1;
}

__device__ __forceinline__ unsigned int at_div(unsigned int i,
                                               unsigned long long m)
{
    return (unsigned int)((i * m) >> 32);
}

#if AT_FLAT_IN || AT_FLAT_OUT
/* Flat runs: a tile's elements as one run of n in global memory, element
 * k at (k / len, k % len) of the tile (len: the side the run's rows
 * span), moved as aligned 16-byte vectors and, before the run's first
 * 16-byte boundary and after its last, element by element (the ends
 * other tiles' runs share a vector with). n < 2^18: a tile's elements. */
#define AT_FLAT_N (16 / AT_ELEM_BYTES)
union at_flat_u {
    uint4 v;
    at_elem e[AT_FLAT_N];
};

struct at_flat_run {
    int h;    /* elements before the first 16-byte boundary (at most n) */
    int body; /* whole vectors after them */
    int ends; /* elements outside the vectors: h and those after */
};

__device__ __forceinline__ at_flat_run at_flat_of(const void *run, int n)
{
    at_flat_run f;
    const int head =
        (int)((16 - (unsigned long long)run % 16) % 16) / AT_ELEM_BYTES;
    f.h = head < n ? head : n;
    f.body = (n - f.h) / AT_FLAT_N;
    f.ends = n - f.body * AT_FLAT_N;
    return f;
}

/* The k-th of the run's ends: the head's, then the tail's. */
__device__ __forceinline__ int at_flat_end(const at_flat_run &f, int i)
{
    return i < f.h ? i : i + f.body * AT_FLAT_N;
}

/* A vector's elements walk the shared tile one step at a time: its unit
 * index follows the step (a padded tile's next row of units is AT_ROW
 * on, its next column 1), recomputed only at a wrap or where the tile
 * is swizzled (an XOR). Unsigned, so y / AT_PACK is a shift: with a
 * signed y and the index recomputed each element, the loop took about
 * 14 instructions an element (PTX, f16 packed). */
__device__ __forceinline__ at_elem at_unit_elem(const at_unit *tile,
                                                unsigned idx, unsigned q)
{
#if AT_PACK > 1
    return (at_elem)(tile[idx] >> (8 * AT_ELEM_BYTES * q));
#else
    (void)q;
    return tile[idx];
#endif
}

/* The unit index of (y, c) after a step down column c to row y (y > 0). */
__device__ __forceinline__ unsigned at_step_down(unsigned idx, unsigned y,
                                                 unsigned c)
{
#if AT_SMEM == 2
    (void)idx;
    return AT_SIDX(y / AT_PACK, c);
#else
    (void)c;
    return y % AT_PACK ? idx : idx + AT_ROW;
#endif
}

/* The unit index of (y, c) after a step along row y to column c (c > 0). */
__device__ __forceinline__ unsigned at_step_along(unsigned idx, unsigned y,
                                                  unsigned c)
{
#if AT_SMEM == 2
    (void)idx;
    return AT_SIDX(y / AT_PACK, c);
#else
    (void)y;
    return c % 32 ? idx + 1 : idx + 1 + AT_CSKEW;
#endif
}
#endif

#if AT_FLAT_IN
/* An element into unit idx of the shared tile (part q of a packed word,
 * its place as at_tile_elem reads it). */
__device__ __forceinline__ void at_unit_put(at_unit *tile, unsigned idx,
                                            unsigned q, at_elem v)
{
#if AT_PACK > 1
    ((at_elem *)&tile[idx])[q] = v;
#else
    (void)q;
    tile[idx] = v;
#endif
}

/* Flat loads: the tile spans the matrix's columns and the input rows are
 * end to end, so its valid rows are one run of rv * cv elements, and with
 * the rows a skewed tile stores past its own (at_put_extra's, whose
 * vectors would be off their alignment here) avail * cv. Read directly
 * into shared memory (no registers staged across tiles): the rows past
 * them stay as they were, never stored. */
__device__ __forceinline__ void at_load_flat(at_unit *tile, const at_tile &s,
                                             int tid, bool skew)
{
    const unsigned len = s.cv;
    const int n = (skew ? s.avail : s.rv) * s.cv;
    const at_elem *AT_RST run = s.in;
    const at_flat_run f = at_flat_of(run, n);
    const unsigned long long m = at_div_magic(len);
#pragma unroll 1
    for (int i = tid; i < f.body; i += AT_THREADS) {
        const unsigned k0 = f.h + i * AT_FLAT_N;
        at_flat_u u;
        u.v = AT_LD((const uint4 *)(run + k0));
        unsigned y = at_div(k0, m), c = k0 - y * len;
        unsigned idx = AT_SIDX(y / AT_PACK, c);
#pragma unroll
        for (int k = 0; k < AT_FLAT_N; ++k) {
            at_unit_put(tile, idx, y % AT_PACK, u.e[k]);
            if (++c == len) {
                c = 0;
                ++y;
                idx = AT_SIDX(y / AT_PACK, 0u);
            } else {
                idx = at_step_along(idx, y, c);
            }
        }
    }
#pragma unroll 1
    for (int i = tid; i < f.ends; i += AT_THREADS) {
        const unsigned k = at_flat_end(f, i), y = at_div(k, m);
        at_unit_put(tile, AT_SIDX(y / AT_PACK, k - y * len), y % AT_PACK,
                    AT_LD(run + k));
    }
}
#endif

#if AT_FLAT_OUT
/* Flat stores: the tile spans the matrix's rows and the output rows are
 * end to end, so its output is one run of cv * rv elements. */
__device__ __forceinline__ void at_store_flat(const at_tile &s,
                                              const at_unit *tile, int tid)
{
    const unsigned len = s.rv;
    const int n = s.rv * s.cv;
    at_elem *AT_RST run = s.out;
    const at_flat_run f = at_flat_of(run, n);
    const unsigned long long m = at_div_magic(len);
#pragma unroll 1
    for (int i = tid; i < f.body; i += AT_THREADS) {
        const unsigned k0 = f.h + i * AT_FLAT_N;
        unsigned c = at_div(k0, m), y = k0 - c * len;
        at_flat_u u;
#if AT_PACK > 1
        if (y + AT_FLAT_N <= len) {
            /* Inside one column: the vector's four words, each from the
             * two packed words it straddles (one funnel shift by the
             * first element's place in its word). */
            const unsigned g = y / AT_PACK;
            const unsigned sh = 8 * AT_ELEM_BYTES * (y % AT_PACK);
            unsigned w[5];
#pragma unroll
            for (int j = 0; j < 4; ++j)
                w[j] = tile[AT_SIDX(g + j, c)];
            w[4] = sh ? tile[AT_SIDX(g + 4, c)] : 0u;
            u.v.x = __funnelshift_r(w[0], w[1], sh);
            u.v.y = __funnelshift_r(w[1], w[2], sh);
            u.v.z = __funnelshift_r(w[2], w[3], sh);
            u.v.w = __funnelshift_r(w[3], w[4], sh);
        } else
#endif
        {
            unsigned idx = AT_SIDX(y / AT_PACK, c);
#pragma unroll
            for (int k = 0; k < AT_FLAT_N; ++k) {
                u.e[k] = at_unit_elem(tile, idx, y % AT_PACK);
                if (++y == len) {
                    y = 0;
                    ++c;
                    idx = AT_SIDX(0u, c);
                } else {
                    idx = at_step_down(idx, y, c);
                }
            }
        }
        *(uint4 *)(run + k0) = u.v;
    }
#pragma unroll 1
    for (int i = tid; i < f.ends; i += AT_THREADS) {
        const int k = at_flat_end(f, i), c = (int)at_div(k, m);
        run[k] = at_tile_elem(tile, k - c * len, c);
    }
}
#endif

#if AT_EDGE

/* Element path: the valid rv x cv part of the tile, walked linearly, through
 * shared memory laid out [row][col] with AT_TILE_X + 1 elements a row. */
__device__ __forceinline__ void at_edge_load(at_elem *t, const at_tile &s,
                                             long long ld_in, int tid)
{
    const unsigned int n = s.rv * s.cv, cv = s.cv;
    const unsigned long long m = at_div_magic(cv);
#pragma unroll 1
    for (unsigned int i = tid; i < n; i += AT_THREADS) {
        const unsigned int r = at_div(i, m), c = i - r * cv;
        t[r * (AT_TILE_X + 1) + c] = AT_LD(s.in + (long long)r * ld_in + c);
    }
}

__device__ __forceinline__ void at_edge_store(const at_elem *t,
                                              const at_tile &s,
                                              long long ld_out, int tid)
{
    const unsigned int n = s.rv * s.cv, rv = s.rv;
    const unsigned long long m = at_div_magic(rv);
#pragma unroll 1
    for (unsigned int i = tid; i < n; i += AT_THREADS) {
        const unsigned int c = at_div(i, m), r = i - c * rv;
        s.out[(long long)c * ld_out + r] = t[r * (AT_TILE_X + 1) + c];
    }
}
#endif

/* What a launch's shape allows, the same for every tile; the host
 * harness (tests/host/transpose_tiles.cpp) takes it from here too. */
struct at_flags {
    bool skew;     /* output rows off the sectors: skewed stores */
    bool vec_ok;   /* tiles inside the input take the fast path */
    bool flat_in;  /* tiles span the columns, input rows end to end */
    bool flat_out; /* tiles span the rows, output rows end to end */
};

__device__ __forceinline__ at_flags at_flags_of(
    const at_elem *in, const at_elem *out, int rows, int cols,
    long long ld_in, long long ld_out, int batch, long long stride_in,
    long long stride_out)
{
    at_flags f;
    (void)in;
    (void)cols;
    (void)stride_in;
#if AT_FLAT_IN
    f.flat_in = cols <= AT_TILE_X && ld_in == cols;
#else
    f.flat_in = false;
#endif
#if AT_FLAT_OUT
    f.flat_out = rows <= AT_TILE_Y && ld_out == rows;
#else
    f.flat_out = false;
#endif
#if AT_SKEW
    /* Output rows off the 32-byte sectors: skewed tiles, whose stores are
     * aligned whatever ld_out is. */
    const int sector = AT_SKEW_BYTES / AT_ELEM_BYTES;
    f.skew =
        (ld_out % sector) != 0 || (batch > 1 && (stride_out % sector) != 0) ||
        ((unsigned long long)out % AT_SKEW_BYTES) != 0;
#else
    f.skew = false;
#endif
#if AT_EDGE
    /* Elements per vector along a row; the rows (and matrices) of both
     * sides must start on such a vector's boundary, where flat runs do
     * not take them. */
    const int aw = AT_VEC * AT_PACK;
    (void)aw;
#if AT_SHIFT_IN
    /* Rows anywhere: shifted words. */
    const bool in_ok = true;
#else
    const bool in_ok =
        f.flat_in || aw == 1 ||
        ((ld_in % aw) == 0 && (batch == 1 || (stride_in % aw) == 0) &&
         ((unsigned long long)in % (aw * AT_ELEM_BYTES)) == 0);
#endif
    const bool out_ok =
        f.flat_out || aw == 1 ||
        ((ld_out % aw) == 0 && (batch == 1 || (stride_out % aw) == 0) &&
         ((unsigned long long)out % (aw * AT_ELEM_BYTES)) == 0);
    /* Skewed stores are aligned whatever the output's rows. */
    f.vec_ok = in_ok && (f.skew || out_ok);
#else
    /* Without the element path the launch's rows are on the vector (its
     * launcher sends any other launch elsewhere): the checks and the
     * element copy they would lead to cost NVRTC a fifth of a whole-tile
     * point (f32 8192x8192, 16 points a program: 6.62 G instructions to
     * 5.20 G). */
    (void)ld_in;
    (void)ld_out;
    (void)batch;
    (void)stride_out;
    (void)out;
    f.vec_ok = true;
#endif
    return f;
}

/* A tile into shared memory: the fast path's registers (loaded already),
 * or the element path. */
__device__ __forceinline__ void at_tile_in(
    at_unit *tile, at_elem *etile, const at_tile &s,
    at_vec_u (&r)[AT_LOAD_ROWS][AT_LOAD_COLS][AT_PACK], long long ld_in,
    int tx, int ty, int tid, const at_flags &f)
{
    (void)etile; /* the element path's */
    if (s.fast) {
#if AT_FLAT_IN
        if (f.flat_in) {
            at_load_flat(tile, s, tid, f.skew);
            return;
        }
#endif
        at_put(tile, r, tx, ty);
#if AT_SKEW
        if (f.skew)
            at_put_extra(tile, s, ld_in, tid);
#endif
    }
#if AT_EDGE
    else
        at_edge_load(etile, s, ld_in, tid);
#endif
}

/* A tile from shared memory into the output. */
__device__ __forceinline__ void at_tile_out(const at_unit *tile,
                                            const at_elem *etile,
                                            const at_tile &s, long long ld_out,
                                            int tx, int ty, int tid,
                                            const at_flags &f)
{
    (void)f; /* the skewed and flat stores' alone */
    if (s.fast) {
#if AT_FLAT_OUT
        if (f.flat_out) {
            at_store_flat(s, tile, tid);
            return;
        }
#endif
#if AT_SKEW
        /* Every fast tile of a kernel with skewed stores takes them:
         * where the output rows are on the sectors (another problem's
         * shape, a check's) with skew 0, whole vectors as at_store's,
         * rows not unrolled. A plain copy of the stores beside them cost
         * NVRTC 17% of such a program (f32 8191x8191, 16 points); the
         * problem the kernel is made for never took it. */
        at_store_skewed(s, tile, ld_out, tx, ty, f.skew);
#else
        at_store(s.out, tile, ld_out, tx, ty, AT_RV(s), AT_CV(s));
        if (AT_RV(s) < AT_TILE_Y)
            at_store_rest(s.out, tile, ld_out, tid, AT_RV(s), AT_CV(s));
#endif
    }
#if AT_EDGE
    else
        at_edge_store(etile, s, ld_out, tid);
#endif
}

extern "C" __global__ void AT_BOUNDS
AT_KERNEL(const at_elem *AT_RST in, at_elem *AT_RST out, int rows, int cols,
          long long ld_in, long long ld_out, int batch, long long stride_in,
          long long stride_out)
{
    AT_TEST_HOOK
    extern __shared__ __align__(16) unsigned char at_smem[];
    at_unit *tile = (at_unit *)at_smem;
    at_elem *etile = (at_elem *)at_smem;
#if AT_EDGE
    const int tx = threadIdx.x, ty = threadIdx.y;
#else
    /* The modulo (an AND: the sides are powers of two) tells the compiler
     * what the launch guarantees, tx < AT_BLOCK_X and ty < AT_BLOCK_Y, so
     * the unrolled loads' and stores' checks against a whole tile's sides
     * fold away: a branch less for each (NVRTC 13, f32 64x64 tiles of
     * 16x8 threads, 32 elements each, two tiles a block: 86 branches to
     * 14, 0.117 CPU-s to 0.095). With the element path the checks are
     * against the tile's valid part, a runtime value: nothing folds. */
    const int tx = threadIdx.x % AT_BLOCK_X, ty = threadIdx.y % AT_BLOCK_Y;
#endif
    const int tid = ty * AT_BLOCK_X + tx;
    const long long tiles_x = ((long long)cols + AT_TILE_X - 1) / AT_TILE_X;
    const long long tiles_y = ((long long)rows + AT_TILE_Y - 1) / AT_TILE_Y;
    const long long tiles = tiles_x * tiles_y * batch;
    /* One past the input's last element. */
    const at_elem *in_end = in + (batch - 1) * stride_in +
                            (long long)(rows - 1) * ld_in + cols;
    const at_flags f = at_flags_of(in, out, rows, cols, ld_in, ld_out, batch,
                                   stride_in, stride_out);
    at_vec_u r[AT_LOAD_ROWS][AT_LOAD_COLS][AT_PACK];

#if AT_THIN
    if (rows == 1 || cols == 1) {
        /* A vector: its transpose is a strided copy over the whole grid,
         * no tile needed; a plain copy where both sides are contiguous. */
        const long long n = (long long)rows * cols;
        const long long step_in = cols == 1 ? ld_in : 1;
        const long long step_out = rows == 1 ? ld_out : 1;
        const long long all = n * batch;
        const long long first = (long long)blockIdx.x * AT_THREADS + tid;
        const long long stride = (long long)gridDim.x * AT_THREADS;
        if (step_in == 1 && step_out == 1 &&
            (batch == 1 || (stride_in == n && stride_out == n)) &&
            (((unsigned long long)in | (unsigned long long)out) % 16) == 0) {
            const long long chunks = all * AT_ELEM_BYTES / 16;
            const uint4 *src = (const uint4 *)in;
            uint4 *dst = (uint4 *)out;
#pragma unroll 1
            for (long long i = first; i < chunks; i += stride)
                dst[i] = AT_LD(src + i);
            /* The bytes after the last whole 16. */
            const unsigned char *s8 = (const unsigned char *)in;
            unsigned char *d8 = (unsigned char *)out;
            for (long long i = chunks * 16 + first;
                 i < all * AT_ELEM_BYTES; i += stride)
                d8[i] = AT_LD(s8 + i);
            return;
        }
#pragma unroll 1
        for (long long i = first; i < all; i += stride) {
            const long long z = batch == 1 ? 0 : i / n, k = i - z * n;
            out[z * stride_out + k * step_out] =
                AT_LD(in + z * stride_in + k * step_in);
        }
        return;
    }
#endif

#if AT_TILES > 1
    /* Rotated so that each step (load, put, store) has one site in the
     * code, the unrolled loads above all (a second site made these
     * points 12-14% slower to compile): step k loads tile k, stores tile
     * k - 1 (so the loads go out before that store), then puts tile k. */
    for (long long first = (long long)blockIdx.x * AT_TILES; first < tiles;
         first += (long long)gridDim.x * AT_TILES) {
        const int count =
            tiles - first < AT_TILES ? (int)(tiles - first) : AT_TILES;
        at_tile s; /* in shared memory, to be stored */
#pragma unroll 1
        for (int k = 0; k <= count; ++k) {
            at_tile n;
            if (k < count) {
                n = at_tile_at(in, out, rows, cols, ld_in, ld_out, stride_in,
                               stride_out, tiles_x, tiles_y, first + k,
                               f.vec_ok, f.flat_in, in_end);
                if (n.fast && !f.flat_in)
                    at_load(r, n.in, ld_in, tx, ty, AT_RV(n), AT_CV(n));
            }
            if (k > 0) {
                at_tile_out(tile, etile, s, ld_out, tx, ty, tid, f);
                __syncthreads();
            }
            if (k == count)
                break;
            at_tile_in(tile, etile, n, r, ld_in, tx, ty, tid, f);
            __syncthreads();
            s = n;
        }
    }
#else
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        const at_tile s = at_tile_at(in, out, rows, cols, ld_in, ld_out,
                                     stride_in, stride_out, tiles_x, tiles_y,
                                     t, f.vec_ok, f.flat_in, in_end);
        if (s.fast && !f.flat_in)
            at_load(r, s.in, ld_in, tx, ty, AT_RV(s), AT_CV(s));
        at_tile_in(tile, etile, s, r, ld_in, tx, ty, tid, f);
        __syncthreads();
        at_tile_out(tile, etile, s, ld_out, tx, ty, tid, f);
        __syncthreads();
    }
#endif
}
#endif /* AT_STRIP */
