/* The reduce family's problem: its fields, their defaults and checks, its
 * buffer sizes and how it is printed. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "reduce.h"

static const char *const ops[] = {"sum", "min", "max", "sumsq", "amax",
                                  NULL};
static const char *const axes[] = {"all", "cols", "rows", NULL};
static const char *const yes_no[] = {"no", "yes", NULL};

/* Largest count along a side: 2^40 elements (8 TiB of f64) is past any
 * GPU's memory, and products of two stay inside 64 bits. */
#define RD_MAX_LEN (1LL << 40)

const at_field at_rd_fields[RD_N_FIELDS] = {
    [RD_OP] = {"op", "sum, min, max, sumsq (sum of squares) or amax "
               "(largest |x|) (default sum)", OP_SUM, 0, 0, ops},
    [RD_AXIS] = {"axis", "all: the whole array (--n); cols: one result per "
                 "row; rows: one per column (default all)", AXIS_ALL, 0, 0,
                 axes},
    [RD_N] = {"n", "elements of the whole array (axis all; default 2^28)",
              0, 0, RD_MAX_LEN, NULL},
    [RD_ROWS] = {"rows", "rows of the matrix (axis cols or rows; default "
                 "16384)", 0, 0, INT_MAX, NULL},
    [RD_COLS] = {"cols", "columns of the matrix (default 16384)", 0, 0,
                 RD_MAX_LEN, NULL},
    [RD_LD] = {"ld", "elements between rows (default: cols)", 0, 0,
               RD_MAX_LEN, NULL},
    [RD_DET] = {"deterministic", "yes: bit-identical results run to run "
                "(no floating-point atomic sums) (default no)", 0, 0, 0, yes_no,
                1},
};

/* The bytes of a result, and of a partial as the host sizes the
 * workspace: i32's are 8 for every op, though min, max and amax
 * accumulate in 4 on the device (the kernel's partials then fill half
 * their slots; the space's shared-memory rule counts 8 as before). */
int at_rd_acc_bytes(const at_type *t)
{
    return t->bytes == 8 || t->fp == 0 ? 8 : 4;
}

const char *at_rd_acc_ctype(const at_type *t)
{
    return !t->fp ? "long long" : at_rd_acc_bytes(t) == 8 ? "double"
                                                          : "float";
}

int at_rd_type(const at_type *t)
{
    static const char *const names[] = {
        [RD_T_F32] = "f32", [RD_T_F64] = "f64", [RD_T_F16] = "f16",
        [RD_T_BF16] = "bf16", [RD_T_I32] = "i32"};
    for (int i = 0; i < 5; ++i)
        if (strcmp(t->name, names[i]) == 0)
            return i;
    return RD_T_F32; /* not reached: finish took only these */
}

int at_rd_down(const at_problem *p) { return p->v[RD_AXIS] == AXIS_ROWS; }

int at_rd_adds(const at_problem *p)
{
    return p->v[RD_OP] == OP_SUM || p->v[RD_OP] == OP_SUMSQ;
}

int at_rd_atomics_exact(const at_problem *p)
{
    return !p->type->fp || !at_rd_adds(p);
}

int64_t at_rd_len(const at_problem *p)
{
    return at_rd_down(p) ? p->v[RD_ROWS] : p->v[RD_COLS];
}

int64_t at_rd_outputs(const at_problem *p)
{
    return at_rd_down(p) ? p->v[RD_COLS] : p->v[RD_ROWS];
}

/* Axis all: n elements, kept as one row (rows 1, cols n, ld n: the key
 * text of it parses back). */
static int finish_all(int64_t *v, at_err *e)
{
    int64_t n = v[RD_N] ? v[RD_N] : 1LL << 28;
    if ((v[RD_ROWS] && v[RD_ROWS] != 1) || (v[RD_COLS] && v[RD_COLS] != n) ||
        (v[RD_LD] && v[RD_LD] != n))
        return at_fail(e, AUTOTUNE_EINVALID, "axis all reduces n elements: "
                       "give --n, or --rows/--cols with --axis cols (one "
                       "result per row) or --axis rows (one per column)");
    v[RD_N] = n;
    v[RD_ROWS] = 1;
    v[RD_COLS] = v[RD_LD] = n;
    return 0;
}

