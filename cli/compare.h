/* The bandwidth comparison of one problem: the device-to-device copy of
 * the same bytes, the tuned kernel and the family's contenders
 * (bench_families.h). Each is checked against the CPU reference on the
 * same random input (finite floats, so library arithmetic that should
 * give the input back does) before its time counts; then all are timed
 * with one protocol (runtime/measure/measure.h: interleaved rounds of samples of
 * the measurement's protocol), each reporting the median of its round
 * medians. */
#ifndef AT_COMPARE_H
#define AT_COMPARE_H

#include "bench_families.h"
#include "runtime/api/api.h"

/* c's rows named for bf: the copy, the tuned kernel, then bf's
 * contenders in order (c->n of them in all); AUTOTUNE_EINVALID if they
 * do not fit. The rest of c is left as it is. */
int at_cmp_init(at_cmp *c, const at_bench_family *bf, at_err *e);

/* Benchmarks p on ctx's device: tunes it (or takes the cache's answer)
 * with o, then checks and times everything on random input from o->seed
 * (0: a fresh seed; out->seed says which). state: bf->open's. A wrong
 * answer from any kernel fails the run: AUTOTUNE_EWRONG naming it and the
 * seed. */
int at_compare(autotune_ctx *ctx, const at_problem *p, const at_tune_opts *o,
               const at_bench_family *bf, void *state, at_cmp *out,
               at_err *e);

#endif
