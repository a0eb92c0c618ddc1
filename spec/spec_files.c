/* The files a spec names (spec_internal.h): kernel and reference sources
 * and data, each relative to the spec's folder and inside it, so a spec
 * from elsewhere cannot read /etc/shadow into an emitted file; and data
 * files, raw bytes or NumPy's .npy of the argument's lane type. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/readfile.h"
#include "base/text.h"
#include "spec/spec_internal.h"

/* dir/name resolved, refused unless inside dir (links followed). */
static int resolve(at_yaml *y, const at_spec *s, yaml_node_t *n,
                   const char *key, const char *name, char *full,
                   size_t len)
{
    char shown[256], top[PATH_MAX], path[PATH_MAX + 256];
    at_text_printable(name, shown, sizeof shown, 0);
    if (!s->dir)
        return at_yaml_fail(y, n, key, "'%s': a spec given as text names "
                            "no files", shown);
    if (!name[0] || name[0] == '/')
        return at_yaml_fail(y, n, key, "'%s': %s; paths are relative to the "
                            "spec's folder", shown,
                            name[0] ? "an absolute path" : "an empty path");
    if (!realpath(s->dir, top))
        return at_yaml_fail(y, n, key, "the spec's folder cannot be "
                            "resolved");
    snprintf(path, sizeof path, "%s/%s", s->dir, name);
    if (!realpath(path, full) || strlen(full) >= len)
        return at_yaml_fail(y, n, key, "cannot open '%s' in the spec's "
                            "folder", shown);
    size_t t = strlen(top);
    if (strncmp(full, top, t) != 0 || (full[t] != '/' && t > 1))
        return at_yaml_fail(y, n, key, "'%s' leads out of the spec's folder "
                            "(by '..' or a link); paths stay inside it",
                            shown);
    return 0;
}

int at_spec_read(at_yaml *y, const at_spec *s, yaml_node_t *n,
                 const char *key, const char *name, int text, char **out,
                 size_t *len)
{
    char full[PATH_MAX];
    *out = NULL;
    int rc = resolve(y, s, n, key, name, full, sizeof full);
    if (rc)
        return rc;
    at_err why = {0};
    if (at_read_file_max(full, text ? AT_READ_FILE_MAX : AT_SPEC_MAX_FILE,
                         out, len, &why))
        return at_yaml_fail(y, n, key, "%s", why.msg);
    if (text && strlen(*out) != *len) {
        free(*out);
        *out = NULL;
        return at_yaml_fail(y, n, key, "the source holds a NUL byte");
    }
    return 0;
}

int at_spec_read_source(at_yaml *y, const at_spec *s, yaml_node_t *n,
                        const char *key, char **file, char **text)
{
    size_t len;
    int rc = at_yaml_string(y, n, key, file);
    return rc ? rc : at_spec_read(y, s, n, key, *file, 1, text, &len);
}

/* The value of 'key': ... in a .npy header dict: its text up to the
 * next ',' at depth 0 (a tuple's commas are inside its parentheses). */
static int npy_field(const char *h, const char *key, char *out, size_t n)
{
    char pat[32];
    snprintf(pat, sizeof pat, "'%s':", key);
    const char *v = strstr(h, pat);
    if (!v)
        return -1;
    v += strlen(pat);
    while (*v == ' ')
        ++v;
    size_t k = 0;
    int depth = 0;
    for (; *v && k + 1 < n; ++v) {
        if (*v == '(')
            ++depth;
        if (*v == ')')
            --depth;
        if ((*v == ',' || *v == '}') && depth == 0)
            break;
        out[k++] = *v;
    }
    out[k] = '\0';
    return depth == 0 ? 0 : -1;
}

/* NumPy's dtype text for lanes of t ("<f4"), or NULL (bf16 has none). */
static const char *npy_descr(const at_type *t, char *buf, size_t n)
{
    if (t->fp == 2 && strncmp(t->ctype, "__nv_bfloat16", 13) == 0)
        return NULL;
    char kind = t->fp ? 'f' : t->is_unsigned ? 'u' : 'i';
    snprintf(buf, n, "'%c%c%d'", t->lane == 1 ? '|' : '<', kind, t->lane);
    return buf;
}

/* A .npy's elements: header checked against a's lane type; C order. */
static int npy(at_yaml *y, yaml_node_t *n, at_spec_arg *a,
               unsigned char *bytes, size_t len)
{
    const char *key = a->name;
    if (len < 10 || memcmp(bytes, "\x93NUMPY", 6) != 0)
        return at_yaml_fail(y, n, key, "%s is not a .npy file (no NumPy "
                            "magic)", a->file);
    int major = bytes[6];
    size_t hl = major == 1 ? (size_t)bytes[8] | (size_t)bytes[9] << 8
                : len >= 12 ? (size_t)bytes[8] | (size_t)bytes[9] << 8 |
                                  (size_t)bytes[10] << 16 |
                                  (size_t)bytes[11] << 24
                            : len;
    size_t start = (major == 1 ? 10 : 12) + hl;
    if ((major < 1 || major > 3) || start > len || hl > 65535)
        return at_yaml_fail(y, n, key, "%s: an unreadable .npy header "
                            "(version %d)", a->file, major);
    char h[65536 + 1], descr[64], order[16], shape[256], want[16];
    memcpy(h, bytes + start - hl, hl);
    h[hl] = '\0';
    if (npy_field(h, "descr", descr, sizeof descr) ||
        npy_field(h, "fortran_order", order, sizeof order) ||
        npy_field(h, "shape", shape, sizeof shape))
        return at_yaml_fail(y, n, key, "%s: a .npy header without descr, "
                            "fortran_order and shape", a->file);
    if (!npy_descr(a->type, want, sizeof want))
        return at_yaml_fail(y, n, key, "NumPy has no dtype for %s: give its "
                            "bytes as a raw file", a->type->name);
    /* '=' is native order: little-endian on every machine we run on. */
    if (descr[1] == '=')
        descr[1] = want[1];
    if (strcmp(descr, want) != 0)
        return at_yaml_fail(y, n, key, "%s holds %s values, the argument's "
                            "lanes (%s) are %s", a->file, descr,
                            a->type->name, want);
    int dims = 0; /* dimensions of more than one element */
    for (const char *c = shape; *c; ++c)
        if (*c >= '0' && *c <= '9') {
            dims += strtoull(c, NULL, 10) > 1;
            while (c[1] >= '0' && c[1] <= '9')
                ++c;
        }
    if (strcmp(order, "True") == 0 && dims > 1)
        return at_yaml_fail(y, n, key, "%s is in Fortran order; save it in "
                            "C order (numpy.ascontiguousarray)", a->file);
    a->data_bytes = len - start;
    memmove(bytes, bytes + start, a->data_bytes);
    a->data = bytes;
    return 0;
}

int at_spec_load_data(at_yaml *y, const at_spec *s, yaml_node_t *n,
                      at_spec_arg *a)
{
    char *bytes;
    size_t len;
    int rc = at_spec_read(y, s, n, a->name, a->file, 0, &bytes, &len);
    if (rc)
        return rc;
    size_t k = strlen(a->file);
    if (k > 4 && strcmp(a->file + k - 4, ".npy") == 0) {
        if ((rc = npy(y, n, a, (unsigned char *)bytes, len)))
            free(bytes);
        return rc;
    }
    a->data = (unsigned char *)bytes;
    a->data_bytes = len;
    return 0;
}