int at_rd_finish(at_problem *p, at_err *e)
{
    int64_t *v = p->v;
    int rc;
    if (v[RD_AXIS] == AXIS_ALL) {
        if ((rc = finish_all(v, e)))
            return rc;
    } else {
        if (v[RD_N])
            return at_fail(e, AUTOTUNE_EINVALID, "--n is for axis all; "
                           "axis %s takes --rows and --cols",
                           at_rd_fields[RD_AXIS].choices[v[RD_AXIS]]);
        v[RD_ROWS] = v[RD_ROWS] ? v[RD_ROWS] : 16384;
        v[RD_COLS] = v[RD_COLS] ? v[RD_COLS] : 16384;
        v[RD_LD] = v[RD_LD] ? v[RD_LD] : v[RD_COLS];
        if (v[RD_LD] < v[RD_COLS])
            return at_fail(e, AUTOTUNE_ERANGE, "ld %lld < cols %lld",
                           (long long)v[RD_LD], (long long)v[RD_COLS]);
    }
    /* Sides below 2^40 (fields' range): (rows - 1) * ld fits in 64 bits
     * only when checked. */
    const int64_t rows = v[RD_ROWS], cols = v[RD_COLS], ld = v[RD_LD];
    const int elem = p->type->bytes;
    if (rows - 1 > (INT64_MAX - cols) / ld ||
        (rows - 1) * ld + cols > INT64_MAX / 8)
        return at_fail(e, AUTOTUNE_ERANGE, "%lld x %lld with ld %lld: "
                       "element count overflows", (long long)rows,
                       (long long)cols, (long long)ld);
    p->in_bytes = (size_t)((rows - 1) * ld + cols) * (size_t)elem;
    p->out_bytes = (size_t)at_rd_outputs(p) *
                   (size_t)at_rd_acc_bytes(p->type);
    return 0;
}

void at_rd_describe(const at_problem *p, char *buf, size_t n)
{
    const int64_t *v = p->v;
    const char *op = ops[v[RD_OP]];
    const char *det = v[RD_DET] ? " deterministic" : "";
    if (v[RD_AXIS] == AXIS_ALL)
        snprintf(buf, n, "%s of n=%lld%s", op, (long long)v[RD_N], det);
    else
        snprintf(buf, n, "%s %s %lldx%lld ld=%lld (one per %s)%s", op,
                 v[RD_AXIS] == AXIS_COLS ? "along cols" : "down rows",
                 (long long)v[RD_ROWS], (long long)v[RD_COLS],
                 (long long)v[RD_LD],
                 v[RD_AXIS] == AXIS_COLS ? "row" : "column", det);
}

void at_rd_file_stem(const at_problem *p, char *buf, size_t n)
{
    const int64_t *v = p->v;
    if (v[RD_AXIS] == AXIS_ALL)
        snprintf(buf, n, "%s_%lld", ops[v[RD_OP]], (long long)v[RD_N]);
    else
        snprintf(buf, n, "%s_%s_%lldx%lld", ops[v[RD_OP]], axes[v[RD_AXIS]],
                 (long long)v[RD_ROWS], (long long)v[RD_COLS]);
}

/* Every element read once, every result written once. */
double at_rd_bytes_moved(const at_problem *p)
{
    return (double)p->v[RD_ROWS] * (double)p->v[RD_COLS] * p->type->bytes +
           (double)p->out_bytes;
}

/* The copy compared with moves the input's elements. */
size_t at_rd_copy_bytes(const at_problem *p)
{
    return (size_t)p->v[RD_ROWS] * (size_t)p->v[RD_COLS] *
           (size_t)p->type->bytes;
}

/* Of the bytes in the 64-byte blocks a padded input's rows touch, the
 * share that is elements: DRAM moves whole 64-byte blocks on the H100,
 * so rows padded apart read at about this share of the copy or less
 * (docs/PERFORMANCE.md, "Rows padded apart"). Offsets repeat every 64
 * rows or fewer. 1 for rows end to end. */
double at_rd_layout_share(const at_problem *p)
{
    const int64_t e = p->type->bytes, cols = p->v[RD_COLS], ld = p->v[RD_LD];
    const int64_t rows = p->v[RD_ROWS] < 64 ? p->v[RD_ROWS] : 64;
    if (ld <= cols || p->v[RD_AXIS] == AXIS_ALL)
        return 1;
    const int64_t touched = at_blocks_touched(0, ld * e, cols * e, rows);
    return (double)(rows * cols * e) / (double)(touched * 64);
}
