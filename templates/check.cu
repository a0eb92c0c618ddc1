/* Verification helper: counts the 32-bit words where a kernel's output
 * differs from the reference and records the first such word, then writes
 * the poison back, so the buffer is ready for the next variant's check
 * without a separate memset. Compiled once per tuning run with NVRTC;
 * bad[0] and bad[1] must start at 0 (bad[1] keeps ~first, so that one
 * memset of zeros readies every case's counters). */
extern "C" __global__ void at_compare_bits(unsigned *got, const unsigned *want,
                                           unsigned long long n,
                                           unsigned long long *bad,
                                           unsigned poison)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x +
                                threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        if (got[i] != want[i]) {
            atomicAdd(&bad[0], 1ULL);
            atomicMax(&bad[1], ~i);
        }
        got[i] = poison;
    }
}

/* The words of a workspace that a launch left non-zero (each launch must
 * leave it as it found it, zero, for the next): counted into bad[0],
 * ~first kept in bad[1], and zeroed. */
extern "C" __global__ void at_workspace_left(unsigned *w, unsigned long long n,
                                             unsigned long long *bad)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x +
                                threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        if (w[i]) {
            atomicAdd(&bad[0], 1ULL);
            atomicMax(&bad[1], ~i);
            w[i] = 0;
        }
    }
}

/* The same for floating-point outputs within a tolerance: a word (f32) or
 * pair of words (f64) passes if its bits are the reference's, if both are
 * NaN, or if it is within scale * bound[i] of it (bound: the reference's
 * error unit per output, 0 in the guards, so those match bit for bit;
 * negative where an output must match bit for bit).
 * The difference is taken in double. */
static __device__ float at_bits_as(unsigned u, float) { return __uint_as_float(u); }
static __device__ double at_bits_as(unsigned long long u, double)
{
    return __longlong_as_double((long long)u);
}

template <typename F, typename U>
static __device__ void at_compare_tol(U *got, const U *want,
                                      unsigned long long n,
                                      unsigned long long *bad, unsigned poison,
                                      const F *bound, double scale)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x +
                                threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        U g = got[i], w = want[i];
        F gf = at_bits_as(g, F()), wf = at_bits_as(w, F());
        double d = (double)gf - (double)wf;
        /* A negative unit: that output must match bit for bit. */
        int ok = g == w || (!(bound[i] < 0) &&
                            ((gf != gf && wf != wf) ||
                             (d < 0 ? -d : d) <= scale * (double)bound[i]));
        if (!ok) {
            atomicAdd(&bad[0], 1ULL);
            /* ~first 32-bit word, as at_compare_bits keeps it */
            atomicMax(&bad[1], ~(i * (sizeof(U) / 4)));
        }
        got[i] = sizeof(U) == 4 ? (U)poison
                                : (U)(((unsigned long long)poison << 32) |
                                      poison);
    }
}

extern "C" __global__ void at_compare_f32(unsigned *got, const unsigned *want,
                                          unsigned long long n,
                                          unsigned long long *bad,
                                          unsigned poison, const float *bound,
                                          double scale)
{
    at_compare_tol<float, unsigned>(got, want, n, bad, poison, bound, scale);
}

/* n counts 32-bit words, as for the others. */
extern "C" __global__ void at_compare_f64(unsigned long long *got,
                                          const unsigned long long *want,
                                          unsigned long long n,
                                          unsigned long long *bad,
                                          unsigned poison, const double *bound,
                                          double scale)
{
    at_compare_tol<double, unsigned long long>(got, want, n / 2, bad, poison,
                                               bound, scale);
}

/* A stretch of the output with a mismatch budget (a spec's output, docs/
 * SPEC.md): counts differing elements of elem_words words each, not
 * words. fp: 0, every word bit for bit; 4 or 8, each f32 or f64 lane by
 * the rule of at_compare_tol (bound: its units, laid out as got). bad[1]
 * keeps ~(the first differing element's first word), relative to got. */
extern "C" __global__ void at_compare_elems(unsigned *got,
                                            const unsigned *want,
                                            unsigned long long n_elems,
                                            unsigned elem_words,
                                            unsigned long long *bad,
                                            unsigned poison,
                                            const void *bound, double scale,
                                            int fp)
{
    for (unsigned long long e = blockIdx.x * (unsigned long long)blockDim.x +
                                threadIdx.x;
         e < n_elems; e += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long i0 = e * elem_words;
        int ok = 1;
        for (unsigned w = 0; w < elem_words; w += fp == 8 ? 2 : 1) {
            unsigned long long i = i0 + w;
            if (fp == 4) {
                float g = __uint_as_float(got[i]), x = __uint_as_float(want[i]);
                float u = ((const float *)bound)[i];
                double d = (double)g - (double)x;
                ok &= got[i] == want[i] ||
                      (!(u < 0) && ((g != g && x != x) ||
                                    (d < 0 ? -d : d) <= scale * (double)u));
            } else if (fp == 8) {
                unsigned long long gb = got[i] | (unsigned long long)got[i + 1] << 32;
                unsigned long long wb = want[i] | (unsigned long long)want[i + 1] << 32;
                double g = __longlong_as_double((long long)gb);
                double x = __longlong_as_double((long long)wb);
                double u = ((const double *)bound)[i / 2];
                double d = g - x;
                ok &= gb == wb ||
                      (!(u < 0) && ((g != g && x != x) ||
                                    (d < 0 ? -d : d) <= scale * u));
            } else {
                ok &= got[i] == want[i];
            }
        }
        if (!ok) {
            atomicAdd(&bad[0], 1ULL);
            atomicMax(&bad[1], ~i0);
        }
        for (unsigned w = 0; w < elem_words; ++w)
            got[i0 + w] = poison;
    }
}
