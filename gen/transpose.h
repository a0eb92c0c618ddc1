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

/* Largest batch: the kernel takes it as an int. */
#define AT_MAX_BATCH 2147483647LL

/* transpose_problem.c */
extern const at_field at_tp_fields[TP_N_FIELDS];
int at_tp_from_api(const autotune_problem *u, at_problem *p, at_err *e);
int at_tp_finish(at_problem *p, at_err *e);
void at_tp_describe(const at_problem *p, char *buf, size_t n);
void at_tp_file_stem(const at_problem *p, char *buf, size_t n);
double at_tp_bytes_moved(const at_problem *p);
size_t at_tp_copy_bytes(const at_problem *p);

/* transpose_check.c */
int64_t at_tp_reference_parts(const at_problem *p);
void at_tp_reference(const at_problem *p, const void *in, void *out,
                     int64_t first, int64_t end);
enum { AT_TP_CHECKS = 4 };
int at_tp_check_problem(const at_problem *p, int i, at_problem *out,
                        const char **label, at_err *e);
void at_tp_where(const at_problem *p, size_t elem, char *buf, size_t n);

/* transpose_emit.c */
void at_tp_emit_launcher(FILE *f, const at_problem *p, const at_point *pt,
                         const char *name);
void at_tp_usage(const at_problem *p, const char *name, char *buf,
                 size_t n);

#endif
