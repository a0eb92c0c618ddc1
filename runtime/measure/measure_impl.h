/* Inside the measurement (measure.h): the state its three files share.
 * measure_cases.c makes the inputs and references, measure_check.c
 * verifies, measure.c times and launches. */
#ifndef AT_MEASURE_IMPL_H
#define AT_MEASURE_IMPL_H

#include "runtime/measure/measure.h"

/* Poisoned bytes on each side of every checked output: a write just past
 * either end is caught as well as one into the padding. */
enum { AT_GUARD = 4096 };
/* The problem and the family's check problems. */
enum { AT_MAX_CASES = 1 + AT_MAX_CHECKS };
/* Mismatch counters per case: the whole output, or a family's segments
 * (family.h, at_check_seg) and the stretches between them; then the
 * workspace's words a launch left non-zero (AT_WS_SLOT). */
enum { AT_CHECK_SLOTS = 2 * AT_MAX_SEGS + 2, AT_WS_SLOT = AT_CHECK_SLOTS - 1 };

/* A problem with device buffers: input, output (inside its guards), and
 * the expected output with the same guards. */
typedef struct at_case {
    at_problem p;
    const char *label;
    CUdeviceptr in, out_alloc, ref, out; /* out = out_alloc + AT_GUARD */
    CUdeviceptr bound; /* error units laid out as ref (0: exact rule) */
} at_case;

struct at_measure {
    const at_device *d;
    at_case cases[AT_MAX_CASES]; /* the problem, then the checks */
    int n_cases;
    int sets;    /* rotation sets for timing */
    double sample_ms; /* each sample lasts at least this */
    int past_l2; /* 1 if a round of sets is at least two L2 caches */
    CUdeviceptr *in_set, *out_set;
    CUmodule check_mod;
    CUfunction compare, compare_elems, ws_left;
    /* per case AT_CHECK_SLOTS x 2 x u64: mismatch count, ~first word */
    CUdeviceptr bad;
    at_cubins *cubins; /* the reference's and init kernel's compiles */
    /* The segments' last check on the problem, and the most any check
     * since the measurement was made used of each one's budget (a sum:
     * its relative difference, in millionths). */
    int n_segs;
    at_check_seg segs[AT_MAX_SEGS];
    uint64_t seg_last[AT_MAX_SEGS], seg_most[AT_MAX_SEGS];
    double sum_last[AT_MAX_SEGS], sum_most[AT_MAX_SEGS];
    CUdeviceptr ws;  /* the variants' workspace, zeroed before each check */
    size_t ws_bytes;
    CUstream stream;
    CUevent start, stop;
    double limit_s; /* one launch's limit on the GPU; 0: not set yet */
    double check_ms; /* the last check's launch on the problem; 0: none */
};

/* Waits for ev (NULL: the stream) to complete, at most launches times the
 * kernel limit: past it the variant counts as hung (AUTOTUNE_EFAULT; the
 * context cannot be used again). A fault surfaces here as the CUDA error
 * naming the variant. */
int at_measure_wait(at_measure *b, CUevent ev, int launches,
                    const char *variant, at_err *e);

/* What is checked or timed: a kernel variant at a point (on any case's
 * problem), or an operation of the caller's (on the problem only). */
typedef struct at_runner {
    const at_point *pt;
    CUfunction fn;
    at_measure_op op;
    void *ctx;
    const char *name;
} at_runner;

int at_runner_once(at_measure *m, const at_runner *r, const at_problem *p,
                   CUdeviceptr in, CUdeviceptr out, at_err *e);
/* The workspace the runner needs on p, allocated (zeroed) if larger than
 * the one held. */
int at_measure_ws(at_measure *m, const at_runner *r, const at_problem *p,
                  at_err *e);
int at_measure_alloc(CUdeviceptr *p, size_t n, const char *what, at_err *e);
/* bytes rounded up to whole 32-bit words: inputs are filled and outputs
 * compared a word at a time (bytes past the end are poison like the
 * guards). */
size_t at_whole_words(size_t bytes);

/* measure_cases.c: random input (PCG32 from seed, stream) and the CPU
 * reference, uploaded; finite: AT_MEASURE_FINITE. */
int at_case_init(at_case *c, const at_problem *p, const char *label,
                 uint64_t seed, uint64_t stream, int finite, at_err *e);
void at_case_free(at_case *c);

/* measure_ref.c: the family's copies for a run on p with input in and
 * output out (0: not the output's) of function fn (NULL: not the
 * symbols'), queued on the stream; and the device reference of case c
 * (the family's ref_source), run and waited for. */
int at_measure_copies(at_measure *b, const at_problem *p, CUdeviceptr in,
                      CUdeviceptr out, CUfunction fn, const char *variant,
                      at_err *e);
int at_case_device_ref(at_measure *b, at_case *c, at_err *e);

/* measure_check.c: the family's comparison kernel (templates/check.cu),
 * by name. */
int at_check_load(at_measure *m, const char *kname, at_cubins *cache,
                  at_err *e);
int at_check_run(at_measure *m, const at_runner *run, int first, int end,
                 at_err *e);
/* Case k's counters (slot s). */
CUdeviceptr at_check_counters(const at_measure *m, int k, int s);
/* Says where case k went wrong: its counters' pair bad (count, ~first
 * word relative to word `start` of the guarded output). */
int at_check_report(at_measure *m, int k, const at_runner *run,
                    const unsigned long long *bad, size_t start, at_err *e);

/* measure_segs.c: a case whose family has segments (a mismatch budget,
 * a sum): each stretch compared with counters of its own, queued; then
 * judged after the wait (the sums on the host). */
int at_segs_queue(at_measure *m, int k, const at_runner *run, at_err *e);
int at_segs_judge(at_measure *m, int k, const at_runner *run,
                  const unsigned long long *bad, at_err *e);

/* measure_ref.c: a program's cubin for the device (the reference's, the
 * init kernel's), from the compiled-variant cache if it has it. */
int at_measure_compile(at_measure *m, const at_problem *p, const char *src,
                       const char *label, void **cubin, size_t *size,
                       at_err *e);
/* The family's init kernel run on case c's input, waited for. */
int at_case_init_kernel(at_measure *m, at_case *c, at_err *e);

#endif
