/* The measure layer: a problem's inputs and references, the checks that verify a variant, timing, and the interleaved rounds that compare contenders. */
#ifndef AT_MEASURE_LAYER_H
#define AT_MEASURE_LAYER_H

#include <stdint.h>

#include "gen/family.h"
#include "runtime/store/store.h"
#include "runtime/driver/driver.h"

/* Measurement: verification and timing of kernel variants for one problem
 * on one device (inside the tuner and for the benchmark command alike).
 *
 * Verification: the output is poisoned, the variant runs on random input
 * (PCG32 from a printed seed), and the whole output buffer, padding and a
 * guard zone on each side included, is compared word for word on the
 * device with a reference the CPU computed, by the family's rule (its
 * comparison kernel). Each variant is checked on the problem itself and
 * on the family's check problems (for a transpose, shapes no tile
 * divides).
 *
 * Timing: CUDA events, warm-up, samples of enough launches to last
 * AT_SAMPLE_MS (AT_SAMPLE_MS_LONG for the benchmark), median, with min and max kept; inputs smaller than a few L2
 * caches rotate over several buffer sets so they are timed from memory
 * (unless kept warm on purpose). A variant whose first samples (at most
 * AT_QUICK_SAMPLES) are all clearly slower than a cutoff, or whose median
 * is bound to be slower, stops there (racing: it cannot lead). The
 * device-to-device copy of the same bytes is timed the same way. */

typedef struct at_measure at_measure;

/* Check problems a family may have, at most. */
enum { AT_MAX_CHECKS = 8 };

/* The tuner's samples rank variants, where what every sample shares
 * (events, launch gaps) cancels: short ones, so tuning stays fast. The
 * benchmark's figures are absolute: long ones, so that share is well
 * under 1% and they agree with a plain program timing back to back
 * (tests/gpu/crosscheck.cu). */
#define AT_SAMPLE_MS 0.1
#define AT_SAMPLE_MS_LONG 2.0
enum { AT_QUICK_SAMPLES = 2 };

typedef struct at_timing {
    double median_ms, min_ms, max_ms;
    int samples, launches_per_sample;
} at_timing;

/* The word written to outputs before each check; also where a kernel must
 * not write (the padding of a leading dimension). */
#define AT_POISON 0xDEADBEEFu

/* Flags of at_measure_create. */
enum {
    /* One buffer set, so inputs that fit in L2 are timed from it. */
    AT_MEASURE_WARM_L2 = 1,
    /* Floating-point lanes of the input are finite normal numbers (random
     * sign, mantissa and exponent otherwise), so arithmetic that should
     * give the input back (cuBLAS's 1 * x + 0 * y) does, bit for bit. */
    AT_MEASURE_FINITE = 2,
    /* Samples of at least AT_SAMPLE_MS_LONG (the benchmark's). */
    AT_MEASURE_LONG_SAMPLES = 4,
};

/* flags: AT_MEASURE_*. cache (may be NULL): where the comparison kernel's
 * cubin is kept. */
int at_measure_create(at_measure **b, const at_device *d, const at_problem *p,
                    uint64_t seed, unsigned flags, at_cubins *cache,
                    at_err *e);
void at_measure_destroy(at_measure *b);
/* The problem's packed input (p->in_bytes, as its runs read it: after
 * the family's init kernel) and reference output (p->out_bytes) into
 * host buffers. */
int at_measure_problem_data(at_measure *b, void *in, void *ref, at_err *e);
/* The outputs checked by rules of their own (a mismatch budget, a sum):
 * what the last check on the problem used of each, and the most any
 * check did; "" if the family has none. */
void at_measure_check_note(const at_measure *b, char *buf, size_t n);
/* Rotating buffer sets in use (1 for problems well past the L2 cache), and
 * whether a round of them is at least two L2 caches (0: the problem is so
 * small that even the rotation may be served from L2). */
int at_measure_sets(const at_measure *b);
int at_measure_past_l2(const at_measure *b);

/* Prepares fn for the point's launch (dynamic shared memory). */
int at_measure_prepare(const at_problem *p, const at_point *pt, CUfunction fn,
                     const char *variant, at_err *e);
/* The family's arguments for pt against fn's parameters as the driver
 * reports them (count and sizes; nothing where the driver cannot say):
 * AUTOTUNE_EINVALID naming the first difference. */
int at_measure_signature(const at_problem *p, const at_point *pt,
                         CUfunction fn, const char *variant, at_err *e);
/* The same for arguments a of fn, passed by who. */
int at_measure_params(CUfunction fn, const at_args *a, const char *variant,
                      const char *who, at_err *e);
