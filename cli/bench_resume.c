#include "bench_resume.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/readfile.h"
#include "compare.h"

void at_bench_csv_key(const at_problem *p, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "%s,%s", p->family->name,
                                   p->type->name);
    for (int i = 0; i < p->family->n_fields && used < n; ++i) {
        char v[64];
        used += (size_t)snprintf(buf + used, n - used, ",%s",
                                 at_problem_value_text(p, i, v, sizeof v));
    }
}

/* The first field of line (quoted as the benchmark quotes it, or not)
 * into out; *rest after its comma. 0 if malformed. */
static int first_field(const char *line, char *out, size_t n,
                       const char **rest)
{
    size_t k = 0;
    const char *s = line;
    if (*s == '"') {
        for (++s; *s && !(*s == '"' && s[1] != '"'); ++s) {
            if (*s == '"')
                ++s; /* "" is one quote */
            if (k + 1 < n)
                out[k++] = *s;
        }
        if (*s++ != '"')
            return 0;
    } else {
        for (; *s && *s != ','; ++s)
            if (k + 1 < n)
                out[k++] = *s;
    }
    out[k] = '\0';
    if (*s != ',')
        return 0;
    *rest = s + 1;
    return 1;
}

static int number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0;
}

/* A row's kernel as an index into the comparison's rows (names: as
 * at_cmp_init names them), or -1. */
static int kernel_row(const at_cmp *names, const char *kernel)
{
    for (int k = 0; k < names->n; ++k)
        if (strcmp(kernel, names->row[k].kernel) == 0)
            return k;
    return -1;
}

/* One data line: its GPU, and after it the key and the four figures'
 * columns (kernel, ms, gbps, frac_copy) split off from the right. */
static int split(char *line, char *gpu, size_t gpu_n, char **key,
                 char *tail[4])
{
    const char *rest;
    if (!first_field(line, gpu, gpu_n, &rest))
        return 0;
    *key = (char *)rest;
    for (int i = 3; i >= 0; --i) {
        char *comma = strrchr(*key, ',');
        if (!comma)
            return 0;
        *comma = '\0';
        tail[i] = comma + 1;
    }
    return 1;
}

/* A problem's comparison before its rows are read: every kernel absent. */
static void clear(const at_cmp *names, at_cmp *c)
{
    *c = *names;
    for (int k = AT_CMP_FIRST_CONTENDER; k < c->n; ++k)
        snprintf(c->row[k].why, sizeof c->row[k].why,
                 "no row in the resumed CSV");
    snprintf(c->point, sizeof c->point, "(resumed)");
}

int at_bench_resume(const char *path, const at_bench_family *bf,
                    const at_problem *const *ps, at_cmp *const *cs, int n,
                    int *got, char *gpu, size_t gpu_n, at_err *e)
{
    at_cmp names = {0};
    char *text = NULL;
    size_t len = 0;
    int rc = at_cmp_init(&names, bf, e);
    if (!rc && (rc = at_read_file_max(path, 256u << 20, &text, &len, e)))
        at_err_prefix(e, "--resume: ");
    if (rc)
        return rc;
    /* A stopped run may leave its last line cut short: not a row. */
    if (len && text[len - 1] != '\n') {
        char *nl = strrchr(text, '\n');
        *(nl ? nl + 1 : text) = '\0';
    }
    char **keys = calloc((size_t)n + 1, sizeof *keys);
    int *seen = calloc((size_t)n + 1, sizeof *seen); /* rows a problem got */
    for (int i = 0; keys && i < n; ++i) {
        keys[i] = malloc(1024);
        if (keys[i])
            at_bench_csv_key(ps[i], keys[i], 1024);
    }
    gpu[0] = '\0';
    int line_no = 0, header = 0;
    for (char *line = text, *next; !rc && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        ++line_no;
        line[strcspn(line, "\r")] = '\0';
        if (!*line)
            continue; /* a blank line */
        if (!header++) {
            if (strncmp(line, "gpu,family,type,", 16) != 0 ||
                !strstr(line, ",kernel,ms,gbps,frac_copy"))
                rc = at_fail(e, AUTOTUNE_EINVALID, "--resume %s: not a "
                             "benchmark CSV (its header is not gpu,family,"
                             "type,...,kernel,ms,gbps,frac_copy)", path);
            continue;
        }
        char g[256], *key, *tail[4];
        double ms, gbps, frac;
        if (!split(line, g, sizeof g, &key, tail) ||
            !number(tail[1], &ms) || !number(tail[2], &gbps) ||
            !number(tail[3], &frac)) {
            rc = at_fail(e, AUTOTUNE_EINVALID, "--resume %s:%d: not a "
                         "benchmark row", path, line_no);
            break;
        }
        size_t fam = strcspn(key, ",");
        if (strlen(bf->family) != fam || strncmp(key, bf->family, fam)) {
            rc = at_fail(e, AUTOTUNE_EINVALID, "--resume %s:%d: a row of "
                         "another family (%.*s), this is bench %s", path,
                         line_no, (int)fam, key, bf->family);
            break;
        }
        if (gpu[0] && strcmp(gpu, g) != 0) {
            rc = at_fail(e, AUTOTUNE_EINVALID, "--resume %s:%d: rows of "
                         "two GPUs (%s, then %s)", path, line_no, gpu, g);
            break;
        }
        snprintf(gpu, gpu_n, "%s", g);
        const int k = kernel_row(&names, tail[0]);
        if (k < 0) {
            rc = at_fail(e, AUTOTUNE_EINVALID, "--resume %s:%d: kernel '%s' "
                         "is not one of bench %s's", path, line_no, tail[0],
                         bf->family);
            break;
        }
        for (int i = 0; keys && seen && i < n; ++i) {
            if (!keys[i] || strcmp(keys[i], key) != 0)
                continue;
            if (!seen[i]++)
                clear(&names, cs[i]);
            at_cmp_row *w = &cs[i]->row[k];
            w->present = 1;
            w->why[0] = '\0';
            w->ms = w->min_ms = w->max_ms = ms;
            w->gbps = gbps;
            w->frac_copy = frac;
        }
    }
    if (!rc && !header)
        rc = at_fail(e, AUTOTUNE_EINVALID, "--resume %s: empty, not a "
                     "benchmark CSV", path);
    if (!rc && (!keys || !seen))
        rc = at_fail(e, AUTOTUNE_ENOMEM, "--resume %s", path);
    for (int i = 0; !rc && i < n; ++i)
        got[i] = seen[i] && cs[i]->row[AT_CMP_MEMCPY].present &&
                 cs[i]->row[AT_CMP_TUNED].present;
    for (int i = 0; keys && i < n; ++i)
        free(keys[i]);
    free(keys);
    free(seen);
    free(text);
    return rc;
}
