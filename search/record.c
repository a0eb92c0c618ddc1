#include "record.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "walk.h"

static int io_fail(at_err *e, const char *path)
{
    return at_fail(e, AUTOTUNE_EIO, "writing record %s: %s", path,
                   strerror(errno));
}

int at_record_header(FILE *f, const char *path, at_err *e)
{
    return fprintf(f, "%s\n", AT_RECORD_HEADER) < 0 ? io_fail(e, path) : 0;
}

static int plain(const char *s)
{
    return !strpbrk(s, ",\"\n\r");
}

int at_record_write(FILE *f, const char *path, const at_record_row *r,
                    at_err *e)
{
    if (!plain(r->gpu) || !plain(r->point) || !plain(r->params) ||
        !plain(r->problem))
        return at_fail(e, AUTOTUNE_EINVALID, "record %s: a comma, quote or "
                       "newline in '%s' / '%s' / '%s' / '%s'", path, r->gpu,
                       r->problem, r->point, r->params);
    int ok = strcmp(r->status, "ok") == 0;
    int n;
    if (ok)
        n = fprintf(f, "%s,%s,%s,%s,%s,%s,%d,ok,%.17g,%.17g,%.17g,%d,%.17g,"
                    "%.3f\n", r->gpu, r->family, r->type, r->problem,
                    r->point, r->params, r->verified != 0, r->median_ms,
                    r->min_ms, r->max_ms, r->samples, r->gbps, r->elapsed_s);
    else
        n = fprintf(f, "%s,%s,%s,%s,%s,%s,0,%s,,,,0,,%.3f\n", r->gpu,
                    r->family, r->type, r->problem, r->point, r->params,
                    r->status, r->elapsed_s);
    return n < 0 ? io_fail(e, path) : 0;
}

void at_record_free(at_record *r)
{
    free(r->ms);
    free(r->point);
    free(r->coord);
    memset(r, 0, sizeof *r);
}

/* Splits line at commas in place; returns the field count. */
static int split(char *line, char **f, int max)
{
    int n = 0;
    f[n++] = line;
    for (char *c = line; *c; ++c)
        if (*c == ',') {
            *c = '\0';
            if (n == max)
                return max + 1;
            f[n++] = c + 1;
        }
    return n;
}

/* Fields of a row (autotune 0.1's rows,cols are merged into problem;
 * 0.2 to 1.0's rows end before elapsed_s). */
enum { C_GPU, C_FAMILY, C_TYPE, C_PROBLEM, C_POINT, C_PARAMS, C_VERIFIED,
       C_STATUS, C_MEDIAN, C_ELAPSED = 13, C_N = 14 };

/* Which header a record has: its rows' layout. */
enum { REC_V1 = 1, REC_V2, REC_V3 };

typedef struct raw {
    int v[AT_VIEW_MAX_AXES];
    double ms;
    char point[128];
} raw;

