/* Reductions: one result per row of a row-major matrix (AT_COLS 0: the
 * whole array is one row), or one per column (AT_COLS 1), of
 *   sum, min, max, sumsq (sum of squares) or amax (largest |x|),
 * accumulated in at_acc (f32 for f16, bf16 and f32 input; f64 for f64;
 * for i32, 64-bit integers for sums, wrapping modulo 2^64, and 32-bit
 * ones for min, max and amax) and written as at_out (at_acc; 64-bit
 * integers for i32). NaN propagates through every floating op.
 *
 * A point is chosen by the generator with these macros:
 *   AT_TYPE     input: 0 f32, 1 f64, 2 f16, 3 bf16, 4 i32
 *   AT_OP       0 sum, 1 min, 2 max, 3 sumsq, 4 amax
 *   AT_COLS     0: along rows (contiguous); 1: down columns
 *   AT_THREADS  threads per block
 *   AT_GROUP    threads along a row: a row's share (AT_COLS 0; all the
 *               block's when AT_GROUP == AT_THREADS), or the threads side
 *               by side across a column strip (AT_COLS 1, the other
 *               AT_THREADS / AT_GROUP walking down the rows)
 *   AT_VEC      elements per load (at most 16 bytes)
 *   AT_ITEMS    loads in flight per thread per step
 *   AT_ACCS     independent accumulators per thread (divides AT_ITEMS)
 *   AT_COMBINE  with a row or column split over blocks (split > 1): 0 the
 *               last block to finish combines the partials in a fixed
 *               order; 1 a second pass does (pass 1); 2 atomics
 *               combine them (sums: the order, and so the rounding,
 *               varies run to run; min, max and amax: order-preserving
 *               words, the same bits in any order)
 *   AT_TREE     0 warp shuffles, 1 a shared-memory tree (across warps, or
 *               across the row lanes of a column strip)
 *   AT_FLAT     1 (AT_GROUP 0): the rows read as one flat run of
 *               vectors. AT_COLS 1: a group of ld threads to each AT_VEC
 *               rows (grid (1, split)); needs ld <= AT_THREADS, not ld a
 *               multiple of AT_VEC (AT_VEC 1: cols threads a row, cols <=
 *               AT_THREADS, any ld). AT_COLS 0: seg whole rows a warp
 *               (grid (ceil(rows / (AT_THREADS / 32 * seg)), 1)), any
 *               shape
 *   AT_FLAT_K   (AT_FLAT, AT_COLS 1) vectors of a chunk a thread: 1,
 *               or for ld past the block (the generator's
 *               ceil(ld / AT_THREADS), at most 4) that many, with atomic
 *               totals (AT_COMBINE 2)
 *   AT_SHIFT    1 (AT_COLS 1, a strip of 16-byte vectors, ld not a
 *               multiple of AT_VEC; the generator takes it for 2- and
 *               4-byte elements): each row's vectors loaded aligned, two
 *               side by side, and the thread's AT_VEC columns taken from
 *               them by the row's offset (any ld; see at_shift)
 *   AT_ANY_BASE 1 (the API's variant for an input off the point's
 *               vectors, a view into a larger matrix, say): the same
 *               point taking any element-aligned input, its loads split
 *               or realigned (0 when not defined)
 *   AT_KERNEL   the kernel's name
 *
 * Arguments: rows, cols, ld (elements between rows), seg (elements of a
 * row, or rows of a column strip, per block; split = ceil(len / seg)
 * blocks share one) and pass. Launch: AT_COLS 0: grid (ceil(rows /
 * rows a block), split), rows a block = AT_THREADS / AT_GROUP; AT_COLS 1:
 * grid (ceil(cols / (AT_GROUP * AT_VEC)), split); block AT_THREADS; pass
 * 1 (AT_COMBINE 1): grid (rows or column strips). The workspace (split >
 * 1): partials, then a counter per row of blocks (one per column strip,
 * one for a flat point), zero before the first launch and left all zero
 * by each.
 *
 * Loads need the input aligned to AT_VEC elements: rows of AT_COLS 0 go
 * element by element up to their first aligned element; AT_COLS 1 needs
 * ld a multiple of AT_VEC (the generator's constraint), except flat and
 * shifted strips. */

/* Helpers a point does not take stay unreferenced. */
#pragma nv_diag_suppress 177

#ifndef AT_ANY_BASE
#define AT_ANY_BASE 0
#endif
#ifndef AT_FLAT_K
#define AT_FLAT_K 1
#endif

#if AT_TYPE == 0
typedef float at_in;
typedef float at_acc;
#elif AT_TYPE == 1
typedef double at_in;
typedef double at_acc;
#elif AT_TYPE == 2 || AT_TYPE == 3
typedef unsigned short at_in;
typedef float at_acc;
#else
typedef int at_in;
/* Sums of ints need 64 bits; min and max stay ints and amax fits an
 * unsigned (|INT_MIN| too), which halves registers, shared memory and
 * partials and keeps each combine one instruction. */
#if AT_OP == 1 || AT_OP == 2
typedef int at_acc;
#elif AT_OP == 4
typedef unsigned at_acc;
#else
typedef long long at_acc;
#endif
#endif

/* What a result is stored as: i32's results are 64-bit for every op. */
#if AT_TYPE == 4
typedef long long at_out;
#else
typedef at_acc at_out;
#endif

#define AT_FLOAT (AT_TYPE != 4)

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

/* sm_80 and later have min and max that propagate NaN (min.NaN,
 * max.NaN): one instruction where a compare, a NaN test and a select
 * were. AT_FMNMX: float accumulators (f32, f16, bf16) take them.
 * AT_PAIRS: 16-bit min, max and amax also combine their elements two at
 * a time in 16 bits (min.NaN.bf16x2 and f16x2: a minimum is one of the
 * elements, exact in any width), and only each vector's last pair is
 * widened. __CUDA_ARCH__ is undefined in nvcc's host pass: 0 there. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && AT_FLOAT &&          \
    AT_TYPE != 1 && (AT_OP == 1 || AT_OP == 2 || AT_OP == 4)
#define AT_FMNMX 1
#else
#define AT_FMNMX 0
#endif
#if AT_FMNMX && (AT_TYPE == 2 || AT_TYPE == 3)
#define AT_PAIRS 1
#else
#define AT_PAIRS 0
#endif

/* Raw vectors of AT_VEC elements. */
template <int B> struct at_raw;
template <> struct at_raw<2> { typedef unsigned short t; };
template <> struct at_raw<4> { typedef unsigned t; };
template <> struct at_raw<8> { typedef uint2 t; };
template <> struct at_raw<16> { typedef uint4 t; };

template <typename T, int V> union at_vec {
    typename at_raw<V * sizeof(T)>::t raw;
    T e[V];
};

/* An input element as the accumulator (f16 and bf16 by hand: no header). */
static __device__ __forceinline__ at_acc at_value(at_in x)
{
#if AT_TYPE == 2
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(x));
    return f;
#elif AT_TYPE == 3
    return __uint_as_float((unsigned)x << 16);
#elif AT_TYPE == 4 && AT_OP == 4
    /* |x| as unsigned here, so at_map has nothing left to do. */
    return x < 0 ? 0u - (unsigned)x : (unsigned)x;
#else
    return (at_acc)x;
#endif
}

static __device__ __forceinline__ at_acc at_identity()
{
#if AT_OP == 0 || AT_OP == 3 || AT_OP == 4
    return (at_acc)0;
#elif AT_OP == 1
#if AT_FLOAT
    return (at_acc)__int_as_float(0x7f800000);
#else
    return 0x7fffffff;
#endif
#else
#if AT_FLOAT
    return (at_acc)__int_as_float(0xff800000);
#else
    return -0x7fffffff - 1;
#endif
#endif
}

