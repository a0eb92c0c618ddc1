/* The transpose family's own shared names (only its files include this):
 * its problem fields, in table order, and the parts of the entry each of
 * its files defines. */
#ifndef AT_TRANSPOSE_H
#define AT_TRANSPOSE_H

#include "family.h"

/* out[z][c][r] = in[z][r][c]: each input matrix rows x cols, row-major,
 * ld_in elements between rows; batch matrices stride_in elements apart;
 * outputs cols x rows, ld_out and stride_out. */
enum { TP_ROWS, TP_COLS, TP_LD_IN, TP_LD_OUT, TP_BATCH, TP_STRIDE_IN,
       TP_STRIDE_OUT, TP_N_FIELDS };

/* The space's axes (gen/transpose.c). */
enum {
    TILE_X, TILE_Y, BLOCK_X, BLOCK_Y, VEC, PACK, SMEM, TILES, LDG, RESTRICT,
    KIND, STEPS, FLAT, N_AXES
};
enum { KIND_TILE, KIND_STRIP };

/* Largest batch: the kernel takes it as an int. */
#define AT_MAX_BATCH 2147483647LL

/* transpose_problem.c */
extern const at_field at_tp_fields[TP_N_FIELDS];
int at_tp_finish(at_problem *p, at_err *e);
void at_tp_describe(const at_problem *p, char *buf, size_t n);
void at_tp_file_stem(const at_problem *p, char *buf, size_t n);
double at_tp_bytes_moved(const at_problem *p);
size_t at_tp_copy_bytes(const at_problem *p);
/* Of the bytes in the 64-byte blocks both sides' rows touch, the share
 * that is elements (1: rows end to end on the blocks): a ceiling below
 * the copy's for rows padded apart or short and off the blocks. */
double at_tp_layout_share(const at_problem *p);

/* transpose_check.c */
int64_t at_tp_reference_parts(const at_problem *p);
void at_tp_reference(const at_problem *p, const void *in, void *out,
                     void *bound, int64_t first, int64_t end);
const char *at_tp_verify_kernel(const at_problem *p);
/* Checks 0-3 odd shapes (or a strip problem's), 4-6 whole ones, for
 * kernels without the element path (ops.check_fits). */
enum { AT_TP_ODD_CHECKS = 4, AT_TP_CHECKS = 7 };
int at_tp_check_problem(const at_problem *p, int i, at_problem *out,
                        const char **label, at_err *e);
void at_tp_where(const at_problem *p, size_t elem, char *buf, size_t n);

/* transpose_strip.c: the strip kind, for a short side. The short side
 * if the problem has one the kind serves (1 to AT_STRIP_MAX_SHORT
 * elements), with *short_rows (if not NULL) 1 where it is the rows; else
 * 0. */
enum { AT_STRIP_MAX_SHORT = 64 };
int at_tp_strip_short(const at_problem *p, int *short_rows);
/* Whether strips alone serve the problem: a short side whose runs are
 * end to end. Runs apart, tiles compete: H100, u8 28 x 2810491 with runs
 * 30 bytes apart, strips 7% of the copy, the classic tile 32%; and runs
 * of whole words apart as well, f64 15 x 131743 with runs 67 elements
 * apart, the best strip 470 GB/s, the classic tile 1035 (sweep seed
 * 2506990431). */
int at_tp_strips_alone(const at_problem *p);
int at_tp_strip_valid(const at_problem *p, const at_point *pt,
                      const at_limits *l, char *why, size_t n);
void at_tp_strip_name(const at_point *pt, char *buf, size_t n);
/* Whether the point's long rows for p are output rows (or matrices) off
 * its vector width, where a strip point with pack 1 stores whole aligned
 * vectors realigned in registers (AT_REALIGN) in place of an element at
 * a time. Loads are not realigned (templates/transpose.cu says why). */
int at_tp_strip_realign(const at_problem *p, const at_point *pt);
void at_tp_strip_defines(const at_problem *p, const at_point *pt, char *buf,
                         size_t n);
void at_tp_strip_launch(const at_problem *p, const at_point *pt,
                        at_launch *g);
/* The untuned strip, from the default tile point in *pt (whose 32x8
 * threads, ldg and single step it keeps): no tile, the widest vector that
 * fits. */
void at_tp_strip_default(const at_problem *p, at_point *pt);

/* transpose_fitted.c: tile sides of no power of two, each the matrix's
 * side rounded up to 32 (one tile spans it). A fitted side may span up to
 * AT_TP_MAX_FITTED bytes (f64 213 x 134310 takes 224 rows). */
enum { AT_TP_MAX_FITTED = 2048 };
int at_tp_pow2(int v);
/* 0 where value of axis a (TILE_X, TILE_Y; any other: 1) is a fitted
 * side, but not p's, or flat 1 where no tile of p has flat runs: the
 * family's value_ok. */
int at_tp_value_ok(const at_problem *p, int a, int value);
/* The flat runs a tile of tx x ty has for p: a run of its input where it
 * spans the columns and the input rows are end to end, of its output
 * where it spans the rows and the output rows are end to end. */
enum { AT_TP_FLAT_IN = 1, AT_TP_FLAT_OUT = 2 };
int at_tp_flat_runs(const at_problem *p, int tx, int ty);
/* The constraint on fitted sides and flat runs: 1, or 0 with the reason
 * in why (if not NULL). */
int at_tp_medium_valid(const at_problem *p, const at_point *pt, char *why,
                       size_t n);

/* transpose_smem.c: a tile's shared memory (templates/transpose.cu's
 * AT_SMEM_BYTES) and a packed tile's padded layout for smem 3 (its
 * AT_CSKEW and AT_ROW_EXTRA). */
typedef struct at_tp_tile {
    int tx, ty, bx, by, vec, pack; /* the point's axes; pack 2 or 4 */
} at_tp_tile;
typedef struct at_tp_banks {
    int cskew; /* units of padding after every 32 of a row */
    int extra; /* and at its end */
} at_tp_banks;
/* The layout whose put and column reads take the fewest shared-memory
 * wavefronts, then the least padding ({0, 1}, the plain padded row,
 * where that serves). */
at_tp_banks at_tp_bank_layout(const at_tp_tile *t);
/* The wavefronts of one tile's put and unskewed column reads in layout b
 * (every warp of the block). */
long at_tp_bank_wavefronts(const at_tp_tile *t, at_tp_banks b);
/* A point's layout: smem 3's by its banks, else {0, 1}. */
at_tp_banks at_tp_point_banks(const at_problem *p, const at_point *pt);
/* 0 (the reason in why) for smem 3 where it is no point: unpacked, or
 * one unit a row is already the fewest conflicts (smem 1). */
int at_tp_smem_valid(const at_problem *p, const at_point *pt, char *why,
                     size_t n);
/* The input rows past a tile's that skewed stores read (AT_SKEW_ROWS). */
int at_tp_skew_rows(const at_problem *p, const at_point *pt);
/* The launch's dynamic shared memory (AT_SMEM_BYTES). */
unsigned at_tp_smem_bytes(const at_problem *p, const at_point *pt);

/* transpose_emit.c */
void at_tp_emit_launcher(FILE *f, const at_problem *p, const at_point *pt,
                         const char *name);
void at_tp_usage(const at_problem *p, const char *name, char *buf,
                 size_t n);

#endif