/* "a=1 b=2": names into r->axis (first row) or checked against them. */
static int parse_params(at_record *r, char *s, int *v, const char *where,
                        at_err *e)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(s, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        char *end;
        if (!eq || eq == tok || n == AT_VIEW_MAX_AXES)
            return at_fail(e, AUTOTUNE_EINVALID, "%s: params: '%s' is not "
                           "axis=value (at most %d axes)", where, tok,
                           AT_VIEW_MAX_AXES);
        *eq = '\0';
        errno = 0;
        long x = strtol(eq + 1, &end, 10);
        if (!eq[1] || *end || errno == ERANGE || x < INT_MIN || x > INT_MAX)
            return at_fail(e, AUTOTUNE_EINVALID, "%s: params: %s=%s is not "
                           "a whole number that fits an int", where, tok,
                           eq + 1);
        if (r->view.n_axes == 0 || n >= r->view.n_axes) {
            if (r->view.n == 0 && strlen(tok) < sizeof r->axis[0]) {
                snprintf(r->axis[n], sizeof r->axis[0], "%s", tok);
            } else {
                return at_fail(e, AUTOTUNE_EINVALID, "%s: params: axis '%s' "
                               "is not among the first row's", where, tok);
            }
        } else if (strcmp(r->axis[n], tok) != 0) {
            return at_fail(e, AUTOTUNE_EINVALID, "%s: params: axis %d is "
                           "'%s', the first row's is '%s'", where, n + 1,
                           tok, r->axis[n]);
        }
        v[n++] = (int)x;
    }
    if (r->view.n == 0)
        r->view.n_axes = n;
    if (n == 0 || n != r->view.n_axes)
        return at_fail(e, AUTOTUNE_EINVALID, "%s: params: %d axes, the first "
                       "row has %d", where, n, r->view.n_axes);
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The distinct values of each axis, then every row's coordinates. */
static int index_axes(at_record *r, const raw *rows, const char *path,
                      at_err *e)
{
    at_space_view *v = &r->view;
    int *tmp = malloc(v->n * sizeof *tmp);
    r->coord = malloc(v->n * (size_t)v->n_axes);
    if (!tmp || !r->coord) {
        free(tmp);
        return at_fail(e, AUTOTUNE_ENOMEM, "record %s", path);
    }
    for (int a = 0; a < v->n_axes; ++a) {
        for (size_t i = 0; i < v->n; ++i)
            tmp[i] = rows[i].v[a];
        qsort(tmp, v->n, sizeof *tmp, cmp_int);
        int k = 0;
        for (size_t i = 0; i < v->n; ++i) {
            if (k && tmp[i] == r->values[a][k - 1])
                continue;
            if (k == 255) {
                free(tmp);
                return at_fail(e, AUTOTUNE_EINVALID, "record %s: axis %s has "
                               "more than 255 values", path, r->axis[a]);
            }
            r->values[a][k++] = tmp[i];
        }
        v->radix[a] = k;
        for (size_t i = 0; i < v->n; ++i) {
            int *hit = bsearch(&rows[i].v[a], r->values[a], (size_t)k,
                               sizeof(int), cmp_int);
            r->coord[i * (size_t)v->n_axes + (size_t)a] =
                (unsigned char)(hit - r->values[a]);
        }
    }
    free(tmp);
    v->coord = r->coord;
    /* One row per point: a repeated point would make replay ambiguous. */
    at_walk w;
    if (at_walk_init(&w, v, 1) != 0)
        return at_fail(e, AUTOTUNE_ENOMEM, "record %s", path);
    int rc = 0;
    for (size_t i = 0; i < v->n && !rc; ++i)
        if (at_walk_find(&w, r->coord + i * (size_t)v->n_axes) != i)
            rc = at_fail(e, AUTOTUNE_EINVALID, "record %s: point %s appears "
                         "more than once", path, r->point[i]);
    at_walk_free(&w);
    return rc;
}

/* autotune 0.1's rows: "rows,cols" become problem "rows=R cols=C", the
 * fields after them one to the left. */
static void merge_v1(char **fld, char *buf, size_t n)
{
    snprintf(buf, n, "rows=%s cols=%s", fld[3], fld[4]);
    fld[C_PROBLEM] = buf;
    memmove(&fld[C_POINT], &fld[C_POINT + 1],
            (size_t)(C_ELAPSED - C_POINT) * sizeof *fld);
}

/* The fields a row of each version has. */
static const int row_fields[] = {[REC_V1] = C_N, [REC_V2] = C_N - 1,
                                 [REC_V3] = C_N};

/* One data line into x (and, for the first, r's run fields). */
static int parse_row(at_record *r, char *line, int ver, size_t n, raw *x,
                     const char *where, at_err *e)
{
    char *fld[C_N + 2], v1_problem[128];
    const int want = row_fields[ver];
    int nf = split(line, fld, want);
    if (nf != want)
        return at_fail(e, AUTOTUNE_EINVALID, "%s: %d fields, want %d", where,
                       nf, want);
    if (ver == REC_V1)
        merge_v1(fld, v1_problem, sizeof v1_problem);
    if (ver != REC_V3)
        fld[C_ELAPSED] = "";
    snprintf(x->point, sizeof x->point, "%s", fld[C_POINT]);
    if (n == 0) {
        snprintf(r->gpu, sizeof r->gpu, "%s", fld[C_GPU]);
        snprintf(r->family, sizeof r->family, "%s", fld[C_FAMILY]);
        snprintf(r->type, sizeof r->type, "%s", fld[C_TYPE]);
        snprintf(r->problem, sizeof r->problem, "%s", fld[C_PROBLEM]);
    }
    r->view.n = n;
    int rc = parse_params(r, fld[C_PARAMS], x->v, where, e);
    if (rc)
        return rc;
    if (strcmp(fld[C_VERIFIED], "0") != 0 && strcmp(fld[C_VERIFIED], "1") != 0)
        return at_fail(e, AUTOTUNE_EINVALID, "%s: verified is '%s', not 0 "
                       "or 1", where, fld[C_VERIFIED]);
    /* A point that passed its checks has a time, whether or not it was
     * checked on the problem itself (record.h). */
    int ok = strcmp(fld[C_STATUS], "ok") == 0;
    char *end;
    x->ms = ok ? strtod(fld[C_MEDIAN], &end) : -1.0;
    if (ok && (!fld[C_MEDIAN][0] || *end || !(x->ms > 0) || !isfinite(x->ms)))
        return at_fail(e, AUTOTUNE_EINVALID, "%s: status ok, but median_ms "
                       "'%s' is not a positive time", where, fld[C_MEDIAN]);
    if (!ok && strcmp(fld[C_VERIFIED], "0") != 0)
        return at_fail(e, AUTOTUNE_EINVALID, "%s: verified, but status '%s'",
                       where, fld[C_STATUS]);
    double t = strtod(fld[C_ELAPSED], &end);
    if (fld[C_ELAPSED][0] && (*end || !(t >= 0) || !isfinite(t)))
        return at_fail(e, AUTOTUNE_EINVALID, "%s: elapsed_s '%s' is not a "
                       "time", where, fld[C_ELAPSED]);
    return 0;
}

