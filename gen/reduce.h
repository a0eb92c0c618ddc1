/* The reduce family's own shared names (only its files include this): its
 * problem fields, in table order, its axes, and the parts of the entry
 * each of its files defines. */
#ifndef AT_REDUCE_H
#define AT_REDUCE_H

#include "family.h"

/* One result per row of rows x cols (ld elements between rows) along the
 * columns (axis cols), one per column down the rows (axis rows), or one
 * of the whole array (axis all: n elements, kept as 1 x n). op's values
 * index RD_OPS; axis's RD_AXES. */
enum { RD_OP, RD_AXIS, RD_N, RD_ROWS, RD_COLS, RD_LD, RD_DET,
       RD_N_FIELDS };
enum { OP_SUM, OP_MIN, OP_MAX, OP_SUMSQ, OP_AMAX };
enum { AXIS_ALL, AXIS_COLS, AXIS_ROWS };

/* The space's axes (gen/reduce.c). */
enum { THREADS, GROUP, VEC, ITEMS, ACCS, CHUNK, COMBINE, TREE, WAVES,
       N_AXES };
enum { COMBINE_LAST, COMBINE_TWO_PASS, COMBINE_ATOMIC };

/* reduce_problem.c */
extern const at_field at_rd_fields[RD_N_FIELDS];
int at_rd_finish(at_problem *p, at_err *e);
void at_rd_describe(const at_problem *p, char *buf, size_t n);
void at_rd_file_stem(const at_problem *p, char *buf, size_t n);
double at_rd_bytes_moved(const at_problem *p);
size_t at_rd_copy_bytes(const at_problem *p);
/* Of the 64-byte blocks a padded input's rows touch, the share that is
 * elements (1: rows end to end). */
double at_rd_layout_share(const at_problem *p);
/* The accumulator's (and output's) bytes: 4 (f32), 8 (f64, i64), and
 * its C type ("float", "double", "long long"). */
int at_rd_acc_bytes(const at_type *t);
const char *at_rd_acc_ctype(const at_type *t);
/* The input type as the template's AT_TYPE code (RD_T_*). */
enum { RD_T_F32, RD_T_F64, RD_T_F16, RD_T_BF16, RD_T_I32 };
int at_rd_type(const at_type *t);
/* Elements reduced into each output, and outputs. */
int64_t at_rd_len(const at_problem *p);
int64_t at_rd_outputs(const at_problem *p);
/* 1 for the kernel down columns (axis rows), 0 along rows. */
int at_rd_down(const at_problem *p);
/* 1 for the ops that add (sum, sumsq), 0 for min, max and amax. */
int at_rd_adds(const at_problem *p);
/* 1 where atomics give the same bits in any order of the blocks: min,
 * max and amax (order-preserving words) and integer sums; 0 for
 * floating-point sums, whose rounding follows the order. */
int at_rd_atomics_exact(const at_problem *p);

/* reduce.c: the geometry of a point on a problem. */
typedef struct at_rd_geom {
    int64_t seg;   /* elements (along rows) or rows (down) a block */
    int64_t split; /* blocks sharing one output (row or column strip) */
    int64_t units; /* rows of blocks (along) or column strips (down) */
} at_rd_geom;
void at_rd_geom_of(const at_problem *p, const at_point *pt, at_rd_geom *g);
/* A split in waves (axis waves k > 0): k blocks an SM of p->sms, or of
 * AT_RD_NOMINAL_SMS where no device is known (a listing, a check of the
 * space); SM counts past AT_RD_MAX_SMS count as that many, so that the
 * emitted workspace query has a bound that holds on any device. */
enum { AT_RD_NOMINAL_SMS = 132, AT_RD_MAX_SMS = 256 };
/* Column strips in waves count an SM's threads in blocks of this many:
 * waves x SMs x AT_RD_WAVE_THREADS / threads blocks at most. */
enum { AT_RD_WAVE_THREADS = 512 };
/* A flat point's threads a group down columns: ld (a chunk of vec
 * rows), or cols for one-element vectors (the padding skipped). */
int64_t at_rd_flat_span(const at_problem *p, const at_point *pt);
/* A flat point's vectors of a chunk a thread down columns: 1, or for ld
 * past the block ceil(ld / threads), at most AT_RD_FLAT_K (one group,
 * the whole block; templates/reduce.cu's AT_FLAT_K); 1 for any other
 * point. */
enum { AT_RD_FLAT_K = 4 };
int at_rd_flat_k(const at_problem *p, const at_point *pt);
/* rows a flat block takes a step: its lanes x items. */
int64_t at_rd_flat_step(const at_problem *p, const at_point *pt);
/* 1 for a flat point (group 0): the rows read as one run. Down
 * columns, a chunk of vec rows (ld vectors) to a group of ld threads;
 * along short rows, seg whole rows to a warp (AT_RD_FLAT_ROWS). */
int at_rd_flat(const at_point *pt);
/* Along rows, flat: rows end to end of at most this ld (longer rows'
 * ends cost little), at least AT_RD_FLAT_ROWS_WARPS warps of rows on
 * the problem, each warp 8 x chunk rows; or in waves, waves x
 * AT_RD_FLAT_ROWS_WAVE_WARPS warps an SM. */
enum { AT_RD_FLAT_ROWS_LD = 2048, AT_RD_FLAT_ROWS_WARPS = 1024,
       AT_RD_FLAT_ROWS_PER_CHUNK = 8, AT_RD_FLAT_ROWS_WAVE_WARPS = 16 };
/* A flat point's lanes: its groups a block (threads / ld) x vec rows a
 * step, one a lane. */
int64_t at_rd_flat_lanes(const at_problem *p, const at_point *pt);
/* reduce_flat_rows.c: flat points along rows, their constraint (why the
 * space refuses pt, NULL where it takes it) and geometry (sms: the SMs
 * a split in waves fills). */
const char *at_rd_flat_rows_refusal(const at_problem *p,
                                    const at_point *pt);
void at_rd_flat_rows_geom(const at_problem *p, const at_point *pt,
                          int64_t sms, at_rd_geom *g);
/* 1 for a shifted strip: down columns, a strip of 16-byte vectors of 2-
 * or 4-byte elements on a problem whose ld the vector does not divide
 * (each row's vectors loaded aligned and realigned in registers; the
 * kernel then takes any ld). */
int at_rd_shift(const at_problem *p, const at_point *pt);

/* reduce_check.c */
void at_rd_input(const at_problem *p, uint64_t seed, uint64_t stream,
                 uint32_t *w, size_t first, size_t end);
int64_t at_rd_reference_parts(const at_problem *p);
void at_rd_reference(const at_problem *p, const void *in, void *out,
                     void *bound, int64_t first, int64_t end);
const char *at_rd_verify_kernel(const at_problem *p);
double at_rd_tolerance(const at_problem *p, const at_point *pt);
enum { AT_RD_CHECKS = 4 };
int at_rd_check_problem(const at_problem *p, int i, at_problem *out,
                        const char **label, at_err *e);
void at_rd_where(const at_problem *p, size_t elem, char *buf, size_t n);

/* reduce_emit.c */
void at_rd_emit_launcher(FILE *f, const at_problem *p, const at_point *pt,
                         const char *name);
void at_rd_usage(const at_problem *p, const char *name, char *buf,
                 size_t n);

#endif