/* An element mapped before combining: x, x * x or |x|. */
static __device__ __forceinline__ at_acc at_map(at_acc x)
{
#if AT_OP == 3
    return x * x;
#elif AT_OP == 4 && AT_FMNMX
    return fabsf(x); /* an operand's modifier, where it can be */
#elif AT_OP == 4 && AT_FLOAT
    return x < 0 ? -x : x;
#else
    return x;
#endif
}

/* Combines two accumulators; a NaN on either side wins. */
static __device__ __forceinline__ at_acc at_comb(at_acc a, at_acc b)
{
#if AT_FMNMX
    float r;
#if AT_OP == 1
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
#else
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
#endif
    return r;
#elif AT_OP == 0 || AT_OP == 3
#if AT_FLOAT
    return a + b;
#else
    return (at_acc)((unsigned long long)a + (unsigned long long)b);
#endif
#elif AT_OP == 1
    return (b < a || b != b) ? b : a;
#else
    return (b > a || b != b) ? b : a;
#endif
}

#if AT_PAIRS
/* Two 16-bit elements at once: |x| by the sign bits (amax), then min or
 * max, NaN propagating. */
static __device__ __forceinline__ unsigned at_pair_map(unsigned w)
{
    return AT_OP == 4 ? w & 0x7fff7fffu : w;
}