/* The rows' times and names into r, and the fastest point. */
static int keep_rows(at_record *r, const raw *rows, size_t n,
                     const char *path, at_err *e)
{
    r->ms = malloc(n * sizeof *r->ms);
    r->point = malloc(n * sizeof *r->point);
    if (!r->ms || !r->point)
        return at_fail(e, AUTOTUNE_ENOMEM, "record %s", path);
    r->best = AT_NONE;
    for (size_t i = 0; i < n; ++i) {
        r->ms[i] = rows[i].ms;
        memcpy(r->point[i], rows[i].point, sizeof r->point[i]);
        if (r->ms[i] > 0 && (r->best == AT_NONE || r->ms[i] < r->ms[r->best]))
            r->best = i;
    }
    if (r->best == AT_NONE)
        return at_fail(e, AUTOTUNE_EINVALID,
                       "record %s: no point passed its checks", path);
    return 0;
}

int at_record_load(const char *path, at_record *r, at_err *e)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "r");
    if (!f)
        return at_fail(e, AUTOTUNE_EIO, "record %s: %s", path,
                       strerror(errno));
    char *line = NULL, where[1100];
    size_t line_cap = 0;
    ssize_t got;
    raw *rows = NULL;
    size_t cap = 0, n = 0;
    long lineno = 0;
    int rc = 0, ver = REC_V3;
    while (!rc && (got = getline(&line, &line_cap, f)) >= 0) {
        ++lineno;
        snprintf(where, sizeof where, "%s:%ld", path, lineno);
        if (memchr(line, '\0', (size_t)got)) { /* not text: said so */
            rc = at_fail(e, AUTOTUNE_EINVALID, "%s: a NUL byte (not a "
                         "record's text)", where);
            break;
        }
        if (got >= 2048) {
            rc = at_fail(e, AUTOTUNE_EINVALID, "%s: line too long (%zd "
                         "bytes, at most 2047)", where, got);
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (lineno == 1) {
            ver = strcmp(line, AT_RECORD_HEADER_V1) == 0   ? REC_V1
                  : strcmp(line, AT_RECORD_HEADER_V2) == 0 ? REC_V2
                                                           : REC_V3;
            if (ver == REC_V3 && strcmp(line, AT_RECORD_HEADER) != 0)
                rc = at_fail(e, AUTOTUNE_EINVALID, "%s: not an autotune "
                             "record: the header must be '%s'", where,
                             AT_RECORD_HEADER);
            continue;
        }
        if (!line[0])
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            raw *g = realloc(rows, cap * sizeof *rows);
            if (!g) {
                rc = at_fail(e, AUTOTUNE_ENOMEM, "record %s", path);
                break;
            }
            rows = g;
        }
        if (!(rc = parse_row(r, line, ver, n, &rows[n], where, e)))
            ++n;
    }
    if (!rc && ferror(f))
        rc = at_fail(e, AUTOTUNE_EIO, "reading record %s: %s", path,
                     strerror(errno));
    fclose(f);
    free(line);
    if (!rc && lineno == 0)
        rc = at_fail(e, AUTOTUNE_EINVALID, "record %s is empty", path);
    if (!rc && n == 0)
        rc = at_fail(e, AUTOTUNE_EINVALID, "record %s has no points", path);
    r->view.n = n;
    if (!rc)
        rc = keep_rows(r, rows, n, path, e);
    if (!rc)
        rc = index_axes(r, rows, path, e);
    free(rows);
    if (rc)
        at_record_free(r);
    return rc;
}
