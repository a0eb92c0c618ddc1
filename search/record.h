/* A record of a tuning run: one CSV row per evaluated point, written by
 * `autotune FAMILY --record FILE.csv` and read back by `autotune replay`.
 *
 *   gpu,family,type,problem,point,params,verified,status,median_ms,
 *   min_ms,max_ms,samples,gbps
 *
 * problem is the family's key text of the problem ("rows=8192 cols=8192
 * ..."); params is the point as "axis=value" pairs separated by spaces;
 * status is ok (passed its checks, timed), compile_failed or wrong (then
 * the times are empty). verified is 1 if the point was checked on the
 * problem itself, 0 if only on the family's check shapes (a point that
 * could not lead, tune_eval.c) or not at all. Fields hold no commas or
 * quotes (checked on writing). Records of autotune 0.1 (rows,cols in
 * place of problem) load too. */
#ifndef AT_RECORD_H
#define AT_RECORD_H

#include <stdio.h>

#include "base/error.h"
#include "strategy.h"

#define AT_RECORD_HEADER                                                     \
    "gpu,family,type,problem,point,params,verified,status,median_ms,"        \
    "min_ms,max_ms,samples,gbps,elapsed_s"
/* autotune 0.2 to 1.0's header: no elapsed_s. */
#define AT_RECORD_HEADER_V2                                                  \
    "gpu,family,type,problem,point,params,verified,status,median_ms,"        \
    "min_ms,max_ms,samples,gbps"
/* autotune 0.1's header. */
#define AT_RECORD_HEADER_V1                                                  \
    "gpu,family,type,rows,cols,point,params,verified,status,median_ms,"      \
    "min_ms,max_ms,samples,gbps"

typedef struct at_record_row {
    const char *gpu, *family, *type, *problem;
    const char *point, *params, *status; /* status: "ok", ... */
    double median_ms, min_ms, max_ms, gbps;
    int samples;
    int verified;     /* on the problem itself */
    double elapsed_s; /* since the tune began, when this row was known */
} at_record_row;

/* Writes the header (once, at the start) or a row; 0 or AUTOTUNE_EIO. */
int at_record_header(FILE *f, const char *path, at_err *e);
int at_record_write(FILE *f, const char *path, const at_record_row *r,
                    at_err *e);

/* A record read back as a space for the strategies: the axes are the
 * params' names, each with its distinct values in increasing order. */
typedef struct at_record {
    at_space_view view;
    char axis[AT_VIEW_MAX_AXES][32];
    int values[AT_VIEW_MAX_AXES][255]; /* value index -> value */
    double *ms;                        /* per point; < 0 failed */
    char (*point)[128];                /* names */
    size_t best;                       /* fastest point */
    char gpu[256], family[32], type[16], problem[512];
    unsigned char *coord;
} at_record;

int at_record_load(const char *path, at_record *r, at_err *e);
void at_record_free(at_record *r);

#endif