/* What at_measure_verify checks: the problem itself, the family's check
 * problems (small odd shapes), or both. */
enum { AT_CHECK_PROBLEM = 1, AT_CHECK_SHAPES = 2, AT_CHECK_ALL = 3 };
/* Checks fn on what (AT_CHECK_*). Returns 0 if right; AUTOTUNE_EWRONG
 * (not fatal) with where it went wrong; AUTOTUNE_ECUDA if the context
 * failed (fatal: later calls cannot succeed). */
int at_measure_verify(at_measure *b, const at_point *pt, CUfunction fn,
                      const char *variant, int what, at_err *e);
/* Whether at_measure_verify(what) checks on the problem itself: asked to,
 * or the family has no check shapes. */
int at_measure_on_problem(const at_measure *b, int what);
/* Racing: whether a variant whose first k of samples samples are x[0..k)
 * cannot lead against cutoff_ms (<= 0: no racing). Either its first
 * samples (at most AT_QUICK_SAMPLES) are all clearly slower, or so many
 * are slower that the median of all would be, whatever the rest; then
 * the median of x[0..k) is slower too. */
int at_measure_raced(const double *x, int k, int samples, double cutoff_ms);
/* Times fn (samples >= AT_QUICK_SAMPLES); cutoff_ms > 0 races it against
 * that time (at_measure_raced); warm:
 * fn has just run (its checks), no warm-up launch. */
int at_measure_time(at_measure *b, const at_point *pt, CUfunction fn,
                  const char *variant, int samples, double cutoff_ms,
                  int warm, at_timing *t, at_err *e);
/* The last check's run of the variant on the problem, in ms, where that
 * run is as good as a timing sample's first: the problem is one rotation
 * set past L2 (so a sample is one launch on that same input) and the run
 * lasts a sample and at least AT_CHECK_SAMPLE_MS (so being the function's
 * first launch is well inside racing's margin); 0 otherwise. */
double at_measure_checked_ms(const at_measure *b);
#define AT_CHECK_SAMPLE_MS 0.5
/* Times cuMemcpyDtoDAsync of the family's copy_bytes of the problem. */
/* A launch's limit on the GPU from now on (tune.h: --kernel-limit). */
void at_measure_set_limit(at_measure *b, double s);
int at_measure_time_copy(at_measure *b, int samples, at_timing *t, at_err *e);
/* The copy's GB/s at ms: it reads and writes copy_bytes. */
double at_copy_gbps(const at_problem *p, double ms);

/* An operation of the caller's on the problem (a library call, a baseline
 * kernel): in and out are the problem's buffers, s the measurement's stream. */
typedef int (*at_measure_op)(void *ctx, CUdeviceptr in, CUdeviceptr out,
                           CUstream s, at_err *e);
/* Checks op on the problem alone, bit for bit, as at_measure_verify does. */
int at_measure_verify_op(at_measure *b, at_measure_op op, void *ctx,
                       const char *name, at_err *e);
/* Times op as at_measure_time does (no racing, a warm-up first). */
int at_measure_time_op(at_measure *b, at_measure_op op, void *ctx,
                     const char *name, int samples, at_timing *t, at_err *e);

/* Launches fn for problem p with device pointers in and out, and the
 * workspace ws (the family's workspace bytes, zero; 0 where it needs
 * none), on stream: every pass of the point. */
int at_launch_variant(const at_problem *p, const at_point *pt, CUfunction fn,
                      CUdeviceptr in, CUdeviceptr out, CUdeviceptr ws,
                      CUstream stream, const char *variant, at_err *e);
/* The family's workspace bytes for the point (0 where it needs none). */
size_t at_workspace_bytes(const at_problem *p, const at_point *pt);

/* The interleaved timing protocol: several contenders (the leading
 * variants and the copy in the tuner; the copy, the tuned kernel and the
 * libraries in the benchmark) timed in turn, round after round, so a
 * change of clock or of the machine's load moves every contender alike.
 * Each contender's figure is the median of its round medians. */

enum { AT_ROUNDS = 5, AT_ROUND_SAMPLES = 10 };

/* Times contender i once (AT_ROUND_SAMPLES samples). */
typedef int (*at_round_fn)(void *ctx, int i, int samples, at_timing *t,
                           at_err *e);

typedef struct at_round_result {
    double ms;             /* median of the round medians */
    double min_ms, max_ms; /* of the round medians */
} at_round_result;

/* n contenders, AT_ROUNDS rounds, in order 0..n-1 within a round. */
int at_rounds(int n, at_round_fn fn, void *ctx, at_round_result *out,
              at_err *e);

#endif