static __device__ __forceinline__ unsigned at_pair_comb(unsigned a,
                                                        unsigned b)
{
    unsigned r;
#if AT_TYPE == 2 && AT_OP == 1
    asm("min.NaN.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
#elif AT_TYPE == 2
    asm("max.NaN.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
#elif AT_OP == 1
    asm("min.NaN.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
#else
    asm("max.NaN.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
#endif
    return r;
}
#endif

/* Combines the mapped elements of v into acc. */
template <int V>
static __device__ __forceinline__ at_acc at_take(at_acc acc,
                                                 const at_vec<at_in, V> &v)
{
#if AT_PAIRS
    if (V >= 2) { /* a constant: one of the branches is dead code */
        /* The vector's pairs combined in 16 bits, then the last pair's
         * two elements widened into acc (|x| already taken). */
        const unsigned *w = reinterpret_cast<const unsigned *>(&v);
        unsigned m = at_pair_map(w[0]);
#pragma unroll
        for (int k = 1; k < V / 2; ++k)
            m = at_pair_comb(m, at_pair_map(w[k]));
        acc = at_comb(acc, at_value((at_in)(m & 0xffffu)));
        acc = at_comb(acc, at_value((at_in)(m >> 16)));
    } else
#endif
    {
#pragma unroll
        for (int k = 0; k < V; ++k)
            acc = at_comb(acc, at_map(at_value(v.e[k])));
    }
    return acc;
}

static __device__ __forceinline__ at_acc at_shfl_down(at_acc v, int o,
                                                      int width)
{
    return __shfl_down_sync(0xffffffffu, v, o, width);
}

/* The block's AT_THREADS values combined (lane order fixed, so the same
 * for every run); the result in thread 0. */
static __device__ __forceinline__ at_acc at_block_reduce(at_acc v,
                                                         at_acc *sm)
{
    const int t = threadIdx.x;
#if AT_TREE == 1
    sm[t] = v;
    __syncthreads();
#pragma unroll
    for (int s = AT_THREADS / 2; s > 0; s >>= 1) {
        if (t < s)
            sm[t] = at_comb(sm[t], sm[t + s]);
        __syncthreads();
    }
    v = sm[0];
    __syncthreads();
    return v;
#else
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = at_comb(v, at_shfl_down(v, o, 32));
    if ((t & 31) == 0)
        sm[t >> 5] = v;
    __syncthreads();
    if (t < 32) {
        v = t < AT_THREADS / 32 ? sm[t] : at_identity();
#pragma unroll
        for (int o = 16; o > 0; o >>= 1)
            v = at_comb(v, at_shfl_down(v, o, 32));
    }
    __syncthreads();
    return v;
#endif
}

/* The block's share of the workspace: AT_ACC partials (or, AT_COMBINE 2,
 * one running total per output), then the counters (a row of blocks'
 * or column strip's each; one for a flat point). */
static __device__ __forceinline__ unsigned *at_counters(void *ws,
                                                        long long partials)
{
    return (unsigned *)((at_acc *)ws + partials);
}

/* The n partials at p zeroed by the block that has just combined them
 * (every thread calls it; the barrier first, since a thread zeroes what
 * another read). Every launch leaves the whole workspace zero: the next
 * may be of another shape (or, in a file of several kernels, another
 * kernel), whose counters or atomic totals lie where these were. The
 * walks whose partials each have one reader (a row's, a flat point's)
 * zero them as they read instead; the column strips use this. */
static __device__ __forceinline__ void at_zero_parts(at_acc *p, long long n)
{
    __syncthreads();
    for (long long i = threadIdx.x; i < n; i += AT_THREADS)
        __stcg(&p[i], (at_acc)0);
}

#if AT_COMBINE == 2 && (AT_OP == 1 || AT_OP == 2 || AT_OP == 4)
/* Minima and maxima by atomics: each accumulator as an unsigned word
 * whose order is the op's (atomicMax of the words is the op: the
 * largest for max and amax, the smallest for min, a NaN above all), and
 * 0, the workspace's zero, no word above a value's (for i32 it is the
 * word of the op's identity). So the total is the same bits whatever
 * order the blocks come in. */
#if AT_FLOAT && AT_TYPE == 1
typedef unsigned long long at_ord;
#define AT_ORD_SIGN 0x8000000000000000ULL
static __device__ __forceinline__ at_ord at_bits(at_acc v)
{
    return (at_ord)__double_as_longlong(v);
}
static __device__ __forceinline__ at_acc at_of_bits(at_ord u)
{
    return __longlong_as_double((long long)u);
}
#elif AT_FLOAT
typedef unsigned at_ord;
#define AT_ORD_SIGN 0x80000000u
static __device__ __forceinline__ at_ord at_bits(at_acc v)
{
    return __float_as_uint(v);
}
static __device__ __forceinline__ at_acc at_of_bits(at_ord u)
{
    return __uint_as_float(u);
}
#else
typedef unsigned at_ord; /* i32: int (min, max) or unsigned (amax) */
#define AT_ORD_SIGN 0x80000000u
static __device__ __forceinline__ at_ord at_bits(at_acc v)
{
    return (at_ord)v;
}
static __device__ __forceinline__ at_acc at_of_bits(at_ord u)
{
    return (at_acc)u;
}
#endif

/* v's word: bits in increasing order of value (a float's sign flips the
 * rest; an int's sign bit flips; amax of i32 is unsigned already),
 * inverted for min; every NaN the largest word. */
static __device__ __forceinline__ at_ord at_ord_of(at_acc v)
{
#if AT_FLOAT
    if (v != v)
        return ~(at_ord)0;
    const at_ord u = at_bits(v);
    const at_ord up = u & AT_ORD_SIGN ? ~u : u | AT_ORD_SIGN;
#elif AT_OP == 4
    const at_ord up = at_bits(v);
#else
    const at_ord up = at_bits(v) ^ AT_ORD_SIGN;
#endif
    return AT_OP == 1 ? ~up : up;
}

static __device__ __forceinline__ at_acc at_of_ord(at_ord w)
{
#if AT_FLOAT
    if (w == ~(at_ord)0)
        return at_of_bits(~(at_ord)0 >> 1); /* NaN */
#endif
    const at_ord up = AT_OP == 1 ? ~w : w;
#if AT_FLOAT
    return at_of_bits(up & AT_ORD_SIGN ? up & ~AT_ORD_SIGN : ~up);
#elif AT_OP == 4
    return at_of_bits(up);
#else
    return at_of_bits(up ^ AT_ORD_SIGN);
#endif
}

static __device__ __forceinline__ at_acc at_take_total(at_acc *p)
{
    return at_of_ord(atomicExch((at_ord *)p, (at_ord)0));
}

static __device__ __forceinline__ void at_add_total(at_acc *p, at_acc v)
{
    atomicMax((at_ord *)p, at_ord_of(v));
}
#elif AT_COMBINE == 2 && AT_FLOAT
static __device__ __forceinline__ at_acc at_take_total(at_acc *p)
{
#if AT_TYPE == 1
    return __longlong_as_double(
        (long long)atomicExch((unsigned long long *)p, 0ULL));
#else
    return atomicExch(p, 0.0f);
#endif
}
#elif AT_COMBINE == 2
static __device__ __forceinline__ at_acc at_take_total(at_acc *p)
{
    return (at_acc)atomicExch((unsigned long long *)p, 0ULL);
}
#endif

#if AT_COMBINE == 2 && AT_OP != 1 && AT_OP != 2 && AT_OP != 4
static __device__ __forceinline__ void at_add_total(at_acc *p, at_acc v)
{
#if AT_FLOAT
    atomicAdd(p, v);
#else
    atomicAdd((unsigned long long *)p, (unsigned long long)v);
#endif
}
#endif

/* A block's partial p for output o of n outputs: stored, and if this is
 * the last of split blocks to finish, *last set and the partials of o
 * (all split of them, AT_COMBINE 0, fixed order) or the total
 * (AT_COMBINE 2) returned in thread 0. Called by thread 0 only. */
static __device__ __forceinline__ int at_publish(void *ws, long long o,
                                                 long long n, int split,
                                                 int s, at_acc p)
{
    at_acc *part = (at_acc *)ws;
#if AT_COMBINE == 2
    at_add_total(&part[o], p);
    unsigned *cnt = at_counters(ws, n);
#else
    part[o * split + s] = p;
    unsigned *cnt = at_counters(ws, n * split);
#endif
    __threadfence();
    unsigned prev = atomicAdd(&cnt[o], 1u);
    if (prev != (unsigned)split - 1)
        return 0;
    __threadfence();
    cnt[o] = 0; /* left zero for the next launch */
    return 1;
}

/* Partials (or elements down a column) a combining thread has in
 * flight: one at a time leaves an L2 round trip a row on the tail. */
#define AT_PART_LOADS 8

/* A flat walk's vector at q (down columns, or along rows): whole, or
 * element by element where the input is off the vector (AT_ANY_BASE;
 * the same slots either way). */
#if AT_ANY_BASE
#define AT_FLAT_LD(x, q)                                                    \
    do {                                                                    \
        for (int e_ = 0; e_ < AT_VEC; ++e_)                                 \
            (x).e[e_] = __ldg((const at_in *)(q) + e_);                     \
    } while (0)
#else
#define AT_FLAT_LD(x, q) ((x).raw = __ldg(&(q)->raw))
#endif

#if AT_COLS == 0 && AT_FLAT
/* ---- Along rows, the rows read as one flat run ----------------------
 * For short rows whose starts fall anywhere in a vector (127 bf16 a
 * row), end to end (ld == cols): a warp takes seg whole rows [r0, r1),
 * the elements from r0 * ld to the last of row r1 - 1, as aligned
 * vectors, each lane a run of AT_ITEMS of them side by side (the row by
 * row walk paid each row's ends element by element, and its group's
 * shuffles). A run holds the last element of at most one row (cols >=
 * AT_ITEMS * AT_VEC): its lane takes each vector whole, and splits only
 * the one holding that element, the elements up to it (row A) from
 * those after (row A + 1); a segmented scan across the lanes, in lane
 * order, gives each row its total at the lane holding its last element,
 * which writes it; the row still open after the warp's 32 runs carries
 * on to the next 32. No workspace, no split, the same order every run.
 * Other shapes (rows padded, or shorter than a run) take a lane a row,
 * element by element. */

static __device__ __forceinline__ at_acc at_shfl_up(at_acc v, int o)
{
    return __shfl_up_sync(0xffffffffu, v, o);
}

static __device__ __forceinline__ at_acc at_shfl_idx(at_acc v, int l)
{
    return __shfl_sync(0xffffffffu, v, l);
}

#define AT_RUN (AT_ITEMS * AT_VEC) /* elements a lane's run */

/* A warp's rows [r0, r1) of rows, end to end (ld == cols >= AT_RUN).
 * Every lane calls it. */
static __device__ __forceinline__ void at_flat_rows(
    const at_in *__restrict__ in, at_out *__restrict__ out, long long rows,
    long long r0, long long r1, int cols, int lane)
{
    typedef at_vec<at_in, AT_VEC> vt;
    const vt *pv = (const vt *)in;
    const long long s = r0 * cols, e = r1 * cols;
    const long long vb = s / AT_VEC, ve = (e + AT_VEC - 1) / AT_VEC;
    /* Whole vectors below vw: the array's last may end inside one. */
    const long long vw = r1 == rows ? e / AT_VEC : ve;
    /* This lane's run's first element as (row, col); before s, the end
     * of row r0 - 1 (by less than a vector: never written). */
    int col = lane * AT_RUN - (int)(s - vb * AT_VEC);
    long long row = r0;
    if (col < 0) {
        col += cols;
        --row;
    } else if (col >= cols) {
        row += col / cols;
        col %= cols;
    }
    /* 32 runs on: q rows and rem columns more. */
    const int q = 32 * AT_RUN / cols, rem = 32 * AT_RUN - q * cols;
    const unsigned below = (1u << lane) - 1u;
    at_acc carry = at_identity();
    /* v0: this lane's run's first vector; v0 - lane * AT_ITEMS the
     * warp's, the same in every lane. */
    for (long long v0 = vb + (long long)lane * AT_ITEMS;
         v0 - lane * AT_ITEMS < ve; v0 += 32 * AT_ITEMS) {
        /* The run's vectors k < nw whole, k < nl the warp's (the array's
         * last may end inside one): bounds once a run, not a vector. */
        const long long left = ve - v0, whole = vw - v0;
        const int nl = left >= AT_ITEMS ? AT_ITEMS : left > 0 ? (int)left : 0;
        const int nw = whole >= AT_ITEMS ? AT_ITEMS
                       : whole > 0       ? (int)whole
                                         : 0;
        const vt *run = pv + v0;
        vt x[AT_ITEMS];
#pragma unroll
        for (int k = 0; k < AT_ITEMS; ++k) {
            if (k < nw) {
                AT_FLAT_LD(x[k], &run[k]);
            } else { /* part of a vector, or past the warp's rows */
#pragma unroll
                for (int j = 0; j < AT_VEC; ++j)
                    x[k].e[j] = k < nl && (v0 + k) * AT_VEC + j < e
                                    ? __ldg((const at_in *)&run[k] + j)
                                    : (at_in)0;
            }
        }
        /* The row's last element, if in the run: vector ke, element je. */
        const int end = cols - 1 - col;
        const bool head = end < AT_RUN && nl > 0;
        const int ke = end / AT_VEC, je = end % AT_VEC;
        at_acc a = at_identity(), b = at_identity();
        vt xe;
        xe.raw = x[0].raw;
#pragma unroll
        for (int k = 0; k < AT_ITEMS; ++k) {
            if (k >= nl)
                continue;
            if (k == ke)
                xe.raw = x[k].raw;
            else if (k < ke)
                a = at_take<AT_VEC>(a, x[k]);
            else
                b = at_take<AT_VEC>(b, x[k]);
        }
        if (head) { /* the vector with the row's end, split there */
            at_acc ea = at_identity(), eb = at_identity();
#pragma unroll
            for (int j = 0; j < AT_VEC; ++j) {
                const at_acc y = at_map(at_value(xe.e[j]));
                if (j <= je)
                    ea = at_comb(ea, y);
                else
                    eb = at_comb(eb, y);
            }
            a = at_comb(a, ea);
            b = at_comb(eb, b);
        }
        const unsigned heads = __ballot_sync(0xffffffffu, head);
        /* What each lane passes on (b past a row's end, else a),
         * scanned within segments that start at the heads. */
        const unsigned upto = heads & (below | (1u << lane));
        const int first = upto ? 31 - __clz(upto) : 0;
        at_acc sc = head ? b : a;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const at_acc t = at_shfl_up(sc, d);
            if (lane - d >= first)
                sc = at_comb(t, sc);
        }
        const at_acc prev = at_shfl_up(sc, 1);
        if (head && row >= r0) {
            const at_acc before = heads & below ? prev
                                  : lane       ? at_comb(carry, prev)
                                               : carry;
            out[row] = at_comb(before, a);
        }
        const at_acc open = at_shfl_idx(sc, 31);
        carry = heads ? open : at_comb(carry, open);
        col += rem;
        row += q;
        if (col >= cols) {
            col -= cols;
            ++row;
        }
    }
}

extern "C" __global__ void AT_BOUNDS
AT_KERNEL(const at_in *__restrict__ in, at_out *__restrict__ out, void *ws,
          long long rows, long long cols, long long ld, long long seg,
          int pass)
{
    (void)ws;
    (void)pass;
    const int lane = threadIdx.x % 32;
    const long long r0 =
        ((long long)blockIdx.x * (AT_THREADS / 32) + threadIdx.x / 32) * seg;
    if (r0 >= rows)
        return; /* the whole warp */
    const long long r1 = r0 + seg < rows ? r0 + seg : rows;
    /* (cols past 2^30: the walk's offsets are ints.) */
    if (ld == cols && cols >= AT_RUN && cols <= (1LL << 30)) {
        at_flat_rows(in, out, rows, r0, r1, (int)cols, lane);
        return;
    }
    for (long long r = r0 + lane; r < r1; r += 32) {
        at_acc acc = at_identity();
        for (long long c = 0; c < cols; ++c)
            acc = at_comb(acc, at_map(at_value(__ldg(&in[r * ld + c]))));
        out[r] = acc;
    }
}

#elif AT_COLS == 0
/* ---- Along rows ---------------------------------------------------- */

#define AT_RPB (AT_THREADS / AT_GROUP) /* rows a block */

/* This thread's share of [b0, b1) of row p (aligned at a: the first
 * element whose address is a multiple of AT_VEC elements, b0 >= a or the
 * head [0, a) taken as well when head). Every load of a short row is in
 * flight at once: the elements off the vectors (the head, the tail past
 * the last whole vector) are loaded first and combined last, and the
 * vectors past the whole steps go as one step of predicated loads. One
 * at a time, a row of a few steps waited a round trip for each (f32 rows
 * of 502 at ld 551: a head, a step, four single vectors and a tail). */
static __device__ __forceinline__ at_acc at_row_part(
    const at_in *__restrict__ p, long long a, long long b0, long long b1,
    int head, int lane)
{
    at_acc acc[AT_ACCS];
#pragma unroll
    for (int k = 0; k < AT_ACCS; ++k)
        acc[k] = at_identity();
    typedef at_vec<at_in, AT_VEC> vt;
    const vt *pv = (const vt *)(p + b0);
    const long long nv = b1 > b0 ? (b1 - b0) / AT_VEC : 0;
    const long long t0 = b0 + nv * AT_VEC; /* the tail: [t0, b1) */
    /* Fewer than AT_VEC elements each side: at most EDGE a lane. */
    constexpr int EDGE = (AT_VEC - 1 + AT_GROUP - 1) / AT_GROUP;
    at_in he[EDGE > 0 ? EDGE : 1], te[EDGE > 0 ? EDGE : 1];
#pragma unroll
    for (int j = 0; j < EDGE; ++j) {
        const long long h = lane + j * AT_GROUP, t = t0 + h;
        if (head && h < a)
            he[j] = p[h];
        if (t < b1)
            te[j] = p[t];
    }
    long long v = lane;
    /* Whole steps: AT_ITEMS loads, no checks. */
    for (; v + (AT_ITEMS - 1) * AT_GROUP < nv; v += AT_ITEMS * AT_GROUP) {
        vt x[AT_ITEMS];
#pragma unroll
        for (int k = 0; k < AT_ITEMS; ++k)
            x[k].raw = __ldg(&pv[v + k * AT_GROUP].raw);
#pragma unroll
        for (int k = 0; k < AT_ITEMS; ++k)
            acc[k % AT_ACCS] = at_take<AT_VEC>(acc[k % AT_ACCS], x[k]);
    }
    /* The rest: one step, each load there or not. */
    if (AT_ITEMS > 1 && v < nv) {
        vt x[AT_ITEMS];
#pragma unroll
        for (int k = 0; k < AT_ITEMS; ++k)
            if (v + k * AT_GROUP < nv)
                x[k].raw = __ldg(&pv[v + k * AT_GROUP].raw);
#pragma unroll
        for (int k = 0; k < AT_ITEMS; ++k)
            if (v + k * AT_GROUP < nv)
                acc[k % AT_ACCS] = at_take<AT_VEC>(acc[k % AT_ACCS], x[k]);
    }
#pragma unroll
    for (int j = 0; j < EDGE; ++j) {
        const long long h = lane + j * AT_GROUP;
        if (head && h < a)
            acc[0] = at_comb(acc[0], at_map(at_value(he[j])));
        if (t0 + h < b1)
            acc[0] = at_comb(acc[0], at_map(at_value(te[j])));
    }
#pragma unroll
    for (int k = 1; k < AT_ACCS; ++k)
        acc[0] = at_comb(acc[0], acc[k]);
    return acc[0];
}

/* The group's values combined into its lane 0. */
static __device__ __forceinline__ at_acc at_group_reduce(at_acc v,
                                                         at_acc *sm)
{
#if AT_GROUP == AT_THREADS && AT_THREADS > 32
    return at_block_reduce(v, sm);
#else
    (void)sm;
#pragma unroll
    for (int o = AT_GROUP / 2; o > 0; o >>= 1)
        v = at_comb(v, at_shfl_down(v, o, AT_GROUP));
    return v;
#endif
}

/* Output row's split partials combined by the whole block, fixed order,
 * each zeroed by the one thread that read it (see at_zero_parts). */
static __device__ __forceinline__ at_acc at_row_partials(at_acc *part,
                                                         int split,
                                                         at_acc *sm)
{
    at_acc v = at_identity();
    for (int i = threadIdx.x; i < split; i += AT_THREADS) {
        v = at_comb(v, __ldcg(&part[i]));
        __stcg(&part[i], (at_acc)0);
    }
    return at_block_reduce(v, sm);
}

extern "C" __global__ void AT_BOUNDS
AT_KERNEL(const at_in *__restrict__ in, at_out *__restrict__ out, void *ws,
          long long rows, long long cols, long long ld, long long seg,
          int pass)
{
    __shared__ at_acc sm[AT_TREE == 1 ? AT_THREADS : 32];
    __shared__ int last;
    const int split = gridDim.y;
#if AT_COMBINE == 1 && AT_GROUP == AT_THREADS
    if (pass == 1) { /* one block per row: its partials, in order */
        const long long row = blockIdx.x;
        at_acc v = at_row_partials((at_acc *)ws + row * seg, (int)seg, sm);
        if (threadIdx.x == 0)
            out[row] = v;
        return;
    }
#else
    (void)pass;
#endif
    const long long row =
        (long long)blockIdx.x * AT_RPB + threadIdx.x / AT_GROUP;
    const int lane = threadIdx.x % AT_GROUP;
    at_acc v = at_identity();
    if (row < rows) {
        const at_in *p = in + row * ld;
#if AT_ANY_BASE
        /* First element on an AT_VEC boundary, from p's address. */
        long long a =
            (AT_VEC -
             (long long)((unsigned long long)p / sizeof(at_in) % AT_VEC)) %
            AT_VEC;
#else
        /* First element on an AT_VEC boundary (in itself is aligned). */
        long long a = (AT_VEC - (long long)((row * ld) % AT_VEC)) % AT_VEC;
#endif
        if (a > cols)
            a = cols;
        const long long s = blockIdx.y;
        long long b0 = a + s * seg, b1 = b0 + seg;
        if (b0 > cols)
            b0 = cols;
        if (b1 > cols || s == split - 1)
            b1 = cols;
        v = at_row_part(p, a, b0, b1, s == 0, lane);
    }
    v = at_group_reduce(v, sm);
    if (split == 1) {
        if (lane == 0 && row < rows)
            out[row] = v;
        return;
    }
    /* Split rows: one row a block (AT_GROUP == AT_THREADS). */
#if AT_GROUP == AT_THREADS
#if AT_COMBINE == 1
    if (threadIdx.x == 0)
        ((at_acc *)ws)[row * split + blockIdx.y] = v;
#else
    if (threadIdx.x == 0)
        last = at_publish(ws, row, rows, split, blockIdx.y, v);
    __syncthreads();
    if (!last)
        return;
#if AT_COMBINE == 0
    v = at_row_partials((at_acc *)ws + row * split, split, sm);
    if (threadIdx.x == 0)
        out[row] = v;
#else
    if (threadIdx.x == 0)
        out[row] = at_take_total((at_acc *)ws + row);
#endif
#endif
#endif
}

#elif AT_FLAT
/* ---- Down columns, the rows as one flat run ------------------------
 * A chunk of AT_VEC rows is ld vectors of AT_VEC elements (the input
 * aligned to a vector): a group of ld threads takes a chunk, thread v
 * its vector v, whose element e is always in column (v * AT_VEC + e) % ld
 * of the chunk's row (v * AT_VEC + e) / ld. So every load is a whole
 * aligned vector wherever rows start, and a block's groups take chunks
 * side by side: one contiguous run. Slots past the last column (the
 * padding between rows) gather padding only and are never read. Needs
 * ld <= AT_THREADS. One-element vectors skip the padding instead: a
 * group of cols threads a row, thread v its column v (needs cols <=
 * AT_THREADS), so rows padded far apart (f64 39 of 75) load what they
 * sum and nothing between. AT_FLAT_SPAN: a group's threads. */
#define AT_FLAT_SPAN(cols, ld) (AT_VEC == 1 ? (cols) : (ld))

/* Column c's partials [i0, i1) (ws rows of cols), in order,
 * AT_PART_LOADS in flight, each zeroed by this thread, its one reader,
 * once read: zeroing all split x cols after a barrier kept one block
 * busy for microseconds on short kernels (bf16 354052x150: 4 points of
 * the copy). */
static __device__ __forceinline__ at_acc at_flat_partials(
    at_acc *part, long long cols, long long i0, long long i1, long long c)
{
    at_acc v = at_identity();
    long long i = i0;
    for (; i + AT_PART_LOADS - 1 < i1; i += AT_PART_LOADS) {
        at_acc y[AT_PART_LOADS];
#pragma unroll
        for (int k = 0; k < AT_PART_LOADS; ++k)
            y[k] = __ldcg(&part[(i + k) * cols + c]);
#pragma unroll
        for (int k = 0; k < AT_PART_LOADS; ++k) {
            __stcg(&part[(i + k) * cols + c], (at_acc)0);
            v = at_comb(v, y[k]);
        }
    }
    for (; i < i1; ++i) {
        v = at_comb(v, __ldcg(&part[i * cols + c]));
        __stcg(&part[i * cols + c], (at_acc)0);
    }
    return v;
}

/* Column t's total of its split partials, for t < cols (<= AT_THREADS):
 * the whole block walks them, in shares of AT_THREADS / cols runs of
 * partials side by side, each in order, then the shares in order (sm:
 * AT_THREADS slots). One column's walk alone kept hundreds of L2 round
 * trips on the kernel's tail. Every thread of the block calls it. */
static __device__ __forceinline__ at_acc at_flat_total(at_acc *part,
                                                       long long cols,
                                                       long long split,
                                                       int t, at_acc *sm)
{
    const int nc = (int)cols, shares = AT_THREADS / nc;
    const long long per = (split + shares - 1) / shares;
    const int j = t / nc;
    if (j < shares) {
        const long long i0 = j * per;
        const long long i1 = i0 + per < split ? i0 + per : split;
        sm[t] = at_flat_partials(part, cols, i0, i1, t % nc);
    }
    __syncthreads();
    at_acc r = at_identity();
    if (t < nc)
        for (int k = 0; k < shares; ++k)
            r = at_comb(r, sm[k * nc + t]);
    return r;
}

#if AT_FLAT_K > 1
/* ---- Flat down columns, ld past the block ---------------------------
 * A chunk of AT_VEC rows is still ld vectors wherever rows start, but
 * more than the block's threads: thread t takes vectors t + k AT_THREADS
 * (k < AT_FLAT_K, ld <= AT_FLAT_K AT_THREADS), so its columns stay fixed,
 * and the block walks whole chunks, AT_ITEMS in flight. Rows off the
 * 128-byte lines cost column strips a sector a run of a row (H200, i32
 * amax down 36716x1430: strips 93.9% of the copy by hand, the same on
 * rows on the lines 100.4%, this walk by hand 95.4-97.8%; docs/
 * PERFORMANCE.md, "Rows off the lines"). Totals by atomics (the
 * generator's constraint: a column's split partials walked by one
 * thread would keep the last block for as many L2 round trips). */
static_assert(AT_COMBINE == 2 && AT_VEC > 1,
              "flat points past the block: vectors, atomic totals");
static __device__ __forceinline__ void at_flat_wide(
    const at_in *__restrict__ in, at_out *__restrict__ out, void *ws,
    long long rows, long long cols, long long ld, long long r0,
    long long r1, at_acc *sm, int *last)
{
    typedef at_vec<at_in, AT_VEC> vt;
    const int t = threadIdx.x;
    const vt *pv = (const vt *)in + t;
    at_acc a[AT_FLAT_K][AT_VEC];
#pragma unroll
    for (int k = 0; k < AT_FLAT_K; ++k)
#pragma unroll
        for (int e = 0; e < AT_VEC; ++e)
            a[k][e] = at_identity();
    /* Whole chunks [m0, m1), as the narrow walk's (the chunk holding a
     * padded last row element by element). */
    const long long m0 = r0 / AT_VEC;
    long long m1 = r1 / AT_VEC;
    if (r1 == rows && ld > cols && m1 * AT_VEC == rows && m1 > m0)
        --m1;
    long long m = m0;
    for (; m + AT_ITEMS - 1 < m1; m += AT_ITEMS) {
        vt x[AT_ITEMS][AT_FLAT_K];
#pragma unroll
        for (int i = 0; i < AT_ITEMS; ++i)
#pragma unroll
            for (int k = 0; k < AT_FLAT_K; ++k)
                if (t + k * AT_THREADS < ld)
                    AT_FLAT_LD(x[i][k], &pv[(m + i) * ld + k * AT_THREADS]);
#pragma unroll
        for (int i = 0; i < AT_ITEMS; ++i)
#pragma unroll
            for (int k = 0; k < AT_FLAT_K; ++k)
                if (t + k * AT_THREADS < ld)
#pragma unroll
                    for (int e = 0; e < AT_VEC; ++e)
                        a[k][e] = at_comb(a[k][e],
                                          at_map(at_value(x[i][k].e[e])));
    }
    /* The chunks left, fewer than AT_ITEMS: loaded together, combined in
     * the same order. */
    if (m < m1) {
        vt x[AT_ITEMS][AT_FLAT_K];
#pragma unroll
        for (int i = 0; i < AT_ITEMS; ++i)
#pragma unroll
            for (int k = 0; k < AT_FLAT_K; ++k)
                if (m + i < m1 && t + k * AT_THREADS < ld)
                    AT_FLAT_LD(x[i][k], &pv[(m + i) * ld + k * AT_THREADS]);
#pragma unroll
        for (int i = 0; i < AT_ITEMS; ++i)
#pragma unroll
            for (int k = 0; k < AT_FLAT_K; ++k)
                if (m + i < m1 && t + k * AT_THREADS < ld)
#pragma unroll
                    for (int e = 0; e < AT_VEC; ++e)
                        a[k][e] = at_comb(a[k][e],
                                          at_map(at_value(x[i][k].e[e])));
    }
    /* Rows [m1 AT_VEC, r1): each element into the slot a whole chunk
     * would give it. */
    if (m1 * AT_VEC < r1) {
        const long long base = m1 * AT_VEC * ld;
#pragma unroll
        for (int k = 0; k < AT_FLAT_K; ++k)
#pragma unroll
            for (int e = 0; e < AT_VEC; ++e) {
                const long long q =
                    (t + k * AT_THREADS) * (long long)AT_VEC + e;
                if (t + k * AT_THREADS < ld && m1 * AT_VEC + q / ld < r1 &&
                    q % ld < cols)
                    a[k][e] = at_comb(a[k][e], at_map(at_value(in[base + q])));
            }
    }
#pragma unroll
    for (int k = 0; k < AT_FLAT_K; ++k)
        if (t + k * AT_THREADS < ld)
#pragma unroll
            for (int e = 0; e < AT_VEC; ++e)
                sm[(t + k * AT_THREADS) * AT_VEC + e] = a[k][e];
    __syncthreads();
    /* Column c: the chunk's AT_VEC rows of it in order (place j ld + c);
     * then the blocks' totals. */
    const int split = gridDim.y;
    at_acc *part = (at_acc *)ws;
    for (long long c = t; c < cols; c += AT_THREADS) {
        at_acc r = at_identity();
#pragma unroll
        for (int j = 0; j < AT_VEC; ++j)
            r = at_comb(r, sm[j * ld + c]);
        if (split == 1)
            out[c] = r;
        else
            at_add_total(&part[c], r);
    }
    if (split == 1)
        return;
    __threadfence();
    __syncthreads();
    if (t == 0) {
        unsigned *cnt = at_counters(ws, cols);
        *last = atomicAdd(cnt, 1u) == (unsigned)split - 1;
        if (*last) {
            __threadfence();
            *cnt = 0;
        }
    }
    __syncthreads();
    if (*last)
        for (long long c = t; c < cols; c += AT_THREADS)
            out[c] = at_take_total(&part[c]);
}
#endif

extern "C" __global__ void AT_BOUNDS
AT_KERNEL(const at_in *__restrict__ in, at_out *__restrict__ out, void *ws,
          long long rows, long long cols, long long ld, long long seg,
          int pass)
{
    __shared__ at_acc sm[AT_THREADS * AT_VEC * AT_FLAT_K];
    __shared__ int last;
    const int t = threadIdx.x;
    at_acc *part = (at_acc *)ws;
    /* The launchers take a span of at most AT_FLAT_K x AT_THREADS alone
     * (cols <= ld); past it the walks below would not cover every
     * column: fail the launch instead. */
    if (cols < 1 || cols > ld ||
        AT_FLAT_SPAN(cols, ld) > (long long)AT_THREADS * AT_FLAT_K)
        __trap();
#if AT_FLAT_K > 1
    {
        const int split = gridDim.y;
        const long long s = blockIdx.y;
        const long long r0 = s * seg;
        const long long r1 = s == split - 1 || r0 + seg > rows ? rows
                                                               : r0 + seg;
        (void)part;
        (void)pass;
        at_flat_wide(in, out, ws, rows, cols, ld, r0, r1, sm, &last);
        return;
    }
#endif
#if AT_COMBINE == 1
    if (pass == 1) { /* one block: seg partials a column */
        const at_acc r = at_flat_total(part, cols, seg, t, sm);
        if (t < cols)
            out[t] = r;
        return;
    }
#else
    (void)pass;
#endif
    const int lg = (int)AT_FLAT_SPAN(cols, ld), groups = AT_THREADS / lg;
    const int gi = t / lg, v = t % lg;
    const int split = gridDim.y;
    const long long s = blockIdx.y;
    long long r0 = s * seg, r1 = s == split - 1 ? rows : r0 + seg;
    if (r1 > rows)
        r1 = rows;
    at_acc a[AT_VEC];
#pragma unroll
    for (int e = 0; e < AT_VEC; ++e)
        a[e] = at_identity();
    /* Whole chunks [m0, m1) (seg is whole chunks); the last row's
     * padding may lie past the input's end, so with padding the chunk
     * holding the last row goes element by element (vectors wider than
     * one: one-element ones load no padding). */
    const long long m0 = r0 / AT_VEC;
    long long m1 = r1 / AT_VEC;
    if (AT_VEC > 1 && r1 == rows && ld > cols && m1 * AT_VEC == rows &&
        m1 > m0)
        --m1;
    if (gi < groups) {
        typedef at_vec<at_in, AT_VEC> vt;
        const vt *pv = (const vt *)in + v;
        long long m = m0 + gi;
        for (; m + (long long)(AT_ITEMS - 1) * groups < m1;
             m += (long long)AT_ITEMS * groups) {
            vt x[AT_ITEMS];
#pragma unroll
            for (int k = 0; k < AT_ITEMS; ++k)
                AT_FLAT_LD(x[k], &pv[(m + (long long)k * groups) * ld]);
#pragma unroll
            for (int k = 0; k < AT_ITEMS; ++k)
#pragma unroll
                for (int e = 0; e < AT_VEC; ++e)
                    a[e] = at_comb(a[e], at_map(at_value(x[k].e[e])));
        }
        /* The rounds left, fewer than AT_ITEMS: loaded together, as a
         * step's are (one at a time, a segment of a few steps paid their
         * latency in turn: f64 min down 132920x61, r28), combined in
         * the same order. */
        if (m < m1) {
            vt x[AT_ITEMS];
#pragma unroll
            for (int k = 0; k < AT_ITEMS; ++k)
                if (m + (long long)k * groups < m1)
                    AT_FLAT_LD(x[k], &pv[(m + (long long)k * groups) * ld]);
#pragma unroll
            for (int k = 0; k < AT_ITEMS; ++k)
                if (m + (long long)k * groups < m1)
#pragma unroll
                    for (int e = 0; e < AT_VEC; ++e)
                        a[e] = at_comb(a[e], at_map(at_value(x[k].e[e])));
        }
        /* Rows [m1 * AT_VEC, r1), the first group alone: each element
         * into the slot a whole chunk would give it. */
        if (gi == 0 && m1 * AT_VEC < r1) {
            const long long base = m1 * AT_VEC * ld;
#pragma unroll
            for (int e = 0; e < AT_VEC; ++e) {
                const int q = v * AT_VEC + e; /* place in the chunk */
                if (m1 * AT_VEC + q / lg < r1 && q % lg < cols)
                    a[e] = at_comb(a[e], at_map(at_value(in[base + q])));
            }
        }
#pragma unroll
        for (int e = 0; e < AT_VEC; ++e)
            sm[gi * (lg * AT_VEC) + v * AT_VEC + e] = a[e];
    }
    __syncthreads();
    /* Column t: its slots in order, group by group, row of the chunk by
     * row (place k * ld + t). */
    at_acc r = at_identity();
    if (t < cols)
        for (int g = 0; g < groups; ++g)
#pragma unroll
            for (int k = 0; k < AT_VEC; ++k)
                r = at_comb(r, sm[g * (lg * AT_VEC) + k * lg + t]);
    if (split == 1) {
        if (t < cols)
            out[t] = r;
        return;
    }
#if AT_COMBINE == 1
    if (t < cols)
        part[s * cols + t] = r;
#else
    if (t < cols) {
#if AT_COMBINE == 2
        at_add_total(&part[t], r);
#else
        part[s * cols + t] = r;
#endif
        __threadfence();
    }
    __syncthreads();
    if (t == 0) {
        unsigned *cnt =
            at_counters(ws, AT_COMBINE == 2 ? cols : cols * split);
        last = atomicAdd(cnt, 1u) == (unsigned)split - 1;
        if (last) {
            __threadfence();
            *cnt = 0;
        }
    }
    __syncthreads();
    if (!last)
        return;
#if AT_COMBINE == 2
    if (t < cols)
        out[t] = at_take_total(&part[t]);
#else
    const at_acc total = at_flat_total(part, cols, split, t, sm);
    if (t < cols)
        out[t] = total;
#endif
#endif
}

#else
/* ---- Down columns -------------------------------------------------- */

#define AT_TY (AT_THREADS / AT_GROUP) /* row lanes */
#define AT_W (AT_GROUP * AT_VEC)       /* columns a strip */
/* Rows of elements in flight, about AT_PART_LOADS loads: a row of four
 * elements or more has four in flight already and takes the plain walk. */
#define AT_PART_ROWS (AT_PART_LOADS / AT_VEC)
#define AT_PART_UNROLL (AT_VEC < 4)

#if AT_SHIFT
static_assert(AT_VEC * sizeof(at_in) == 16, "shifted strips load 16 bytes");
/* Two aligned vectors side by side, as words. */
union at_pair {
    at_vec<at_in, AT_VEC> v[2];
    unsigned w[8];
};

/* The 16 bytes from byte b of the pair: a row's AT_VEC columns from c,
 * whose address is b bytes past an aligned vector (ld off the vector).
 * Whole words by selects on b's bits, so no register is indexed at run
 * time (that would go to local memory), then a funnel shift by the bytes
 * left (2-byte elements; a shift of 0 takes the low word). */
static __device__ __forceinline__ at_vec<at_in, AT_VEC>
at_shift(const at_pair &x, int b)
{
    const int q = b >> 2;
    unsigned t[8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
        t[i] = x.w[i];
#pragma unroll
    for (int i = 0; i < 6; ++i)
        t[i] = q & 2 ? t[i + 2] : t[i];
#pragma unroll
    for (int i = 0; i < 5; ++i)
        t[i] = q & 1 ? t[i + 1] : t[i];
    at_pair y;
#pragma unroll
    for (int i = 0; i < 4; ++i)
        y.w[i] = __funnelshift_r(t[i], t[i + 1], (b & 3) * 8);
    return y.v[0];
}
#endif

/* One element down a column: the input's, mapped (MAP), or a partial as
 * it is (from L2: another block wrote it). */
template <typename E, bool MAP>
static __device__ __forceinline__ at_acc at_col_elem(const E *p)
{
    if constexpr (MAP)
        return at_map(at_value(__ldg(p)));
    else
        return __ldcg(p);
}

/* Sums down this thread's AT_VEC columns from c (n of them valid) of rows
 * [r0, r1) of src (ld apart, end elements readable), row lane ty of
 * AT_TY: the input (MAP: each element mapped, whole vectors loaded where
 * all n are valid, or with AT_SHIFT where the row's two vectors stay
 * before end) or partials (taken as they are, element by element). */
template <typename E, bool MAP>
static __device__ __forceinline__ void at_col_lane(
    const E *__restrict__ src, long long ld, long long end, long long r0,
    long long r1, long long c, int n, int ty, at_acc (&out)[AT_VEC])
{
    at_acc a[AT_ACCS][AT_VEC];
#pragma unroll
    for (int k = 0; k < AT_ACCS; ++k)
#pragma unroll
        for (int e = 0; e < AT_VEC; ++e)
            a[k][e] = at_identity();
    long long r = r0 + ty;
#if AT_SHIFT
    /* Rows whose pair from c stays before end: the pair starts at
     * r * ld + c or before, so r * ld + c + 2 * AT_VEC <= end will do.
     * Lanes past the last column load nothing; a last lane's columns past
     * it sum whatever the pair holds, never output. The offset from the
     * address's low bits: the input starts on a vector (the launcher's
     * check), so row 0's is 0 and no load starts before the input; with
     * AT_ANY_BASE it need not, and row 0's pair may start up to 14 bytes
     * before it, in the same 16-byte block. (Worked out from r * ld mod
     * AT_VEC instead, NVVM (CUDA 13.0) strength-reduced the offsets of
     * two-element vectors in a loop unrolled by four wrongly: 18 of 257
     * f64 points read the wrong rows on an H100.) */
    if constexpr (MAP)
        if (n > 0) {
            const long long room = end - c - 2 * AT_VEC;
            const long long rs = room < 0 ? 0 : room / ld + 1;
            const long long rv = rs < r1 ? rs : r1;
            for (; r + (AT_ITEMS - 1) * AT_TY < rv; r += AT_ITEMS * AT_TY) {
                at_pair x[AT_ITEMS];
                int b[AT_ITEMS];
#pragma unroll
                for (int i = 0; i < AT_ITEMS; ++i) {
                    const char *p =
                        (const char *)(src + (r + i * AT_TY) * ld + c);
                    /* (elements sit on their size: the bits below it
                     * are 0, which folds f32's funnel shifts) */
                    b[i] = (int)((unsigned long long)p &
                                 (16 - sizeof(at_in)));
                    const at_pair *q = (const at_pair *)(p - b[i]);
                    x[i].v[0].raw = __ldg(&q->v[0].raw);
                    x[i].v[1].raw = __ldg(&q->v[1].raw);
                }
#pragma unroll
                for (int i = 0; i < AT_ITEMS; ++i) {
                    const at_vec<at_in, AT_VEC> y = at_shift(x[i], b[i]);
#pragma unroll
                    for (int e = 0; e < AT_VEC; ++e)
                        a[0][e] = at_comb(a[0][e], at_map(at_value(y.e[e])));
                }
            }
        }
#elif !AT_ANY_BASE /* (off the vector: element by element, below) */
    if constexpr (MAP) {
        typedef at_vec<at_in, AT_VEC> vt;
        if (n == AT_VEC)
            for (; r + (AT_ITEMS - 1) * AT_TY < r1; r += AT_ITEMS * AT_TY) {
                vt x[AT_ITEMS];
#pragma unroll
                for (int k = 0; k < AT_ITEMS; ++k)
                    x[k].raw = __ldg(
                        &((const vt *)(src + (r + k * AT_TY) * ld + c))->raw);
#pragma unroll
                for (int k = 0; k < AT_ITEMS; ++k)
#pragma unroll
                    for (int e = 0; e < AT_VEC; ++e)
                        a[k % AT_ACCS][e] = at_comb(
                            a[k % AT_ACCS][e], at_map(at_value(x[k].e[e])));
            }
    }
#endif
    /* Element by element (partials, or the input where a vector would
     * pass the last column): AT_PART_ROWS rows in flight, where one at a
     * time left a DRAM or L2 round trip a row on the kernel's tail (a
     * combining block walks split rows; the strip's last thread all of
     * its segment). Combined in row order, as one at a time would.
     * Points of four elements a vector or more take the plain walk below
     * (a row's loads in flight at once), so do the input's few rows left
     * past its vectors in a point of one-element vectors. Partials are
     * whole rows of the strip's AT_W in the workspace, so every element
     * is there to load, valid or not (all). */
    constexpr bool all = !MAP;
    if constexpr (AT_PART_UNROLL && (!MAP || AT_VEC > 1))
        for (; r + (AT_PART_ROWS - 1) * AT_TY < r1;
             r += AT_PART_ROWS * AT_TY) {
            at_acc y[AT_PART_ROWS][AT_VEC];
#pragma unroll
            for (int k = 0; k < AT_PART_ROWS; ++k)
#pragma unroll
                for (int e = 0; e < AT_VEC; ++e)
                    y[k][e] = all || e < n
                                  ? at_col_elem<E, MAP>(
                                        &src[(r + k * AT_TY) * ld + c + e])
                                  : at_identity();
#pragma unroll
            for (int k = 0; k < AT_PART_ROWS; ++k)
#pragma unroll
                for (int e = 0; e < AT_VEC; ++e)
                    if (all || e < n)
                        a[0][e] = at_comb(a[0][e], y[k][e]);
        }
    for (; r < r1; r += AT_TY)
#pragma unroll
        for (int e = 0; e < AT_VEC; ++e)
            if (e < n)
                a[0][e] = at_comb(a[0][e],
                                  at_col_elem<E, MAP>(&src[r * ld + c + e]));
#pragma unroll
    for (int k = 1; k < AT_ACCS; ++k)
#pragma unroll
        for (int e = 0; e < AT_VEC; ++e)
            a[0][e] = at_comb(a[0][e], a[k][e]);
#pragma unroll
    for (int e = 0; e < AT_VEC; ++e)
        out[e] = a[0][e];
}

/* The row lanes' sums combined (fixed order) into acc of ty == 0; sm:
 * [AT_TY][AT_W]. Every thread of the block calls it. */
static __device__ __forceinline__ void at_col_lanes(at_acc (&acc)[AT_VEC],
                                                    int ty, at_acc *sm)
{
#if AT_TY > 1
    const int col = (threadIdx.x % AT_GROUP) * AT_VEC;
#pragma unroll
    for (int e = 0; e < AT_VEC; ++e)
        sm[ty * AT_W + col + e] = acc[e];
    __syncthreads();
#if AT_TREE == 1
#pragma unroll
    for (int s = AT_TY / 2; s > 0; s >>= 1) {
        if (ty < s)
#pragma unroll
            for (int e = 0; e < AT_VEC; ++e)
                sm[ty * AT_W + col + e] = at_comb(
                    sm[ty * AT_W + col + e], sm[(ty + s) * AT_W + col + e]);
        __syncthreads();
    }
    if (ty == 0)
#pragma unroll
        for (int e = 0; e < AT_VEC; ++e)
            acc[e] = sm[col + e];
#else
    if (ty == 0)
        for (int t = 1; t < AT_TY; ++t)
#pragma unroll
            for (int e = 0; e < AT_VEC; ++e)
                acc[e] = at_comb(acc[e], sm[t * AT_W + col + e]);
#endif
    __syncthreads();
#else
    (void)acc;
    (void)ty;
    (void)sm;
#endif
}

template <typename E, bool MAP>
static __device__ __forceinline__ void at_col_part(
    const E *__restrict__ src, long long ld, long long end, long long r0,
    long long r1, long long c, int n, int ty, at_acc (&acc)[AT_VEC],
    at_acc *sm)
{
    at_col_lane<E, MAP>(src, ld, end, r0, r1, c, n, ty, acc);
    at_col_lanes(acc, ty, sm);
}

extern "C" __global__ void AT_BOUNDS
AT_KERNEL(const at_in *__restrict__ in, at_out *__restrict__ out, void *ws,
          long long rows, long long cols, long long ld, long long seg,
          int pass)
{
    __shared__ at_acc sm[AT_TY > 1 ? AT_TY * AT_W : 1];
    __shared__ int last;
    const int ty = threadIdx.x / AT_GROUP;
    const long long strips = (cols + AT_W - 1) / AT_W;
    const long long strip = blockIdx.x;
    const long long c0 = strip * AT_W + (threadIdx.x % AT_GROUP) * AT_VEC;
    const long long left = cols - c0;
    const int n = left <= 0 ? 0 : left >= AT_VEC ? AT_VEC : (int)left;
    at_acc acc[AT_VEC];
#if AT_COMBINE == 1
    if (pass == 1) { /* one block per strip: its seg partial rows */
        at_col_part<at_acc, false>((const at_acc *)ws + strip * seg * AT_W,
                                   AT_W, 0, 0, seg, c0 - strip * AT_W, n, ty,
                                   acc, sm);
        if (ty == 0)
            for (int e = 0; e < n; ++e)
                out[c0 + e] = acc[e];
        at_zero_parts((at_acc *)ws + strip * seg * AT_W, seg * AT_W);
        return;
    }
#else
    (void)pass;
#endif
    const int split = gridDim.y;
    const long long s = blockIdx.y;
    long long r0 = s * seg, r1 = s == split - 1 ? rows : r0 + seg;
    if (r1 > rows)
        r1 = rows;
    at_col_part<at_in, true>(in, ld, (rows - 1) * ld + cols, r0, r1, c0, n,
                             ty, acc, sm);
    if (split == 1) {
        if (ty == 0)
            for (int e = 0; e < n; ++e)
                out[c0 + e] = acc[e];
        return;
    }
    /* Partials: strip's [split][AT_W] block of the workspace. */
    at_acc *part = (at_acc *)ws;
    const int col = (threadIdx.x % AT_GROUP) * AT_VEC;
#if AT_COMBINE == 1
    if (ty == 0)
#pragma unroll
        for (int e = 0; e < AT_VEC; ++e)
            part[(strip * split + s) * AT_W + col + e] = acc[e];
#else
    if (ty == 0) {
#pragma unroll
        for (int e = 0; e < AT_VEC; ++e)
#if AT_COMBINE == 2
            /* Columns in the matrix alone: the last block takes back
             * those, and every launch leaves the workspace zero (an
             * identity's word is not zero, for min and max). */
            if (e < n)
                at_add_total(&part[strip * AT_W + col + e], acc[e]);
#else
            part[(strip * split + s) * AT_W + col + e] = acc[e];
#endif
        __threadfence();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned *cnt = at_counters(
            ws, AT_COMBINE == 2 ? strips * AT_W : strips * split * AT_W);
        last = atomicAdd(&cnt[strip], 1u) == (unsigned)split - 1;
        if (last) {
            __threadfence();
            cnt[strip] = 0;
        }
    }
    __syncthreads();
    if (!last)
        return;
#if AT_COMBINE == 2
    if (ty == 0)
        for (int e = 0; e < n; ++e)
            out[c0 + e] = at_take_total(&part[strip * AT_W + col + e]);
#else
    at_col_part<at_acc, false>(part + strip * split * AT_W, AT_W, 0, 0,
                               split, col, n, ty, acc, sm);
    if (ty == 0)
        for (int e = 0; e < n; ++e)
            out[c0 + e] = acc[e];
    at_zero_parts(part + strip * split * AT_W, split * AT_W);
#endif
#endif
}
#endif

#if AT_NAIVE
/* The benchmark's naive contender (with AT_THREADS 256, AT_TREE 0): a
 * thread per output walking it in order; the whole array (one row along)
 * by one block striding over it, then a tree. */
extern "C" __global__ void AT_BOUNDS
at_naive(const at_in *__restrict__ in, at_out *__restrict__ out,
         long long rows, long long cols, long long ld)
{
    if (!AT_COLS && rows == 1) {
        __shared__ at_acc sm[32];
        at_acc v = at_identity();
        for (long long i = threadIdx.x; i < cols; i += AT_THREADS)
            v = at_comb(v, at_map(at_value(in[i])));
        v = at_block_reduce(v, sm);
        if (threadIdx.x == 0)
            out[0] = v;
        return;
    }
    const long long o = blockIdx.x * (long long)AT_THREADS + threadIdx.x;
    const long long outs = AT_COLS ? cols : rows, len = AT_COLS ? rows : cols;
    if (o >= outs)
        return;
    const long long start = AT_COLS ? o : o * ld, step = AT_COLS ? ld : 1;
    at_acc v = at_identity();
    for (long long k = 0; k < len; ++k)
        v = at_comb(v, at_map(at_value(in[start + k * step])));
    out[o] = v;
}
#endif
